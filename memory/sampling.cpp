// Texture sampling routines (see memory/sampling.h). Per lane: coordinates -> (cube face) -> LOD ->
// mip level(s) -> texel footprint with address modes -> decode -> (compare) -> filter -> swizzle.
#include "memory/sampling.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "common/compare_op.h"
#include "memory/block_decode.h"
#include "memory/format_table.h"
#include "memory/image_view.h"
#include "memory/sampling_fast_path.h"
#include "memory/sampling_texels.h"

namespace kiln::mem {
namespace {

using namespace sampling_detail;

std::atomic<uint64_t> g_sampling_epoch{1};

constexpr float kMaxLodBias = 16.0f;  // maxSamplerLodBias (icd/device_limits.cpp)

// ----- Addressing -------------------------------------------------------------------------------

int32_t positive_mod(int32_t a, int32_t n) {
  const int32_t r = a % n;
  return r < 0 ? r + n : r;
}

// Direction of the centre of texel (i, j) of `face` of an n x n cube level (i, j may lie just
// outside the face: the direction then points into the neighbouring face).
void face_texel_direction(uint32_t face, int32_t i, int32_t j, int32_t n, float dir[3]) {
  const float sc = 2.0f * (static_cast<float>(i) + 0.5f) / static_cast<float>(n) - 1.0f;
  const float tc = 2.0f * (static_cast<float>(j) + 0.5f) / static_cast<float>(n) - 1.0f;
  // Inverse of the spec's face table (sc, tc, ma per major axis).
  switch (face) {
    case 0: dir[0] = 1; dir[1] = -tc; dir[2] = -sc; break;
    case 1: dir[0] = -1; dir[1] = -tc; dir[2] = sc; break;
    case 2: dir[0] = sc; dir[1] = 1; dir[2] = tc; break;
    case 3: dir[0] = sc; dir[1] = -1; dir[2] = -tc; break;
    case 4: dir[0] = sc; dir[1] = -tc; dir[2] = 1; break;
    default: dir[0] = -sc; dir[1] = -tc; dir[2] = -1; break;
  }
}

// (s, t) of direction (x, y, z) on a given face (the spec's table with that face's major axis).
void project_on_face(uint32_t face, float x, float y, float z, float* s, float* t) {
  float sc, tc, ma;
  switch (face) {
    case 0: sc = -z; tc = -y; ma = x; break;
    case 1: sc = z; tc = -y; ma = -x; break;
    case 2: sc = x; tc = z; ma = y; break;
    case 3: sc = x; tc = -z; ma = -y; break;
    case 4: sc = x; tc = -y; ma = z; break;
    default: sc = -x; tc = -y; ma = -z; break;
  }
  const float m = std::fabs(ma);
  *s = m > 0 ? 0.5f * (sc / m + 1.0f) : 0.5f;
  *t = m > 0 ? 0.5f * (tc / m + 1.0f) : 0.5f;
}

const Sampler& default_sampler() {
  static const Sampler s;
  return s;
}

// Coordinates a view type takes before the array layer (cubes: a direction).
uint32_t view_dimensions(VkImageViewType type) {
  switch (type) {
    case VK_IMAGE_VIEW_TYPE_1D:
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY: return 1;
    case VK_IMAGE_VIEW_TYPE_2D:
    case VK_IMAGE_VIEW_TYPE_2D_ARRAY: return 2;
    default: return 3;  // 3D, CUBE, CUBE_ARRAY
  }
}

bool is_array(VkImageViewType t) {
  return t == VK_IMAGE_VIEW_TYPE_1D_ARRAY || t == VK_IMAGE_VIEW_TYPE_2D_ARRAY || t == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
}
bool is_cube(VkImageViewType t) { return t == VK_IMAGE_VIEW_TYPE_CUBE || t == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY; }

// Everything one lane's texel lookups at one mip level share.
struct Footprint {
  const SampledView& v;
  const Sampler& s;
  uint32_t level;
  uint32_t dims;       // 1, 2 or 3 addressed coordinates (cubes: 2 on a face)
  int32_t layer;       // array layer (for cubes: the first face of the cube)
  int32_t face;        // cube face, or -1
  bool compare;        // depth compare against `ref`
  float ref;
};

template <class D>
class Routine {
 public:
  static Texel load(const SampledView& v, uint32_t level, int32_t x, int32_t y, int32_t z, uint32_t sample = 0) {
    const SampledLevel& L = v.levels[level];
    if constexpr (D::kBlocks) {
      (void)sample;  // compressed images are never multisampled
      const uint8_t* p = L.base + uint64_t(z) * L.z_pitch + uint64_t(y / int32_t(v.block_height)) * L.row_pitch +
                         uint64_t(x / int32_t(v.block_width)) * v.texel_bytes;
      return D::decode(v, p, uint32_t(x) % v.block_width, uint32_t(y) % v.block_height);
    } else {
      return D::decode(v, L.base + uint64_t(z) * L.z_pitch + uint64_t(y) * L.row_pitch + uint64_t(x) * v.texel_bytes +
                              uint64_t(sample) * (v.texel_bytes / v.samples), 0, 0);
    }
  }

