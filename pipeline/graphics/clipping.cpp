#include "pipeline/graphics/clipping.h"

#include <immintrin.h>

#include <cstring>

#include "pipeline/graphics/vertex_positions_x4.h"

namespace kiln::exec::gfx {
namespace {

inline float value(const uint32_t* v, uint32_t i) {
  float f;
  memcpy(&f, &v[i], 4);
  return f;
}
inline float* as_float(uint32_t* v) { return reinterpret_cast<float*>(v); }

// The planes a primitive may be clipped against, as signed distances (inside >= 0).
struct Planes {
  const ViewportTransform& vp;
  const VertexFormat& f;
  bool depth_clip;
  uint32_t count() const { return 7 + f.clip_count; }
  float distance(uint32_t plane, const uint32_t* v) const {
    const float x = value(v, 0), y = value(v, 1), z = value(v, 2), w = value(v, 3);
    switch (plane) {
      case 0: return x - vp.guard_lo[0] * w;
      case 1: return vp.guard_hi[0] * w - x;
      case 2: return y - vp.guard_lo[1] * w;
      case 3: return vp.guard_hi[1] * w - y;
      case 4: return !depth_clip ? 1.0f : vp.near_at_minus_w ? z + w : z;
      case 5: return depth_clip ? w - z : 1.0f;
      case 6: return w - 1e-20f;  // w > 0 even when depth clipping is off
      default: {
        const float d = value(v, f.clip_offset + (plane - 7));
        return d != d ? -1.0f : d;  // a NaN clip distance clips
      }
    }
  }
};

bool culled_by_cull_distance(const VertexFormat& f, const uint32_t* const* in, uint32_t count) {
  for (uint32_t d = 0; d < f.cull_count; ++d) {
    bool all_out = true;
    for (uint32_t i = 0; i < count && all_out; ++i) all_out = value(in[i], f.cull_offset + d) < 0.0f;
    if (all_out) return true;
  }
  return false;
}

// Linear interpolation of every value from `a` (inside) towards `b` by t.
void lerp_vertex(const VertexFormat& f, const uint32_t* a, const uint32_t* b, float t, uint32_t* out) {
  for (uint32_t i = 0; i < f.stride; ++i) {
    const float va = value(a, i), vb = value(b, i);
    as_float(out)[i] = va + t * (vb - va);
  }
}

// NoPerspective varyings are linear in screen space, so value * w is linear in clip space.
void scale_noperspective(const VertexFormat& f, uint32_t* v, bool multiply) {
  const float w = value(v, 3);
  for (uint32_t n = 0; n < f.varying_count; ++n) {
    if (f.varying_interpolation[n] != abi::Interpolation::NoPerspective) continue;
    float* p = as_float(v) + VertexFormat::kVaryingOffset + n * 4;
    for (int c = 0; c < 4; ++c) p[c] = multiply ? p[c] * w : p[c] / w;
  }
}

// The user clip planes (bits 7 and up) a vertex lies outside of.
uint32_t user_outcode(const Planes& planes, const uint32_t* v) {
  uint32_t outside = 0;
  for (uint32_t p = 7; p < planes.count(); ++p)
    if (!(planes.distance(p, v) >= 0.0f)) outside |= 1u << p;
  return outside;
}

// Planes::distance of every plane, unrolled for the seven fixed ones (the per-vertex hot path).
uint32_t outcode(const Planes& planes, const uint32_t* v) {
  const float x = value(v, 0), y = value(v, 1), z = value(v, 2), w = value(v, 3);
  const ViewportTransform& vp = planes.vp;
  uint32_t outside = 0;
  outside |= uint32_t(!(x - vp.guard_lo[0] * w >= 0.0f)) << 0;
  outside |= uint32_t(!(vp.guard_hi[0] * w - x >= 0.0f)) << 1;
  outside |= uint32_t(!(y - vp.guard_lo[1] * w >= 0.0f)) << 2;
  outside |= uint32_t(!(vp.guard_hi[1] * w - y >= 0.0f)) << 3;
  if (planes.depth_clip) {
    // Planes::distance's near plane: z >= -w with the [-1, 1] depth convention.
    outside |= uint32_t(!((vp.near_at_minus_w ? z + w : z) >= 0.0f)) << 4;
    outside |= uint32_t(!(w - z >= 0.0f)) << 5;
  }
  outside |= uint32_t(!(w - 1e-20f >= 0.0f)) << 6;
  return outside | user_outcode(planes, v);
}

}  // namespace

uint32_t clip_outcode(const DrawContext& ctx, const ViewportTransform& viewport, const uint32_t* vertex) {
  return outcode(Planes{viewport, ctx.vertex_format, ctx.state->rasterization.depth_clip}, vertex);
}

void clip_outcodes(const DrawContext& ctx, const ViewportTransform& viewport, const uint32_t* vertices, uint32_t stride,
                   size_t count, uint32_t* out) {
  const Planes planes{viewport, ctx.vertex_format, ctx.state->rasterization.depth_clip};
  // Four vertices at a time: their positions transposed into x, y, z and w vectors, then
  // outcode()'s fixed-plane tests with the same float operations, one plane per vector compare.
  const __m128 zero = _mm_setzero_ps();
  const __m128 lo_x = _mm_set1_ps(viewport.guard_lo[0]), hi_x = _mm_set1_ps(viewport.guard_hi[0]);
  const __m128 lo_y = _mm_set1_ps(viewport.guard_lo[1]), hi_y = _mm_set1_ps(viewport.guard_hi[1]);
  const __m128 min_w = _mm_set1_ps(1e-20f);
  const __m128i depth_bits = _mm_set1_epi32(planes.depth_clip ? (1 << 4) | (1 << 5) : 0);
  auto bit_if_outside = [](__m128 inside, int bit) {
    return _mm_andnot_si128(_mm_castps_si128(inside), _mm_set1_epi32(1 << bit));
  };
  const bool user_planes = planes.count() > 7;
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    __m128 x, y, z, w;
    load_positions_x4(vertices + i * stride, stride, x, y, z, w);
    __m128i code = bit_if_outside(_mm_cmpge_ps(_mm_sub_ps(x, _mm_mul_ps(lo_x, w)), zero), 0);
    code = _mm_or_si128(code, bit_if_outside(_mm_cmpge_ps(_mm_sub_ps(_mm_mul_ps(hi_x, w), x), zero), 1));
    code = _mm_or_si128(code, bit_if_outside(_mm_cmpge_ps(_mm_sub_ps(y, _mm_mul_ps(lo_y, w)), zero), 2));
    code = _mm_or_si128(code, bit_if_outside(_mm_cmpge_ps(_mm_sub_ps(_mm_mul_ps(hi_y, w), y), zero), 3));
    const __m128 near = viewport.near_at_minus_w ? _mm_add_ps(z, w) : z;
    const __m128i depth = _mm_or_si128(bit_if_outside(_mm_cmpge_ps(near, zero), 4),
                                       bit_if_outside(_mm_cmpge_ps(_mm_sub_ps(w, z), zero), 5));
    code = _mm_or_si128(code, _mm_and_si128(depth, depth_bits));
    code = _mm_or_si128(code, bit_if_outside(_mm_cmpge_ps(_mm_sub_ps(w, min_w), zero), 6));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), code);
    if (user_planes)
      for (size_t k = i; k < i + 4; ++k) out[k] |= user_outcode(planes, vertices + k * stride);
  }
  for (; i < count; ++i) out[i] = outcode(planes, vertices + i * stride);
}

