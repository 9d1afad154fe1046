#version 460
// Linked lists through buffer device addresses: each invocation walks its own list (so the lanes
// leave the loop at different times), reaching its list head through a pointer to a buffer of
// pointers held in push constants.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;

layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Node {
  Node next;  // 0 ends the list
  uint value;
  uint weight;
};
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Heads {
  Node heads[128];  // sized: an unsized array here makes glslang declare RuntimeDescriptorArray
};
layout(push_constant) uniform Push {
  Heads list_heads;
  uint count;
} push;
layout(set = 0, binding = 0, std430) writeonly buffer Results { uvec2 results[]; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= push.count) return;
  Node node = push.list_heads.heads[i];
  uint sum = 0u, length = 0u;
  while (uint64_t(node) != 0ul) {
    sum += node.value * node.weight;
    length++;
    node = node.next;
  }
  results[i] = uvec2(sum, length);
}