  // The border colour as a texel of the view's format: components the format lacks are 0 (R, G,
  // B) or 1 (A), like a decoded texel's (CTS pipeline.*.sampler.border_swizzle, robustness2).
  static Texel border(const Footprint& f) {
    Texel t;
    std::memcpy(t.u, f.s.border_value.uint32, sizeof(t.u));
    return with_missing_components(f.v, t);
  }

  static Texel with_missing_components(const SampledView& v, Texel t) {
    for (uint32_t c = 0; c < 4; ++c)
      if (!(v.present & (1u << c))) t.u[c] = c == 3 ? v.one : 0;
    return t;
  }

  // Texel (i, j, k) of the footprint's level after the address modes (k is the depth coordinate of
  // 3D views; arrays use the footprint's layer). Depth compares replace component 0 by 0 or 1.
  static Texel texel(const Footprint& f, int32_t i, int32_t j, int32_t k) {
    const SampledLevel& L = f.v.levels[f.level];
    Texel t;
    if (f.face >= 0 && f.s.seamless_cube) {
      const int32_t n = int32_t(L.width);
      uint32_t face = uint32_t(f.face);
      if (i < 0 || j < 0 || i >= n || j >= n) {
        // Seamless cube filtering: the texel comes from the neighbouring face. At a corner (both
        // outside) the direction picks one of the three faces that meet there.
        float d[3], s, tt;
        face_texel_direction(face, i, j, n, d);
        face = cube_face(d[0], d[1], d[2], &s, &tt);
        i = std::clamp(floor_to_int(s * float(n)), 0, n - 1);
        j = std::clamp(floor_to_int(tt * float(n)), 0, n - 1);
      }
      t = load(f.v, f.level, i, j, f.layer + int32_t(face));
    } else {
      const int32_t size[3] = {int32_t(L.width), int32_t(L.height), int32_t(L.depth)};
      int32_t c[3] = {i, j, k};
      for (uint32_t d = 0; d < f.dims; ++d) {
        c[d] = wrap_texel(f.s.address[d], c[d], size[d]);
        if (c[d] < 0) {
          t = border(f);
          return f.compare ? compared(f, t) : t;
        }
      }
      // Non-seamless cube faces are 2D images at layer + face.
      const int32_t z = f.dims == 3 ? c[2] : f.layer + std::max(f.face, 0);
      t = load(f.v, f.level, c[0], f.dims >= 2 ? c[1] : 0, z);
    }
    return f.compare ? compared(f, t) : t;
  }

  static Texel compared(const Footprint& f, Texel t) {
    float d = t.f[0];
    if (f.v.unorm_depth) d = std::clamp(d, 0.0f, 1.0f);
    t.f[0] = compare_op(f.s.compare_op, f.ref, d) ? 1.0f : 0.0f;
    return t;
  }

  // The texel or filtered value at texel-space position (u, v, w) of the footprint's level.
  static Texel filter(const Footprint& f, VkFilter filter, const float uvw[3], const int32_t off[3]) {
    const bool integer = f.v.value_class != fmt::ValueClass::Float;
    if (filter == VK_FILTER_NEAREST || integer) {
      int32_t c[3] = {0, 0, 0};
      for (uint32_t d = 0; d < f.dims; ++d) c[d] = floor_to_int(uvw[d]) + off[d];
      return texel(f, c[0], c[1], c[2]);
    }
    int32_t c0[3] = {0, 0, 0};
    float a[3] = {0, 0, 0};
    for (uint32_t d = 0; d < f.dims; ++d) {
      c0[d] = filter_axis(uvw[d] - 0.5f, &a[d]) + off[d];
    }
    if (f.s.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) return interpolated(f, c0, a, f.dims);
    // MIN/MAX reductions: the extremes of the corners of non-zero weight.
    const uint32_t corners = 1u << f.dims;
    float sum[4] = {0, 0, 0, 0};
    bool first = true;
    for (uint32_t n = 0; n < corners; ++n) {
      float w = 1.0f;
      int32_t c[3] = {c0[0], c0[1], c0[2]};
      for (uint32_t d = 0; d < f.dims; ++d) {
        const bool hi = (n >> d) & 1;
        c[d] += hi;
        w *= hi ? a[d] : 1.0f - a[d];
      }
      if (w == 0.0f) continue;  // also keeps borders of zero weight from reading anything
      const Texel t = texel(f, c[0], c[1], c[2]);
      reduce(f.s.reduction_mode, sum, t, w, first);
      first = false;
    }
    Texel out;
    std::memcpy(out.f, sum, sizeof(sum));
    return out;
  }

