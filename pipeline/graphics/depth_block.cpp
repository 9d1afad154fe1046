#include "pipeline/graphics/depth_block.h"

#include <immintrin.h>

namespace kiln::exec::gfx {
namespace {

// The compare ops as AVX-512 predicates with the scalar operators' NaN behaviour: ordered for
// everything but NOT_EQUAL, which is true when either side is NaN (like a != b).
template <int kPredicate>
__attribute__((target("avx512f,avx512vl"))) uint64_t test_rows(const DepthBlock& b) {
  const __m256 column = _mm256_add_ps(_mm256_set1_ps(b.x), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7));
  // at + dx * x for the eight columns: the same for every row.
  const __m256 along_row = _mm256_add_ps(_mm256_set1_ps(b.at), _mm256_mul_ps(_mm256_set1_ps(b.dx), column));
  const __m256 dy = _mm256_set1_ps(b.dy);
  uint64_t passed = 0;
  uint8_t* row = b.texels;
  for (uint32_t r = 0; r < 8; ++r, row += b.row_pitch) {
    // b.y + r is exact: both are small integers plus a multiple of 1/256.
    const __m256 z = _mm256_add_ps(along_row, _mm256_mul_ps(dy, _mm256_set1_ps(b.y + float(r))));
    float* const stored_at = reinterpret_cast<float*>(row);
    const __mmask8 pass = _mm256_cmp_ps_mask(z, _mm256_loadu_ps(stored_at), kPredicate);
    if (b.write) _mm256_mask_storeu_ps(stored_at, pass, z);
    passed |= uint64_t{pass} << (8 * r);
  }
  return passed;
}

}  // namespace

bool depth_block_supported() {
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  }();
  return supported;
}

uint64_t test_depth_block(const DepthBlock& block) {
  switch (block.compare) {
    case VK_COMPARE_OP_NEVER: return 0;
    case VK_COMPARE_OP_LESS: return test_rows<_CMP_LT_OQ>(block);
    case VK_COMPARE_OP_EQUAL: return test_rows<_CMP_EQ_OQ>(block);
    case VK_COMPARE_OP_LESS_OR_EQUAL: return test_rows<_CMP_LE_OQ>(block);
    case VK_COMPARE_OP_GREATER: return test_rows<_CMP_GT_OQ>(block);
    case VK_COMPARE_OP_NOT_EQUAL: return test_rows<_CMP_NEQ_UQ>(block);
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return test_rows<_CMP_GE_OQ>(block);
    default: return test_rows<_CMP_TRUE_UQ>(block);
  }
}

}  // namespace kiln::exec::gfx
