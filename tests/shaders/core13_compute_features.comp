#version 450
// Vulkan 1.2/1.3 compute features in one shader (compute_features13_test.cpp): subgroup size
// control and full subgroups, subgroupBroadcast with a dynamically uniform id, std430 and scalar
// uniform-block layouts, and a null-initialized shared array. Row i of `rows` (8 uints):
//   gl_SubgroupSize, gl_NumSubgroups, gl_SubgroupID, gl_SubgroupInvocationID,
//   subgroupBroadcast(lane * 10 + 7, id), the shared array's value before this workgroup wrote it,
//   and two words of the uniform-layout sum.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_null_initializer : require
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) uniform Std430 { float f[4]; vec2 v2[2]; uint broadcast_id; } u430;
layout(scalar, binding = 1) uniform Scalar { float a; vec3 b; vec3 c[2]; } us;
layout(std430, binding = 2) buffer Rows { uint rows[]; };
shared uint zeroed[256] = {};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint local = gl_LocalInvocationIndex;
  const uint before = zeroed[local % 256];
  barrier();
  zeroed[local % 256] = 0xDEAD0000u + local;  // what the next workgroup must not see
  const vec3 sum = us.b + vec3(u430.f[1], u430.v2[1]) + us.c[1] * us.a;
  rows[i * 8 + 0] = gl_SubgroupSize;
  rows[i * 8 + 1] = gl_NumSubgroups;
  rows[i * 8 + 2] = gl_SubgroupID;
  rows[i * 8 + 3] = gl_SubgroupInvocationID;
  rows[i * 8 + 4] = subgroupBroadcast(gl_SubgroupInvocationID * 10 + 7, u430.broadcast_id);
  rows[i * 8 + 5] = before;
  rows[i * 8 + 6] = floatBitsToUint(sum.x + sum.y);
  rows[i * 8 + 7] = floatBitsToUint(sum.z);
}
