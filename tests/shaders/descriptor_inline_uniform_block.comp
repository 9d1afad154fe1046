#version 460
// Inline uniform blocks (tests/e2e/descriptor_inline_uniform_block_test.cpp): two blocks of set 0
// read like uniform buffers, with constant and dynamic indices, and a block in set 1.
layout(local_size_x = 16) in;

layout(set = 0, binding = 0) buffer Results { uvec4 results[]; };
layout(set = 0, binding = 1) uniform Block { uvec4 header; uvec4 rows[3]; } block;
layout(set = 0, binding = 2) uniform Small { uint x; uint y; uint z; uint w; } small;
layout(set = 1, binding = 0) uniform Other { vec4 scale; } other;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uvec4 row = block.rows[i % 3u];
  results[i] = uvec4(row[i % 4u] + block.header.x, small.x * 1000u + small.y, small.z + small.w,
                     uint(other.scale[i % 4u] * float(i)));
}
