#version 460
// One of many dispatches recorded with nothing between them: the first invocation of each
// dispatch appends the dispatch's id to `order` (so the order they ran in shows), and every
// invocation writes its own cell (so a dispatch or workgroup that did not run shows).
layout(local_size_x = 4) in;
layout(push_constant) uniform Parameters { uint id; };
layout(std430, binding = 0) buffer Out {
  uint next;
  uint order[64];
  uint cells[];  // [id][workgroup < 8][invocation < 4]
};

void main() {
  if (gl_WorkGroupID.x == 0 && gl_LocalInvocationIndex == 0) order[atomicAdd(next, 1u)] = id;
  cells[(id * 8 + gl_WorkGroupID.x) * 4 + gl_LocalInvocationIndex] = 1 + id * 1000 + gl_WorkGroupID.x * 10 + gl_LocalInvocationIndex;
}
