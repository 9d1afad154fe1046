// What mesh_subgroup.task hands to its mesh workgroup.
struct Payload {
  uint task;         // the task workgroup's number t
  uint total;        // the sum over its invocations i of i + 1 + 1000 t, from subgroupAdd
  uint subgroups_ok; // 1 when the subgroups that added up were gl_NumSubgroups
};
taskPayloadSharedEXT Payload payload;
