#pragma once
// Texture sampling routines that JIT kernels call (ARCHITECTURE.md "Runtime helpers"): one call
// per sample/fetch/gather instruction runs every lane (abi::SampleArgs, SoA in and out).
//
// A routine is a C++ template instantiated per texel decoder (a format, or a family such as
// "any uncompressed format through fmt::unpack_aspect"); the view record names the routine for its
// format (abi::ImageViewRecord::sample), so the kernel never interprets formats. Sampler state
// (filters, address modes, LOD clamps, compare) is read from the mem::Sampler once per lane.
// The formulas are the Vulkan spec's "Texel Coordinate Operations", "Texel Filtering" and
// "Cube Map Face Selection" sections; docs/design/sampling.md records the decisions.
#include <vulkan/vulkan.h>

#include <cstdint>

#include "common/abi/kernel_abi.h"
#include "memory/format_pack.h"
#include "memory/image_layout.h"

namespace kiln::mem {

struct ImageView;
struct Sampler;

// One mip level of a view: `base` is the view's first layer (or slice) of that level.
struct SampledLevel {
  const uint8_t* base = nullptr;
  uint32_t width = 1, height = 1, depth = 1;  // texels
  uint64_t row_pitch = 0;  // bytes between rows (of blocks, when compressed)
  uint64_t z_pitch = 0;    // bytes between depth slices (3D) or layers (arrays, cube faces)
};

// The levels as 32-bit values for the eight-lane filters (memory/sampling_rgba8_simd.h), filled
// once with the view instead of once per call.
struct LevelTable {
  int32_t offset[16];  // level base - view level 0 base, in bytes
  int32_t pitch[16];   // row pitch in bytes (rows of blocks for compressed formats)
  int32_t width[16], height[16];  // texels
};

// What sampling routines need of a view: every level and layer, the format and the swizzle.
struct SampledView {
  VkImageViewType type = VK_IMAGE_VIEW_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;  // the view's format (decoded as this)
  VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  fmt::ValueClass value_class = fmt::ValueClass::Float;
  uint32_t texel_bytes = 0;          // bytes per texel (per block when compressed), all samples
  uint32_t samples = 1;              // a multisampled texel's samples are adjacent (memory/image_layout.h)
  uint32_t block_width = 1, block_height = 1;
  bool unorm_depth = false;          // D16 / D24: Dref is clamped to [0, 1]
  uint32_t level_count = 1, layer_count = 1;  // layers: faces count for cubes (6 per cube)
  // Per output component: 0..3 = R, G, B, A of the texel, 4 = zero, 5 = one.
  uint8_t swizzle[4] = {0, 1, 2, 3};
  // Bit c: the format has component c (R, G, B, A; depth and stencil views: R). Texels that do
  // not come from memory — border texels, out-of-bounds fetches — take 0 for a missing R, G or B
  // and `one` for a missing A, as decoded texels do.
  uint8_t present = 0xF;
  uint32_t one = 0x3F800000;  // 1 in value_class: 1.0f, or integer 1
  SampledLevel levels[16];  // ImageLayout::kMaxMips
  LevelTable table{};       // valid when table_ok: every level within 2 GiB of level 0's base
  bool table_ok = false;
};

// Fills `out` for `view` and returns its sampling routine, or nullptr if its format cannot be
// sampled (then the format has no SAMPLED_IMAGE feature either: sampleable_format below).
abi::SampleFn make_sampled_view(const ImageView& view, SampledView* out);

// Sampling routines cache decoded compressed blocks per thread for one "sampling epoch". Image
// memory may change between commands, so the engine advances the epoch before every command that
// samples (dispatches, draws); code that rewrites sampled memory and samples again without such a
// command (unit tests) advances it itself.
void advance_sampling_epoch();
uint64_t sampling_epoch();

// Whether sampling routines handle `format` (the SAMPLED_IMAGE format feature), and whether
// linear filtering is allowed for it (float-valued formats).
bool sampleable_format(VkFormat format);
bool linear_filterable_format(VkFormat format);

// Exposed for unit tests (tests/unit/sampling_test.cpp): the cube face of direction (x, y, z)
// (0..5 = +X, -X, +Y, -Y, +Z, -Z) and the face coordinates s, t in [0, 1].
uint32_t cube_face(float x, float y, float z, float* s, float* t);
// The spec's address-mode wrap of integer texel coordinate `i` for a level of `size` texels;
// returns -1 for CLAMP_TO_BORDER when `i` is outside.
int32_t wrap_texel(VkSamplerAddressMode mode, int32_t i, int32_t size);
// λ_base for gradients of (u, v, w) in texels, and the implicit-LOD derivatives of lane `lane` of
// a fragment quad (lane i is pixel (i & 1, (i >> 1) & 1) of quad i / 4): d/dx and d/dy of `c`,
// coarse (the quad's top-left pair for all four lanes, as OpDPdxCoarse), so implicit-LOD sampling
// computes one λ per quad, which the fast paths exploit.
float lod_from_gradients(const float dx[3], const float dy[3]);
void quad_derivatives(const float* c, uint32_t lane, float* ddx, float* ddy);
// Anisotropic filtering footprint (spec "Texel Anisotropic Filtering", Kiln's choice of the
// implementation-dependent details): with rho_x = |dx|, rho_y = |dy| (texel units),
// eta = min(rho_max / rho_min, max_anisotropy), N = ceil(eta) probes along the major axis
// (d/dx when rho_x > rho_y, else d/dy) and lambda_base = log2(rho_max / eta), the minor axis's LOD
// when eta is not clamped.
struct AnisotropicFootprint {
  float lambda_base = 0.0f;
  uint32_t probes = 1;
  bool x_major = false;
};
AnisotropicFootprint anisotropic_footprint(const float dx[3], const float dy[3], float max_anisotropy);
// Caps the SIMD width of the fast paths (16 = whatever the CPU runs, 8 = at most AVX2, 1 = portable
// code only), so tests can check each width against the generic routine on one machine.
void limit_sampling_simd_lanes(uint32_t lanes);

}  // namespace kiln::mem
