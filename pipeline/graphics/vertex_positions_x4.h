#pragma once
// Positions (x, y, z, w: the first four values) of four consecutive vertex records `stride`
// words apart, transposed into one SSE register per component: how the front end's SIMD
// clip-code and viewport-transform loops read vertices.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace kiln::exec::gfx {

inline void load_positions_x4(const uint32_t* v, size_t stride, __m128& x, __m128& y, __m128& z, __m128& w) {
  x = _mm_loadu_ps(reinterpret_cast<const float*>(v));
  y = _mm_loadu_ps(reinterpret_cast<const float*>(v + stride));
  z = _mm_loadu_ps(reinterpret_cast<const float*>(v + 2 * stride));
  w = _mm_loadu_ps(reinterpret_cast<const float*>(v + 3 * stride));
  _MM_TRANSPOSE4_PS(x, y, z, w);
}

}  // namespace kiln::exec::gfx
