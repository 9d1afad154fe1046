// Subgroup operations on 8-, 16- and 64-bit integers and 16- and 64-bit floats
// (shaderSubgroupExtendedTypes; doubles need only shaderFloat64), included by
// subgroup_extended_types.comp and, with clustered reductions (KILN_WITH_CLUSTERED_OPS),
// subgroup_extended_types_clustered.comp: drivers without VK_SUBGROUP_FEATURE_CLUSTERED_BIT
// (lavapipe) run the first. Each invocation's inputs come from its case;
// tests/e2e/compute_types_test.cpp models the subgroups (invocation i is lane
// i % gl_SubgroupSize, which the shader reports first).
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
layout(local_size_x = 32) in;
#include "ops_results.glsl"
#include "ops_types_results.glsl"

struct Case {
  int8_t a8;
  uint8_t u8;
  int16_t a16;
  uint16_t u16;
  float16_t h, hm;  // hm: factors for subgroupMul, small powers of two
  int64_t a64;
  uint64_t u64;
  double d, dm;
  uint index, padding;
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

#ifdef KILN_WITH_CLUSTERED_OPS
#define CLUSTERED_ADD(x) emit(subgroupClusteredAdd(x, 4u));
#else
#define CLUSTERED_ADD(x)
#endif

// The operations every type gets; `x` is the value, `m` the one to multiply.
#define COMMON_OPS(x, m)                                                        \
  emit(subgroupAdd(x));                                                         \
  emit(subgroupMul(m));                                                         \
  emit(subgroupMin(x));                                                         \
  emit(subgroupMax(x));                                                         \
  emit(subgroupInclusiveAdd(x));                                                \
  emit(subgroupExclusiveAdd(x));                                                \
  emit(subgroupBroadcast(x, 1u));                                               \
  emit(subgroupBroadcastFirst(x));                                              \
  emit(subgroupShuffle(x, (lane + 3u) & (gl_SubgroupSize - 1u)));               \
  emit(subgroupShuffleXor(x, 1u));                                              \
  emit(subgroupShuffleUp(x, 1u));                                               \
  emit(subgroupShuffleDown(x, 1u));                                             \
  CLUSTERED_ADD(x)                                                              \
  emit(subgroupQuadBroadcast(x, 2u));                                           \
  emit(subgroupQuadSwapHorizontal(x));                                          \
  emit(subgroupAllEqual(x));                                                    \
  emit(subgroupAllEqual(subgroupBroadcastFirst(x)));                            \
  if (lane % 3u != 0u) {                                                        \
    emit(subgroupAdd(x));                                                       \
    emit(subgroupInclusiveMax(x));                                              \
  } else {                                                                      \
    emit(x);                                                                    \
    emit(x);                                                                    \
  }

#define BITWISE_OPS(x)   \
  emit(subgroupAnd(x));  \
  emit(subgroupOr(x));   \
  emit(subgroupXor(x));

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  const uint lane = gl_SubgroupInvocationID;
  emit(gl_SubgroupSize);
  emit(lane);
  COMMON_OPS(c.a8, c.a8)
  BITWISE_OPS(c.a8)
  COMMON_OPS(c.u8, c.u8)
  COMMON_OPS(c.a16, c.a16)
  BITWISE_OPS(c.u16)
  COMMON_OPS(c.u16, c.u16)
  COMMON_OPS(c.h, c.hm)
  COMMON_OPS(c.a64, c.a64)
  BITWISE_OPS(c.u64)
  COMMON_OPS(c.u64, c.u64)
  COMMON_OPS(c.d, c.dm)
  // A vector of a small type: per component.
  emit(subgroupAdd(i8vec3(c.a8, int8_t(c.u8), int8_t(lane))));
  emit(subgroupShuffleXor(f16vec2(c.h, c.hm), 2u));
  // Booleans, whose vectors are bit-packed in memory: shuffled through a byte per lane.
  const bool positive = c.a8 > int8_t(0);
  emit(subgroupShuffle(positive, (lane + 3u) & (gl_SubgroupSize - 1u)));
  const bvec2 flags = subgroupShuffleXor(bvec2(positive, c.u8 > uint8_t(127)), 1u);
  emit(flags.x);
  emit(flags.y);
  finish_results();
}