  // The weighted average of the 2^dims texels from corner c0 at fractions a: nested linear
  // interpolations (filter_lerp), along x first, then y, then z; the upper texels along an axis of
  // fraction 0 are not read.
  static Texel interpolated(const Footprint& f, const int32_t c0[3], const float a[3], uint32_t dims) {
    if (dims == 0) return texel(f, c0[0], c0[1], c0[2]);
    const uint32_t axis = dims - 1;
    Texel t = interpolated(f, c0, a, axis);
    if (a[axis] == 0.0f) return t;
    int32_t c1[3] = {c0[0], c0[1], c0[2]};
    c1[axis] += 1;
    const Texel upper = interpolated(f, c1, a, axis);
    for (int k = 0; k < 4; ++k) t.f[k] = filter_lerp(t.f[k], upper.f[k], a[axis]);
    return t;
  }

  // Adds texel `t` of weight `w` (> 0) to `acc`: a weighted sum, or with a MIN/MAX reduction
  // mode the component-wise minimum/maximum of the texels with non-zero weight.
  static void reduce(VkSamplerReductionMode mode, float acc[4], const Texel& t, float w, bool first) {
    for (int k = 0; k < 4; ++k) {
      if (mode == VK_SAMPLER_REDUCTION_MODE_MIN) acc[k] = first ? t.f[k] : std::min(acc[k], t.f[k]);
      else if (mode == VK_SAMPLER_REDUCTION_MODE_MAX) acc[k] = first ? t.f[k] : std::max(acc[k], t.f[k]);
      else acc[k] += w * t.f[k];
    }
  }

  // Component `c` of `t` after the view's component swizzle.
  static uint32_t swizzled(const SampledView& v, const Texel& t, uint32_t c) {
    const uint8_t s = v.swizzle[c];
    const uint32_t one = v.value_class == fmt::ValueClass::Float ? 0x3F800000u : 1u;
    return s < 4 ? t.u[s] : s == 5 ? one : 0u;
  }

  static void write_out(abi::SampleArgs* a, uint32_t lane, const SampledView& v, const Texel& t) {
    for (uint32_t c = 0; c < 4; ++c) a->out[c][lane] = swizzled(v, t, c);
  }

  static float coord(const abi::SampleArgs* a, uint32_t c, uint32_t lane) {
    float f;
    std::memcpy(&f, &a->coord[c][lane], sizeof(f));
    return f;
  }

  // Normalized coordinates of lane `lane` after Proj: s, t, r (or a cube direction) and the layer.
  static void lane_coords(const abi::SampleArgs* a, uint32_t lane, uint32_t dims, float p[3], float* layer) {
    const uint32_t op = a->op;
    const float q = (op & abi::kSampleProj) ? coord(a, a->coord_count, lane) : 1.0f;
    for (uint32_t d = 0; d < 3; ++d) p[d] = d < dims && d < a->coord_count ? coord(a, d, lane) / q : 0.0f;
    *layer = dims < a->coord_count && dims < 4 ? coord(a, dims, lane) : 0.0f;
  }

