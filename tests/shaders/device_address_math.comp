#version 460
// Pointer arithmetic on buffer device addresses: the same element reached through uint64
// arithmetic, uvec2 arithmetic with a carry, and reference indexing (OpPtrAccessChain); std430
// layout of a struct with a vec3, a mat3 (16-byte column stride) and a float array; pointers
// written to memory; a store through a computed pointer.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

struct Item {
  vec3 position;     // offset 0
  uint id;           // 12
  mat3 basis;        // 16, columns 16 bytes apart
  float weights[3];  // 64, stride 4
};                   // 80 bytes
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ItemRef { Item item; };
layout(push_constant) uniform Push {
  ItemRef items;  // an array of `count` items
  uint count;
} push;
layout(set = 0, binding = 0, std430) writeonly buffer Results { vec4 values[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Pointers { ItemRef pointers[]; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint k = (i * 7u) % push.count;  // a permutation: each item has one reader/writer
  ItemRef by_u64 = ItemRef(uint64_t(push.items) + uint64_t(k) * 80ul);
  uvec2 base = uvec2(push.items);
  uint low = base.x + k * 80u;
  ItemRef by_uvec2 = ItemRef(uvec2(low, base.y + (low < base.x ? 1u : 0u)));
  ItemRef by_index = push.items[k];
  values[i] = vec4(by_u64.item.position.y, by_uvec2.item.basis[1][2], by_index.item.weights[i % 3u],
                   float(by_u64.item.id));
  pointers[i] = by_index;
  by_uvec2.item.position.x = float(i);
}