void add_user_outcodes(const DrawContext& ctx, const ViewportTransform& viewport, const uint32_t* vertices,
                       uint32_t stride, size_t count, uint32_t* out) {
  const Planes planes{viewport, ctx.vertex_format, ctx.state->rasterization.depth_clip};
  if (planes.count() == 7) return;
  for (size_t k = 0; k < count; ++k) out[k] |= user_outcode(planes, vertices + k * stride);
}

uint32_t clip_primitive(const DrawContext& ctx, const ViewportTransform& viewport, const uint32_t* const* in,
                        const uint32_t* outcodes, uint32_t count, ClipScratch& scratch, const uint32_t** out) {
  const VertexFormat& f = ctx.vertex_format;
  if (culled_by_cull_distance(f, in, count)) return 0;
  const Planes planes{viewport, f, ctx.state->rasterization.depth_clip};
  // Which planes does any vertex lie outside of?
  uint32_t outside_any = 0, outside_all = ~0u;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t outside = outcodes ? outcodes[i] : outcode(planes, in[i]);
    outside_any |= outside;
    outside_all &= outside;
  }
  if (outside_all) return 0;  // every vertex outside one plane (also the only case for points)
  for (uint32_t i = 0; i < count; ++i) out[i] = in[i];
  if (!outside_any) return count;
  if (count == 1) return 0;

  // Work on copies with NoPerspective values premultiplied by w; remember which are originals.
  const uint32_t stride = f.stride;
  scratch.storage.resize(size_t(stride) * (count + 2 * kMaxClipPlanes + 2));
  uint32_t* pool = reinterpret_cast<uint32_t*>(scratch.storage.data());
  uint32_t used = 0;
  auto fresh = [&]() { return pool + size_t(stride) * used++; };
  const uint32_t* originals[3];
  uint32_t* poly_a[kMaxClippedVertices + 2];
  uint32_t* poly_b[kMaxClippedVertices + 2];
  uint32_t** cur = poly_a;
  uint32_t** next = poly_b;
  uint32_t n = count;
  for (uint32_t i = 0; i < count; ++i) {
    cur[i] = fresh();
    memcpy(cur[i], in[i], stride * 4);
    scale_noperspective(f, cur[i], true);
    originals[i] = cur[i];
  }

  for (uint32_t p = 0; p < planes.count() && n > 0; ++p) {
    if (!(outside_any & (1u << p))) continue;
    uint32_t m = 0;
    if (count == 2) {
      // A line: move the outside end to the plane (t measured from the inside end).
      const float d0 = planes.distance(p, cur[0]), d1 = planes.distance(p, cur[1]);
      const bool in0 = d0 >= 0.0f, in1 = d1 >= 0.0f;
      if (!in0 && !in1) return 0;
      for (uint32_t e = 0; e < 2; ++e) next[e] = cur[e];
      if (!in0 || !in1) {
        const uint32_t o = in0 ? 1 : 0, i = 1 - o;
        const float di = o ? d0 : d1, dout = o ? d1 : d0;
        uint32_t* v = fresh();
        lerp_vertex(f, cur[i], cur[o], di / (di - dout), v);
        next[o] = v;
      }
      m = 2;
    } else {
      // Sutherland-Hodgman on the polygon; intersections are always computed from the inside
      // vertex, so an edge shared by two triangles is cut at bit-identical points.
      for (uint32_t e = 0; e < n; ++e) {
        uint32_t* a = cur[e];
        uint32_t* b = cur[(e + 1) % n];
        const float da = planes.distance(p, a), db = planes.distance(p, b);
        const bool ina = da >= 0.0f, inb = db >= 0.0f;
        if (ina) next[m++] = a;
        if (ina != inb) {
          uint32_t* v = fresh();
          if (ina) lerp_vertex(f, a, b, da / (da - db), v);
          else lerp_vertex(f, b, a, db / (db - da), v);
          next[m++] = v;
        }
      }
    }
    std::swap(cur, next);
    n = m;
  }
  if (n < count) return 0;
  for (uint32_t i = 0; i < n; ++i) {
    bool original = false;
    for (uint32_t o = 0; o < count; ++o)
      if (cur[i] == originals[o]) { out[i] = in[o]; original = true; }
    if (!original) {
      scale_noperspective(f, cur[i], false);
      out[i] = cur[i];
    }
  }
  return n;
}

}  // namespace kiln::exec::gfx