  static void sample_lane(abi::SampleArgs* a, uint32_t lane, const SampledView& v, const Sampler& s) {
    const uint32_t op = a->op;
    const uint32_t kind = op & abi::kSampleOpMask;
    const uint32_t dims = view_dimensions(v.type);
    const bool cube = is_cube(v.type);
    float p[3], layer_coord;
    lane_coords(a, lane, dims, p, &layer_coord);

    Footprint f{v, s, 0, cube ? 2 : dims, 0, -1, (op & abi::kSampleDref) != 0, 0.0f};
    if (f.compare) f.ref = (op & abi::kSampleProj) ? a->dref[lane] / coord(a, a->coord_count, lane) : a->dref[lane];
    if (f.compare && v.unorm_depth) f.ref = std::clamp(f.ref, 0.0f, 1.0f);
    const int32_t layers = int32_t(v.layer_count);
    if (cube) {
      const int32_t cubes = std::max(1, layers / 6);
      const int32_t index = is_array(v.type) ? std::clamp(floor_to_int(layer_coord + 0.5f), 0, cubes - 1) : 0;
      f.layer = index * 6;
      float st[2];
      f.face = int32_t(cube_face(p[0], p[1], p[2], &st[0], &st[1]));
      // Derivatives below need the other coordinates projected on this lane's face.
      p[0] = st[0];
      p[1] = st[1];
      p[2] = 0.0f;
    } else if (is_array(v.type)) {
      f.layer = std::clamp(floor_to_int(layer_coord + 0.5f), 0, layers - 1);
    }
    int32_t off[3] = {0, 0, 0};
    if (op & abi::kSampleOffset)
      for (uint32_t d = 0; d < 3; ++d) off[d] = a->offset[d][lane];

    const SampledLevel& base = v.levels[0];
    const float size0[3] = {float(base.width), float(base.height), float(base.depth)};

    // Gathers read the base level's bilinear footprint.
    if (kind == abi::kSampleOpGather) {
      float uvw[3];
      for (uint32_t d = 0; d < 3; ++d) uvw[d] = s.unnormalized_coordinates ? p[d] : p[d] * size0[d];
      const uint32_t comp = a->gather_component & 3;
      // Result component k takes texel (i0, j1), (i1, j1), (i1, j0), (i0, j0) of the footprint.
      static constexpr int32_t kCorner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
      Texel out;
      for (uint32_t k = 0; k < 4; ++k) {
        int32_t i, j;
        if (op & abi::kSampleOffsets4) {
          // ConstOffsets: texel k is the (i0, j0) of the footprint at P + offsets[k].
          i = floor_to_int(uvw[0] - 0.5f) + a->gather_offsets[k][0];
          j = floor_to_int(uvw[1] - 0.5f) + a->gather_offsets[k][1];
        } else {
          i = floor_to_int(uvw[0] - 0.5f) + off[0] + kCorner[k][0];
          j = floor_to_int(uvw[1] - 0.5f) + off[1] + kCorner[k][1];
        }
        const Texel t = texel(f, i, j, 0);
        out.u[k] = f.compare ? t.u[0] : swizzled(v, t, comp);
      }
      for (uint32_t k = 0; k < 4; ++k) a->out[k][lane] = out.u[k];
      return;
    }

    // Level of detail (spec "Scale Factor Operation, LOD Operation and Image Level(s) Selection").
    // Anisotropic filtering replaces the isotropic footprint by `probes` samples along the major
    // axis of the derivatives, `probe_step` apart in normalized coordinates.
    float lambda_base = 0.0f;
    uint32_t probes = 1;
    float probe_step[3] = {0, 0, 0};
    if (!s.unnormalized_coordinates) {
      const uint32_t lod_mode = op & abi::kSampleLodMask;
      const uint32_t ndims = cube ? 2 : dims;
      const float scale[3] = {size0[0], size0[1], size0[2]};
      if (lod_mode == abi::kSampleExplicitLod) {
        lambda_base = a->lod[lane];
      } else {
        float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};  // texel-space derivatives at level 0
        if (lod_mode == abi::kSampleGrad) {
          if (cube) {
            // Project P + dP on this lane's face and difference on the face.
            float q[3], r[3];
            lane_coords(a, lane, dims, q, &layer_coord);
            for (uint32_t d = 0; d < 3; ++d) {
              q[d] += a->grad[0][d][lane];
              r[d] = q[d] - a->grad[0][d][lane] + a->grad[1][d][lane];
            }
            float sx, tx, sy, ty;
            project_on_face(uint32_t(f.face), q[0], q[1], q[2], &sx, &tx);
            project_on_face(uint32_t(f.face), r[0], r[1], r[2], &sy, &ty);
            dx[0] = (sx - p[0]) * scale[0]; dx[1] = (tx - p[1]) * scale[1];
            dy[0] = (sy - p[0]) * scale[0]; dy[1] = (ty - p[1]) * scale[1];
          } else {
            for (uint32_t d = 0; d < ndims; ++d) {
              dx[d] = a->grad[0][d][lane] * scale[d];
              dy[d] = a->grad[1][d][lane] * scale[d];
            }
          }
        } else {
          // Implicit: coarse differences across the lane's 2x2 quad of the (projected) coordinates.
          float quad[3][abi::kMaxSampleLanes] = {};
          const uint32_t first = lane & ~3u;
          for (uint32_t l = first; l < first + 4 && l < a->width; ++l) {
            float q[3], unused;
            lane_coords(a, l, dims, q, &unused);
            if (cube) {
              project_on_face(uint32_t(f.face), q[0], q[1], q[2], &q[0], &q[1]);
              q[2] = 0.0f;
            }
            for (uint32_t d = 0; d < 3; ++d) quad[d][l] = q[d];
          }
          for (uint32_t d = 0; d < ndims; ++d) {
            quad_derivatives(quad[d], lane, &dx[d], &dy[d]);
            dx[d] *= scale[d];
            dy[d] *= scale[d];
          }
        }
        lambda_base = lod_from_gradients(dx, dy);
        if (s.max_anisotropy > 1.0f && v.value_class == fmt::ValueClass::Float) {
          const AnisotropicFootprint fp = anisotropic_footprint(dx, dy, s.max_anisotropy);
          lambda_base = fp.lambda_base;
          probes = fp.probes;
          const float* major = fp.x_major ? dx : dy;
          for (uint32_t d = 0; d < ndims; ++d) probe_step[d] = major[d] / scale[d];
        }
      }
    }
    float bias = s.mip_lod_bias;
    if ((op & abi::kSampleBias) && (op & abi::kSampleLodMask) == abi::kSampleImplicitLod) bias += a->lod[lane];
    const float lambda_prime = lambda_base + std::clamp(bias, -kMaxLodBias, kMaxLodBias);
    float min_lod = s.min_lod;
    if (op & abi::kSampleMinLod) min_lod = std::max(min_lod, a->min_lod[lane]);
    float lambda = s.unnormalized_coordinates ? 0.0f : std::min(std::max(lambda_prime, min_lod), s.max_lod);
    if (std::isnan(lambda)) lambda = 0.0f;
    const float q = float(v.level_count - 1);
    const float d_prime = std::clamp(lambda, 0.0f, q);

