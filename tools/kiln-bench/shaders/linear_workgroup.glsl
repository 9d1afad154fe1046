// Numbering for one-dimensional jobs dispatched as rows of workgroups (compute_helpers.h:
// workgroup_rows), because maxComputeWorkGroupCount[0] is only guaranteed to be 65535.
// Include after the shader's layout(local_size_x = …) in;

uint linear_workgroup_index() {
  return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

uint linear_invocation_index() {
  const uint workgroup_invocations = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
  return linear_workgroup_index() * workgroup_invocations + gl_LocalInvocationIndex;
}
