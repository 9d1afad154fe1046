// The payload mesh_payload.task hands to the mesh workgroups it launches.
struct Payload {
  uint task;       // the task workgroup's number t
  uint values[4];  // invocation j's 10 t + j
};
taskPayloadSharedEXT Payload payload;