    if (kind == abi::kSampleOpQueryLod) {
      const float accessed = s.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST
                                 ? (d_prime <= 0.5f ? 0.0f : std::ceil(d_prime + 0.5f) - 1.0f)
                                 : d_prime;
      std::memcpy(&a->out[0][lane], &accessed, 4);
      std::memcpy(&a->out[1][lane], &lambda_prime, 4);
      a->out[2][lane] = a->out[3][lane] = 0;
      return;
    }

    const VkFilter filt = lambda <= 0.0f ? s.mag_filter : s.min_filter;
    auto at_level = [&](uint32_t level, const float pos[3]) {
      f.level = level;
      const SampledLevel& L = v.levels[level];
      const float size[3] = {float(L.width), float(L.height), float(L.depth)};
      float uvw[3];
      for (uint32_t d = 0; d < 3; ++d) uvw[d] = s.unnormalized_coordinates ? pos[d] : pos[d] * size[d];
      return filter(f, filt, uvw, off);
    };
    // One isotropic sample at `pos`: the selected level, or both levels blended (linear mipmaps).
    auto mip_filtered = [&](const float pos[3]) {
      if (s.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST || v.value_class != fmt::ValueClass::Float) {
        const float d = d_prime <= 0.5f ? 0.0f : std::ceil(d_prime + 0.5f) - 1.0f;
        return at_level(uint32_t(std::clamp(d, 0.0f, q)), pos);
      }
      const uint32_t hi = uint32_t(std::floor(d_prime));
      const uint32_t lo = std::min(hi + 1, v.level_count - 1);
      const float delta = d_prime - float(hi);
      Texel t = at_level(hi, pos);
      if (delta > 0.0f && lo != hi) {
        const Texel t2 = at_level(lo, pos);
        if (s.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) {
          for (int k = 0; k < 4; ++k) t.f[k] = (1.0f - delta) * t.f[k] + delta * t2.f[k];
        } else {
          float acc[4];
          std::memcpy(acc, t.f, sizeof(acc));
          reduce(s.reduction_mode, acc, t2, delta, false);
          std::memcpy(t.f, acc, sizeof(acc));
        }
      }
      return t;
    };
    Texel t;
    if (probes <= 1) {
      t = mip_filtered(p);
    } else {
      // Spec "Texel Anisotropic Filtering": the mean of N isotropic samples at
      // P + (i / (N + 1) - 1/2) * dP/d(major axis), i = 1..N (MIN/MAX reductions take the extremes).
      float acc[4] = {0, 0, 0, 0};
      for (uint32_t i = 1; i <= probes; ++i) {
        const float along = float(i) / float(probes + 1) - 0.5f;
        const float pos[3] = {p[0] + along * probe_step[0], p[1] + along * probe_step[1], p[2] + along * probe_step[2]};
        reduce(s.reduction_mode, acc, mip_filtered(pos), 1.0f / float(probes), i == 1);
      }
      std::memcpy(t.f, acc, sizeof(acc));
    }
    if (f.compare) {
      a->out[0][lane] = t.u[0];
      a->out[1][lane] = a->out[2][lane] = a->out[3][lane] = 0;
      return;
    }
    write_out(a, lane, v, t);
  }

  // OpImageFetch: integer texel coordinates at level `lod`; anything outside reads zero.
  static void fetch_lane(abi::SampleArgs* a, uint32_t lane, const SampledView& v) {
    const uint32_t dims = view_dimensions(v.type);
    int32_t c[3] = {0, 0, 0};
    const uint32_t addressed = is_cube(v.type) ? 2 : dims;  // cube views are fetched as 2D arrays
    for (uint32_t d = 0; d < addressed && d < a->coord_count; ++d) c[d] = int32_t(a->coord[d][lane]);
    int32_t layer = 0;
    if (is_array(v.type) || is_cube(v.type)) {
      const uint32_t at = is_cube(v.type) ? 2 : dims;
      if (at < a->coord_count) layer = int32_t(a->coord[at][lane]);
    }
    if (a->op & abi::kSampleOffset)
      for (uint32_t d = 0; d < 3; ++d) c[d] += a->offset[d][lane];
    int32_t level = 0;
    std::memcpy(&level, &a->lod[lane], 4);
    // A sample index outside the image's samples reads zero, like a texel outside the image.
    const int32_t sample = (a->op & abi::kSampleIndex) ? a->sample_index[lane] : 0;
    Texel t{};
    bool inside = level >= 0 && uint32_t(level) < v.level_count && layer >= 0 && uint32_t(layer) < v.layer_count &&
                  sample >= 0 && uint32_t(sample) < v.samples;
    if (inside) {
      const SampledLevel& L = v.levels[level];
      const int32_t size[3] = {int32_t(L.width), int32_t(L.height), int32_t(L.depth)};
      for (uint32_t d = 0; d < addressed; ++d) inside = inside && c[d] >= 0 && c[d] < size[d];
      if (inside)
        t = load(v, uint32_t(level), c[0], addressed >= 2 ? c[1] : 0, dims == 3 && !is_cube(v.type) ? c[2] : layer,
                 uint32_t(sample));
    }
    // Outside, the texel reads as zero in the view's format: (0, 0, 0, 1) without alpha
    // (robustImageAccess2).
    write_out(a, lane, v, inside ? t : with_missing_components(v, Texel{}));
  }

  // The view record's routine. Kernels' uniform calls of a plain sample (the usual call) try the
  // fast path first, in a function that saves almost no registers; the rest is run_general.
  static uint32_t run(abi::SampleArgs* a, uint32_t lanes) {
    constexpr uint32_t kUniform = abi::kSampleUniform | abi::kSampleUniformRecords;
    if ((a->op & kUniform) == kUniform && (a->op & abi::kSampleOpMask) == abi::kSampleOpSample) {
      const uint32_t width = std::min(a->width, abi::kMaxSampleLanes);
      const uint32_t mine = lanes & (width >= 32 ? ~0u : (1u << width) - 1);
      if (mine && a->uniform_view->sample == &Routine<D>::run && try_fast_path<D>(a, mine)) return mine;
    }
    return run_general(a, lanes);
  }

  __attribute__((noinline)) static uint32_t run_general(abi::SampleArgs* a, uint32_t lanes) {
    const uint32_t width = std::min(a->width, abi::kMaxSampleLanes);
    lanes &= width >= 32 ? ~0u : (1u << width) - 1;
    uint32_t mine = 0;
    // Usually every lane has the same view: one check serves them all.
    const abi::ImageViewRecord* first =
        !lanes ? nullptr : (a->op & abi::kSampleUniformRecords) ? a->uniform_view : a->view[__builtin_ctz(lanes)];
    bool uniform = first && first->sample == &Routine<D>::run;
    if (!(a->op & abi::kSampleUniform))
      for (uint32_t rest = lanes; uniform && rest; rest &= rest - 1) uniform = a->view[__builtin_ctz(rest)] == first;
    if (uniform) {
      mine = lanes;
    } else {
      for (uint32_t l = 0; l < width; ++l)
        if (((lanes >> l) & 1) && a->view[l] && a->view[l]->sample == &Routine<D>::run) mine |= 1u << l;
    }
    const uint32_t kind = a->op & abi::kSampleOpMask;
    if (kind == abi::kSampleOpSample && try_fast_path<D>(a, mine)) return mine;
    for (uint32_t rest = mine; rest; rest &= rest - 1) {
      const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(rest));
      const SampledView& v = *static_cast<const SampledView*>(a->view[lane]->sampled_view);
      if (kind == abi::kSampleOpFetch) {
        fetch_lane(a, lane, v);
      } else {
        const Sampler* s = static_cast<const Sampler*>(a->sampler[lane]);
        sample_lane(a, lane, v, s ? *s : default_sampler());
      }
    }
    return mine;
  }
};

// The routine for a view format (and aspect).
abi::SampleFn routine_for(VkFormat format, VkImageAspectFlagBits aspect) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info) return nullptr;
  if (info->is_compressed()) return &Routine<AnyCompressed>::run;
  if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) {
    switch (format) {
      case VK_FORMAT_R8G8B8A8_UNORM:
      case VK_FORMAT_A8B8G8R8_UNORM_PACK32: return &Routine<Rgba8<false, false>>::run;
      case VK_FORMAT_B8G8R8A8_UNORM: return &Routine<Rgba8<true, false>>::run;
      case VK_FORMAT_R8G8B8A8_SRGB:
      case VK_FORMAT_A8B8G8R8_SRGB_PACK32: return &Routine<Rgba8<false, true>>::run;
      case VK_FORMAT_B8G8R8A8_SRGB: return &Routine<Rgba8<true, true>>::run;
      case VK_FORMAT_R32_SFLOAT: return &Routine<Float32<1>>::run;
      case VK_FORMAT_R32G32_SFLOAT: return &Routine<Float32<2>>::run;
      case VK_FORMAT_R32G32B32A32_SFLOAT: return &Routine<Float32<4>>::run;
      default: break;
    }
  }
  return &Routine<AnyFormat>::run;
}

uint8_t swizzle_of(VkComponentSwizzle s, uint8_t identity) {
  switch (s) {
    case VK_COMPONENT_SWIZZLE_ZERO: return 4;
    case VK_COMPONENT_SWIZZLE_ONE: return 5;
    case VK_COMPONENT_SWIZZLE_R: return 0;
    case VK_COMPONENT_SWIZZLE_G: return 1;
    case VK_COMPONENT_SWIZZLE_B: return 2;
    case VK_COMPONENT_SWIZZLE_A: return 3;
    default: return identity;
  }
}

}  // namespace

namespace sampling_detail {

// bc1_divide (memory/sampling_bc1_simd.h) against the division, over every value the BC1 decoder
// divides: endpoint codes by 31 and 63, and the palette numerators 2a + b and a + 2b.
__attribute__((target("avx2,fma"))) static bool bc1_divisions_check() {
  auto same = [](float x, float d) __attribute__((target("avx2,fma"))) {
    float out[8];
    _mm256_storeu_ps(out, bc1_divide(_mm256_set1_ps(x), d, 1.0f / d));
    return out[0] == x / d;
  };
  for (const float max : {31.0f, 63.0f}) {
    for (uint32_t i = 0; i <= uint32_t(max); ++i) {
      if (!same(float(i), max)) return false;
      for (uint32_t j = 0; j <= uint32_t(max); ++j) {
        const float a = float(i) / max, b = float(j) / max;
        if (!same(2 * a + b, 3.0f) || !same(a + 2 * b, 3.0f)) return false;
      }
    }
  }
  return true;
}

namespace {
// The widest SIMD filters this CPU runs.
uint32_t cpu_simd_lanes() {
  static const uint32_t cpu = [] {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return 1u;
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    return avx512 ? 16u : 8u;
  }();
  return cpu;
}
}  // namespace

// Its own cache line: every sampling call reads it, and no write nearby may invalidate it.
alignas(64) std::atomic<uint32_t> g_simd_lanes{cpu_simd_lanes()};

bool bc1_divisions_exact() {
  static const bool exact = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && bc1_divisions_check();
  }();
  return exact;
}

}  // namespace sampling_detail

void limit_sampling_simd_lanes(uint32_t lanes) {
  sampling_detail::g_simd_lanes.store(std::min(sampling_detail::cpu_simd_lanes(), lanes), std::memory_order_relaxed);
}

void advance_sampling_epoch() { g_sampling_epoch.fetch_add(1, std::memory_order_relaxed); }
uint64_t sampling_epoch() { return g_sampling_epoch.load(std::memory_order_relaxed); }

uint32_t cube_face(float x, float y, float z, float* s, float* t) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  // Ties prefer Z, then Y (as the spec's table order allows any; this matches common hardware).
  uint32_t face;
  if (az >= ax && az >= ay) face = z >= 0 ? 4 : 5;
  else if (ay >= ax) face = y >= 0 ? 2 : 3;
  else face = x >= 0 ? 0 : 1;
  project_on_face(face, x, y, z, s, t);
  return face;
}

int32_t wrap_texel(VkSamplerAddressMode mode, int32_t i, int32_t size) {
  switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: return positive_mod(i, size);
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
      const int32_t t = positive_mod(i, 2 * size);
      return t < size ? t : 2 * size - 1 - t;
    }
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: return i < 0 || i >= size ? -1 : i;
    case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE: return std::min(i >= 0 ? i : -(1 + i), size - 1);
    default: return std::clamp(i, 0, size - 1);  // CLAMP_TO_EDGE
  }
}

float lod_from_gradients(const float dx[3], const float dy[3]) {
  const float rx = std::sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
  const float ry = std::sqrt(dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]);
  return std::log2(std::max(rx, ry));  // -inf for a zero gradient: clamped by min LOD later
}

AnisotropicFootprint anisotropic_footprint(const float dx[3], const float dy[3], float max_anisotropy) {
  const float rx = std::sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
  const float ry = std::sqrt(dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]);
  const float rho_max = std::max(rx, ry), rho_min = std::min(rx, ry);
  AnisotropicFootprint out;
  out.x_major = rx > ry;
  // eta = min(rho_max / rho_min, maxAniso); a degenerate (line) footprint takes the maximum.
  float eta = 1.0f;
  if (rho_max > 0.0f && std::isfinite(rho_max))
    eta = rho_min > 0.0f ? std::min(rho_max / rho_min, max_anisotropy) : max_anisotropy;
  if (!(eta >= 1.0f)) eta = 1.0f;
  out.probes = static_cast<uint32_t>(std::ceil(eta));
  out.lambda_base = std::log2(rho_max / eta);  // -inf for a zero gradient, like the isotropic λ
  return out;
}

void quad_derivatives(const float* c, uint32_t lane, float* ddx, float* ddy) {
  // Coarse derivatives: the quad's top-left pair for every lane, so λ is one value per quad.
  const uint32_t q = lane & ~3u;
  *ddx = c[q + 1] - c[q];
  *ddy = c[q + 2] - c[q];
}

bool sampleable_format(VkFormat format) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info) return false;
  if (info->is_compressed()) {
    float texels[fmt::kMaxBlockTexels][4];
    const uint8_t block[16] = {};
    return fmt::decode_block(format, block, texels);
  }
  for (uint32_t i = 0; i < info->component_count; ++i) {
    const fmt::Component& c = info->components[i];
    // 64-bit components do not fit the 32-bit texel values; SCALED formats are not required.
    if (c.bits == 64 || c.kind == fmt::NumericKind::UScaled || c.kind == fmt::NumericKind::SScaled) return false;
  }
  // Stencil is sampled as integers (the stencil aspect of a depth/stencil view).
  return true;
}

bool linear_filterable_format(VkFormat format) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info || !sampleable_format(format)) return false;
  if (info->has_stencil() && !info->has_depth()) return false;
  if (info->has_depth()) return true;
  if (info->is_compressed()) return true;  // all decode to floats
  return fmt::value_class(format, VK_IMAGE_ASPECT_COLOR_BIT) == fmt::ValueClass::Float;
}

abi::SampleFn make_sampled_view(const ImageView& view, SampledView* out) {
  *out = SampledView{};
  if (!view.image || !view.image->data) return nullptr;
  const VkImageAspectFlags mask = view.range.aspectMask;
  const VkImageAspectFlagBits aspect = (mask & VK_IMAGE_ASPECT_COLOR_BIT)   ? VK_IMAGE_ASPECT_COLOR_BIT
                                       : (mask & VK_IMAGE_ASPECT_DEPTH_BIT) ? VK_IMAGE_ASPECT_DEPTH_BIT
                                                                            : VK_IMAGE_ASPECT_STENCIL_BIT;
  const fmt::FormatInfo* info = fmt::format_info(view.format);
  if (!info || !sampleable_format(view.format)) return nullptr;
  out->type = view.type;
  out->format = view.format;
  out->aspect = aspect;
  // Every core compressed format decodes to floats (value_class looks at per-texel components,
  // which compressed formats do not describe).
  out->value_class = info->is_compressed() ? fmt::ValueClass::Float : fmt::value_class(view.format, aspect);
  out->unorm_depth = aspect == VK_IMAGE_ASPECT_DEPTH_BIT && view.format != VK_FORMAT_D32_SFLOAT &&
                     view.format != VK_FORMAT_D32_SFLOAT_S8_UINT;
  out->samples = static_cast<uint32_t>(view.image->desc.samples);
  out->level_count = std::min<uint32_t>(view.range.levelCount, 16);
  out->layer_count = view.range.layerCount;
  const uint8_t identity[4] = {0, 1, 2, 3};
  const VkComponentSwizzle sw[4] = {view.components.r, view.components.g, view.components.b, view.components.a};
  for (int c = 0; c < 4; ++c) out->swizzle[c] = swizzle_of(sw[c], identity[c]);
  out->present = 0;
  if (aspect != VK_IMAGE_ASPECT_COLOR_BIT) {
    out->present = 1;  // depth or stencil in R
  } else {
    for (uint32_t i = 0; i < info->component_count && i < 4; ++i)
      if (info->components[i].channel <= fmt::Channel::A) out->present |= 1u << uint32_t(info->components[i].channel);
  }
  out->one = out->value_class == fmt::ValueClass::Float ? 0x3F800000u : 1u;
  const bool compressed_view = info->is_compressed();
  out->block_width = compressed_view ? info->block_width : 1;
  out->block_height = compressed_view ? info->block_height : 1;
  for (uint32_t l = 0; l < out->level_count; ++l) {
    const uint32_t level = view.range.baseMipLevel + l;
    const uint32_t layer = view.slices_of_3d ? 0 : view.range.baseArrayLayer;
    const SubresourceAddress sub = view.image->layout.address(aspect, level, layer);
    SampledLevel& L = out->levels[l];
    out->texel_bytes = sub.texel_bytes;
    // An uncompressed view of a compressed image sees one texel per block.
    const VkExtent3D e = compressed_view ? sub.extent : sub.extent_blocks;
    L.width = e.width;
    L.height = view.type == VK_IMAGE_VIEW_TYPE_1D || view.type == VK_IMAGE_VIEW_TYPE_1D_ARRAY ? 1 : e.height;
    L.depth = view.type == VK_IMAGE_VIEW_TYPE_3D ? e.depth : 1;
    L.row_pitch = sub.row_pitch;
    L.base = view.image->data + sub.offset;
    if (view.type == VK_IMAGE_VIEW_TYPE_3D) {
      L.z_pitch = sub.slice_pitch;
    } else if (view.slices_of_3d) {
      L.z_pitch = sub.slice_pitch;
      L.base += uint64_t{view.range.baseArrayLayer} * sub.slice_pitch;
    } else {
      L.z_pitch = sub.layer_pitch;
    }
  }
  sampling_detail::fill_level_table(out);
  return routine_for(view.format, aspect);
}

}  // namespace kiln::mem
