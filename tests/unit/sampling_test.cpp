// memory/sampling against a CPU reference written from the spec's formulas ("Texel Coordinate
// Operations", "Texel Filtering", "Cube Map Face Selection"): address modes, filters, LOD and mip
// selection, borders, depth compare, gather, cube faces and seamless edges, fetch, and one check
// per format that has SAMPLED_IMAGE that its texels decode as memory/format_pack says.
#include "memory/sampling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "memory/format_pack.h"
#include "memory/format_table.h"
#include "memory/image_view.h"
#include "memory/sampling_rgba8_avx512.h"
#include "memory/sampling_rgba8_simd.h"
#include "memory/texel_access.h"

namespace kiln::mem {
namespace {

struct TestImage {
  Image image;
  std::vector<uint8_t> storage;
  TestImage(VkFormat format, VkExtent3D extent, uint32_t mips = 1, uint32_t layers = 1, VkImageType type = VK_IMAGE_TYPE_2D) {
    image.desc.type = type;
    image.desc.format = format;
    image.desc.extent = extent;
    image.desc.mip_levels = mips;
    image.desc.array_layers = layers;
    EXPECT_TRUE(image.layout.init(image.desc));
    storage.assign(image.layout.total_size(), 0);
    image.data = storage.data();
  }
  // Random texel bytes everywhere (every byte pattern is a valid UNORM texel).
  void randomize(uint32_t seed) {
    std::mt19937 rng(seed);
    for (uint8_t& b : storage) b = static_cast<uint8_t>(rng());
  }
};

struct TestView {
  ImageView view;
  abi::SampleFn fn = nullptr;
  TestView(const Image& image, VkImageViewType type, VkFormat format, VkImageAspectFlags aspect, uint32_t levels,
           uint32_t layers, VkComponentMapping swizzle = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G,
                                                           VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_A}) {
    view.image = &image;
    view.type = type;
    view.format = format;
    view.components = swizzle;
    view.range = {aspect, 0, levels, 0, layers};
    view.shader_record = make_shader_record(view);
    init_sampling(view);
    fn = view.shader_record.sample;
  }
};

// One lane's request, run through the routine as lane 0 of a W = 4 call.
struct Request {
  uint32_t op = abi::kSampleOpSample | abi::kSampleExplicitLod;
  float coord[4] = {0, 0, 0, 0};
  uint32_t coord_count = 2;
  float lod = 0, dref = 0;
  int32_t offset[3] = {0, 0, 0};
  uint32_t component = 0;
  float grad[2][3] = {{0, 0, 0}, {0, 0, 0}};  // dP/dx, dP/dy (with kSampleGrad)
};

std::array<uint32_t, 4> run(const TestView& v, const Sampler* s, const Request& r) {
  advance_sampling_epoch();  // test images are rewritten (and reallocated) between calls
  abi::SampleArgs a{};
  a.op = r.op;
  a.width = 4;
  a.coord_count = r.coord_count;
  a.gather_component = r.component;
  for (uint32_t l = 0; l < 4; ++l) {
    a.view[l] = &v.view.shader_record;
    a.sampler[l] = s;
    for (uint32_t c = 0; c < 4; ++c) std::memcpy(&a.coord[c][l], &r.coord[c], 4);
    a.lod[l] = r.lod;
    a.dref[l] = r.dref;
    for (uint32_t d = 0; d < 3; ++d) a.offset[d][l] = r.offset[d];
    for (uint32_t g = 0; g < 2; ++g)
      for (uint32_t d = 0; d < 3; ++d) a.grad[g][d][l] = r.grad[g][d];
  }
  EXPECT_EQ(v.fn(&a, 1u), 1u);
  return {a.out[0][0], a.out[1][0], a.out[2][0], a.out[3][0]};
}

std::array<float, 4> as_float(const std::array<uint32_t, 4>& u) {
  std::array<float, 4> f;
  std::memcpy(f.data(), u.data(), 16);
  return f;
}

// ----- Reference (spec formulas, double precision) ------------------------------------------------

int64_t ref_mod(int64_t a, int64_t n) { return a - n * static_cast<int64_t>(std::floor(double(a) / double(n))); }
int64_t ref_mirror(int64_t a) { return a >= 0 ? a : -(1 + a); }

// Returns -1 for a border texel.
int64_t ref_wrap(VkSamplerAddressMode m, int64_t i, int64_t size) {
  switch (m) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: return ref_mod(i, size);
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: return (size - 1) - ref_mirror(ref_mod(i, 2 * size) - size);
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE: return std::clamp<int64_t>(i, 0, size - 1);
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: return i < 0 || i >= size ? -1 : i;
    default: return std::clamp<int64_t>(ref_mirror(i), 0, size - 1);
  }
}

std::array<double, 4> ref_texel(const Image& image, const Sampler& s, uint32_t level, int64_t i, int64_t j, uint32_t layer) {
  const VkExtent3D e = mip_extent(image.desc.extent, level);
  const int64_t x = ref_wrap(s.address[0], i, e.width), y = ref_wrap(s.address[1], j, e.height);
  if (x < 0 || y < 0) return {s.border_value.float32[0], s.border_value.float32[1], s.border_value.float32[2], s.border_value.float32[3]};
  TexelReader reader(image, VK_IMAGE_ASPECT_COLOR_BIT, level, layer);
  const VkClearColorValue v = reader.read(uint32_t(x), uint32_t(y), 0);
  return {v.float32[0], v.float32[1], v.float32[2], v.float32[3]};
}

std::array<double, 4> ref_filter(const Image& image, const Sampler& s, VkFilter filter, uint32_t level, double sc, double tc,
                                 uint32_t layer) {
  const VkExtent3D e = mip_extent(image.desc.extent, level);
  const double u = sc * e.width, v = tc * e.height;
  if (filter == VK_FILTER_NEAREST) return ref_texel(image, s, level, int64_t(std::floor(u)), int64_t(std::floor(v)), layer);
  const int64_t i0 = int64_t(std::floor(u - 0.5)), j0 = int64_t(std::floor(v - 0.5));
  const double alpha = (u - 0.5) - std::floor(u - 0.5), beta = (v - 0.5) - std::floor(v - 0.5);
  const auto t00 = ref_texel(image, s, level, i0, j0, layer), t10 = ref_texel(image, s, level, i0 + 1, j0, layer);
  const auto t01 = ref_texel(image, s, level, i0, j0 + 1, layer), t11 = ref_texel(image, s, level, i0 + 1, j0 + 1, layer);
  std::array<double, 4> out;
  for (int c = 0; c < 4; ++c)
    out[c] = (1 - alpha) * (1 - beta) * t00[c] + alpha * (1 - beta) * t10[c] + (1 - alpha) * beta * t01[c] + alpha * beta * t11[c];
  return out;
}

// Explicit-LOD sample of a 2D (array) image: spec "LOD Operation" and "Image Level(s) Selection".
std::array<double, 4> ref_sample(const Image& image, const Sampler& s, uint32_t levels, double sc, double tc, double lod,
                                 uint32_t layer) {
  double lambda = lod + s.mip_lod_bias;
  lambda = std::min(std::max(lambda, double(s.min_lod)), double(s.max_lod));
  const VkFilter filter = lambda <= 0 ? s.mag_filter : s.min_filter;
  const double q = levels - 1;
  const double d_prime = std::clamp(lambda, 0.0, q);
  if (s.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
    const double d = d_prime <= 0.5 ? 0 : std::ceil(d_prime + 0.5) - 1;
    return ref_filter(image, s, filter, uint32_t(d), sc, tc, layer);
  }
  const uint32_t hi = uint32_t(std::floor(d_prime)), lo = std::min<uint32_t>(hi + 1, uint32_t(q));
  const double delta = d_prime - hi;
  const auto a = ref_filter(image, s, filter, hi, sc, tc, layer), b = ref_filter(image, s, filter, lo, sc, tc, layer);
  std::array<double, 4> out;
  for (int c = 0; c < 4; ++c) out[c] = (1 - delta) * a[c] + delta * b[c];
  return out;
}

// ----- Building blocks -------------------------------------------------------------------------

TEST(Sampling, AddressModesFollowTheSpecFormulas) {
  for (VkSamplerAddressMode m : {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                                 VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                 VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE}) {
    for (int32_t size : {1, 2, 3, 5, 8}) {
      for (int32_t i = -25; i <= 25; ++i) EXPECT_EQ(wrap_texel(m, i, size), ref_wrap(m, i, size)) << m << " " << size << " " << i;
    }
  }
}

TEST(Sampling, CubeFaceSelectionFollowsTheSpecTable) {
  struct Case { float x, y, z; uint32_t face; float s, t; };
  // s = (sc / |ma| + 1) / 2, t = (tc / |ma| + 1) / 2 with the spec's sc, tc per major axis.
  const Case cases[] = {
      {1, 0.5f, -0.5f, 0, 0.75f, 0.25f},   // +X: sc = -rz, tc = -ry
      {-1, 0.5f, -0.5f, 1, 0.25f, 0.25f},  // -X: sc = +rz, tc = -ry
      {0.5f, 1, -0.5f, 2, 0.75f, 0.25f},   // +Y: sc = +rx, tc = +rz
      {0.5f, -1, -0.5f, 3, 0.75f, 0.75f},  // -Y: sc = +rx, tc = -rz
      {0.5f, -0.5f, 2, 4, 0.625f, 0.625f}, // +Z: sc = +rx, tc = -ry
      {0.5f, -0.5f, -2, 5, 0.375f, 0.625f},// -Z: sc = -rx, tc = -ry
  };
  for (const Case& c : cases) {
    float s, t;
    EXPECT_EQ(cube_face(c.x, c.y, c.z, &s, &t), c.face);
    EXPECT_FLOAT_EQ(s, c.s) << c.face;
    EXPECT_FLOAT_EQ(t, c.t) << c.face;
  }
}

TEST(Sampling, LodFromGradientsAndQuadDerivatives) {
  const float dx[3] = {4, 0, 0}, dy[3] = {0, 3, 4};
  EXPECT_FLOAT_EQ(lod_from_gradients(dx, dy), 2.3219281f);  // log2(max(4, 5))
  // Lane i is pixel (i & 1, (i >> 1) & 1) of quad i / 4: c = 0.25 x + 0.5 y (+ per-quad offset).
  float c[8];
  for (uint32_t i = 0; i < 8; ++i) c[i] = 0.25f * (i & 1) + 0.5f * ((i >> 1) & 1) + 10.0f * (i / 4) + (i / 4 ? 0.125f * (i & 1) * ((i >> 1) & 1) : 0);
  for (uint32_t lane = 0; lane < 4; ++lane) {
    float ddx, ddy;
    quad_derivatives(c, lane, &ddx, &ddy);
    EXPECT_FLOAT_EQ(ddx, 0.25f);
    EXPECT_FLOAT_EQ(ddy, 0.5f);
  }
  // Second quad: a non-linear term makes the bottom-right pixel differ (fine derivatives of lane 7
  // would be 0.375 and 0.625); coarse derivatives take the quad's top-left pair for every lane.
  for (uint32_t lane = 4; lane < 8; ++lane) {
    float ddx, ddy;
    quad_derivatives(c, lane, &ddx, &ddy);
    EXPECT_FLOAT_EQ(ddx, 0.25f) << lane;
    EXPECT_FLOAT_EQ(ddy, 0.5f) << lane;
  }
}

// ----- Whole samples against the reference -----------------------------------------------------

TEST(Sampling, FiltersAddressModesAndMipSelectionMatchTheReference) {
  TestImage img(VK_FORMAT_R8G8B8A8_UNORM, {8, 4, 1}, 4, 3);
  img.randomize(11);
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT, 4, 3);
  ASSERT_NE(v.fn, nullptr);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coord(-2.5f, 2.5f), lod(-1.0f, 4.5f);
  int checked = 0;
  for (VkFilter mag : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
    for (VkFilter min : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
      for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
        for (VkSamplerAddressMode m : {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                                       VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                       VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE}) {
          Sampler s;
          s.mag_filter = mag;
          s.min_filter = min;
          s.mipmap_mode = mip;
          s.address[0] = m;
          s.address[1] = m == VK_SAMPLER_ADDRESS_MODE_REPEAT ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER : m;
          s.min_lod = 0.25f;
          s.max_lod = 2.75f;
          s.mip_lod_bias = 0.5f;
          s.border_value.float32[0] = 0.25f;
          s.border_value.float32[3] = 1.0f;  // a custom-looking colour: the routine must use the sampler's values
          for (int n = 0; n < 40; ++n) {
            Request r;
            r.coord[0] = coord(rng);
            r.coord[1] = coord(rng);
            r.coord[2] = float(n % 4) - 0.3f;  // layer: rounds to 0..2 (3 clamps to 2)
            r.coord_count = 3;
            r.lod = lod(rng);
            const auto got = as_float(run(v, &s, r));
            const uint32_t layer = std::clamp(int(std::floor(r.coord[2] + 0.5f)), 0, 2);
            const auto want = ref_sample(img.image, s, 4, r.coord[0], r.coord[1], r.lod, layer);
            for (int c = 0; c < 4; ++c) ASSERT_NEAR(got[c], want[c], 1e-5) << "c" << c << " n" << n << " mode " << m;
            ++checked;
          }
        }
  EXPECT_EQ(checked, 2 * 2 * 2 * 5 * 40);
}

// Linear filtering of a texture of one colour returns that colour bit for bit wherever it samples
// (CTS sampler.exact_sampling): nested interpolations, not a sum of four weighted corners whose
// weights need not add up to exactly 1. Through the generic routine (R32G32_SFLOAT 2D, RGBA32F 3D)
// and the fast path (RGBA8; its SIMD filters equal it bit for bit, FastPathsEqualTheGenericRoutine),
// near texel edges and at random places.
TEST(Sampling, LinearFilteringOfOneColourIsExact) {
  struct Case {
    VkFormat format;
    VkImageType type;
    VkImageViewType view;
    VkExtent3D extent;
  };
  const Case cases[] = {{VK_FORMAT_R32G32_SFLOAT, VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, {16, 8, 1}},
                        {VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_3D, VK_IMAGE_VIEW_TYPE_3D, {4, 4, 4}},
                        {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, {16, 8, 1}}};
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> coord(-0.5f, 1.5f);
  for (const Case& c : cases) {
    SCOPED_TRACE(fmt::format_info(c.format)->name);
    TestImage img(c.format, c.extent, 1, 1, c.type);
    VkClearColorValue colour{};
    colour.float32[0] = 0.5f;
    colour.float32[1] = 0.25f;
    colour.float32[2] = 0.7529411764705882f;  // the CTS's colour; 192 / 255 in RGBA8
    colour.float32[3] = 1.0f;
    const uint32_t bytes = fmt::format_info(c.format)->block_bytes;
    for (size_t at = 0; at + bytes <= img.storage.size(); at += bytes) fmt::pack_color(c.format, colour, img.storage.data() + at);
    VkClearColorValue want{};
    fmt::unpack_aspect(c.format, VK_IMAGE_ASPECT_COLOR_BIT, img.storage.data(), &want);
    TestView v(img.image, c.view, c.format, VK_IMAGE_ASPECT_COLOR_BIT, 1, 1);
    ASSERT_NE(v.fn, nullptr);
    for (VkSamplerAddressMode mode : {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_REPEAT}) {
      Sampler s;
      s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
      s.address[0] = s.address[1] = s.address[2] = mode;
      for (int n = 0; n < 200; ++n) {
        Request r;
        r.coord_count = c.type == VK_IMAGE_TYPE_3D ? 3 : 2;
        for (uint32_t d = 0; d < r.coord_count; ++d) {
          // The first half: 0.499 texels from a texel centre (the CTS's edge_* cases).
          const float size = float(d == 0 ? c.extent.width : d == 1 ? c.extent.height : c.extent.depth);
          r.coord[d] = n < 100 ? (float(n % int(size)) + 0.5f + (n % 2 ? 0.499f : -0.499f)) / size : coord(rng);
        }
        const auto got = run(v, &s, r);
        for (int k = 0; k < 4; ++k) ASSERT_EQ(got[k], want.uint32[k]) << "component " << k << " n " << n << " mode " << mode;
      }
    }
  }
}

TEST(Sampling, OffsetsUnnormalizedCoordinatesAndSwizzle) {
  TestImage img(VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 1});
  img.randomize(3);
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT, 1, 1,
             {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_R});
  Sampler s;
  s.address[0] = s.address[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  s.unnormalized_coordinates = true;
  Request r;
  r.coord[0] = 2.5f;  // texel (2, 5), then offset (3, -2) -> (5, 3)
  r.coord[1] = 5.7f;
  r.op |= abi::kSampleOffset;
  r.offset[0] = 3;
  r.offset[1] = -2;
  const auto got = as_float(run(v, &s, r));
  const auto t = ref_texel(img.image, s, 0, 5, 3, 0);
  EXPECT_FLOAT_EQ(got[0], float(t[2]));
  EXPECT_FLOAT_EQ(got[1], 1.0f);
  EXPECT_FLOAT_EQ(got[2], 0.0f);
  EXPECT_FLOAT_EQ(got[3], float(t[0]));
}

TEST(Sampling, GatherReturnsTheFootprintInSpecOrder) {
  TestImage img(VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1});
  img.randomize(9);
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT, 1, 1);
  Sampler s;  // REPEAT
  Request r;
  r.op = abi::kSampleOpGather;
  r.coord[0] = 0.1f;   // u = 0.4: i0 = -1 -> 3, i1 = 0
  r.coord[1] = 0.55f;  // v = 2.2: j0 = 1, j1 = 2
  for (uint32_t comp = 0; comp < 4; ++comp) {
    r.component = comp;
    const auto got = as_float(run(v, &s, r));
    EXPECT_FLOAT_EQ(got[0], float(ref_texel(img.image, s, 0, -1, 2, 0)[comp]));  // (i0, j1)
    EXPECT_FLOAT_EQ(got[1], float(ref_texel(img.image, s, 0, 0, 2, 0)[comp]));   // (i1, j1)
    EXPECT_FLOAT_EQ(got[2], float(ref_texel(img.image, s, 0, 0, 1, 0)[comp]));   // (i1, j0)
    EXPECT_FLOAT_EQ(got[3], float(ref_texel(img.image, s, 0, -1, 1, 0)[comp]));  // (i0, j0)
  }
}

TEST(Sampling, DepthCompareIsAppliedPerTexelBeforeFiltering) {
  TestImage img(VK_FORMAT_D16_UNORM, {2, 1, 1});
  const uint16_t depth[2] = {0x4000, 0xC000};  // 0.25, 0.75
  std::memcpy(img.image.data + img.image.layout.address(VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0).offset, depth, 4);
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT, 1, 1);
  ASSERT_NE(v.fn, nullptr);
  Sampler s;
  s.compare_enable = true;
  s.compare_op = VK_COMPARE_OP_LESS;
  s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
  s.address[0] = s.address[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  Request r;
  r.op |= abi::kSampleDref;
  r.coord[0] = 0.5f;  // halfway between the two texels
  r.coord[1] = 0.5f;
  for (auto [ref, want] : {std::pair{0.1f, 1.0f}, {0.5f, 0.5f}, {0.9f, 0.0f}, {-3.0f, 1.0f}}) {
    r.dref = ref;
    EXPECT_FLOAT_EQ(as_float(run(v, &s, r))[0], want) << ref;
  }
  // Nearest: one texel decides. Dref gather: four compare results.
  s.mag_filter = s.min_filter = VK_FILTER_NEAREST;
  r.coord[0] = 0.75f;
  r.dref = 0.5f;
  EXPECT_FLOAT_EQ(as_float(run(v, &s, r))[0], 1.0f);
  s.compare_op = VK_COMPARE_OP_GREATER;
  EXPECT_FLOAT_EQ(as_float(run(v, &s, r))[0], 0.0f);
  r.op = abi::kSampleOpGather | abi::kSampleDref;
  r.coord[0] = 0.5f;
  const auto g = as_float(run(v, &s, r));  // footprint (0,0),(1,0) twice: GREATER 0.5 > 0.25 only for texel 0
  EXPECT_FLOAT_EQ(g[0], 1.0f);
  EXPECT_FLOAT_EQ(g[1], 0.0f);
  EXPECT_FLOAT_EQ(g[2], 0.0f);
  EXPECT_FLOAT_EQ(g[3], 1.0f);
}

TEST(Sampling, CubeFacesAndSeamlessEdges) {
  constexpr uint32_t n = 4;
  TestImage img(VK_FORMAT_R32_SFLOAT, {n, n, 1}, 1, 6);
  for (uint32_t face = 0; face < 6; ++face) {
    const SubresourceAddress a = img.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, 0, face);
    for (uint32_t i = 0; i < n * n; ++i) {
      const float value = float(face + 1) + 0.01f * float(i);
      std::memcpy(img.image.data + a.offset + i * 4, &value, 4);
    }
  }
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_CUBE, VK_FORMAT_R32_SFLOAT, VK_IMAGE_ASPECT_COLOR_BIT, 1, 6);
  Sampler s;
  Request r;
  r.coord_count = 3;
  // Face centres (nearest): texel (2, 2) of each face.
  const float dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (uint32_t face = 0; face < 6; ++face) {
    std::memcpy(r.coord, dirs[face], 12);
    EXPECT_FLOAT_EQ(as_float(run(v, &s, r))[0], float(face + 1) + 0.01f * 10) << face;
  }
  // Linear at the +Z / +X edge, half a texel from the edge on +Z: +Z's column 3 and +X's column 0
  // (its texels nearest the shared edge) share the weight equally.
  s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
  const float t_row = 1.5f / n;  // centre of row 1 on +Z: tc = -ry -> ry = -(2 t - 1)
  r.coord[0] = 1.0f;
  r.coord[1] = -(2 * t_row - 1);
  r.coord[2] = 1.0f;  // |x| == |z|: +Z is chosen (ties prefer Z), s = 1
  const float z_texel = 5 + 0.01f * (1 * n + 3);  // +Z row 1 column 3
  const float x_texel = 1 + 0.01f * (1 * n + 0);  // +X: sc = -rz runs from +Z's edge: column 0, row 1
  EXPECT_NEAR(as_float(run(v, &s, r))[0], 0.5f * (z_texel + x_texel), 1e-5);
  // Non-seamless (VK_EXT_non_seamless_cube_map): +Z alone with the address modes — clamping
  // repeats its column 3, repeating wraps to its column 0.
  s.seamless_cube = false;
  s.address[0] = s.address[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  EXPECT_NEAR(as_float(run(v, &s, r))[0], z_texel, 1e-5);
  s.address[0] = s.address[1] = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  const float z_wrapped = 5 + 0.01f * (1 * n + 0);  // +Z row 1 column 0
  EXPECT_NEAR(as_float(run(v, &s, r))[0], 0.5f * (z_texel + z_wrapped), 1e-5);
  s.address[0] = s.address[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;  // transparent black border
  EXPECT_NEAR(as_float(run(v, &s, r))[0], 0.5f * z_texel, 1e-5);
}

TEST(Sampling, FetchReadsEveryLevelAndZeroOutside) {
  TestImage img(VK_FORMAT_R8G8B8A8_UINT, {4, 4, 1}, 3, 2);
  img.randomize(21);
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_ASPECT_COLOR_BIT, 3, 2);
  auto fetch = [&](int32_t x, int32_t y, int32_t layer, int32_t level) {
    abi::SampleArgs a{};
    a.op = abi::kSampleOpFetch;
    a.width = 4;
    a.coord_count = 3;
    a.view[0] = &v.view.shader_record;
    a.coord[0][0] = uint32_t(x);
    a.coord[1][0] = uint32_t(y);
    a.coord[2][0] = uint32_t(layer);
    std::memcpy(&a.lod[0], &level, 4);
    EXPECT_EQ(v.fn(&a, 1), 1u);
    return std::array<uint32_t, 4>{a.out[0][0], a.out[1][0], a.out[2][0], a.out[3][0]};
  };
  TexelReader level1(img.image, VK_IMAGE_ASPECT_COLOR_BIT, 1, 1);
  const VkClearColorValue want = level1.read(1, 0, 0);
  const auto got = fetch(1, 0, 1, 1);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(got[c], want.uint32[c]);
  for (auto [x, y, layer, level] : {std::array{2, 0, 0, 1}, {0, 0, 2, 0}, {-1, 0, 0, 0}, {0, 0, 0, 3}}) {
    const auto zero = fetch(x, y, layer, level);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(zero[c], 0u) << x << y << layer << level;
  }
}

// Every format with SAMPLED_IMAGE: a nearest sample returns format_pack's unpacking of the texel,
// and for filterable formats a linear sample halfway between two texels their average.
TEST(Sampling, EverySampleableFormatDecodesLikeFormatPack) {
  int formats = 0;
  for (const fmt::FormatInfo* info = fmt::format_table_begin(); info != fmt::format_table_end(); ++info) {
    if (!sampleable_format(info->format) || info->is_compressed()) continue;
    SCOPED_TRACE(info->name);
    const VkImageAspectFlagBits aspect = info->has_depth() ? VK_IMAGE_ASPECT_DEPTH_BIT
                                         : info->has_stencil() ? VK_IMAGE_ASPECT_STENCIL_BIT
                                                               : VK_IMAGE_ASPECT_COLOR_BIT;
    TestImage img(info->format, {2, 1, 1});
    // Valid texels: unpack random bit patterns' values back through pack (NaN-free floats).
    std::mt19937 rng(info->format);
    const SubresourceAddress sub = img.image.layout.address(aspect, 0, 0);
    VkClearColorValue values[2];
    for (uint32_t t = 0; t < 2; ++t) {
      VkClearColorValue v{};
      const fmt::ValueClass cls = fmt::value_class(info->format, aspect);
      for (int c = 0; c < 4; ++c) {
        if (cls == fmt::ValueClass::Float) v.float32[c] = float(rng() % 1000) / 1000.0f;
        else v.uint32[c] = rng() % 100;
      }
      ASSERT_TRUE(fmt::pack_aspect(info->format, aspect, v, img.image.data + sub.offset + t * sub.texel_bytes));
      ASSERT_TRUE(fmt::unpack_aspect(info->format, aspect, img.image.data + sub.offset + t * sub.texel_bytes, &values[t]));
    }
    TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, info->format, aspect, 1, 1);
    ASSERT_NE(v.fn, nullptr);
    Sampler s;
    s.address[0] = s.address[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    Request r;
    r.coord[0] = 0.75f;
    r.coord[1] = 0.5f;
    const auto nearest = run(v, &s, r);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(nearest[c], values[1].uint32[c]) << c;
    if (linear_filterable_format(info->format)) {
      s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
      r.coord[0] = 0.5f;
      const auto linear = as_float(run(v, &s, r));
      for (int c = 0; c < 4; ++c)
        EXPECT_NEAR(linear[c], 0.5f * (values[0].float32[c] + values[1].float32[c]), 1e-6) << c;
    }
    ++formats;
  }
  EXPECT_GT(formats, 80);
}

TEST(Sampling, SrgbIsDecodedBeforeFiltering) {
  TestImage img(VK_FORMAT_R8G8B8A8_SRGB, {2, 1, 1});
  const uint8_t texels[8] = {0, 0, 0, 0, 255, 128, 255, 255};
  std::memcpy(img.image.data, texels, 8);
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_ASPECT_COLOR_BIT, 1, 1);
  Sampler s;
  s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
  s.address[0] = s.address[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  Request r;
  r.coord[0] = 0.5f;
  r.coord[1] = 0.5f;
  const auto got = as_float(run(v, &s, r));
  EXPECT_NEAR(got[0], 0.5f, 1e-6);                                   // (0 + 1) / 2 in linear space
  EXPECT_NEAR(got[1], 0.5f * fmt::srgb_to_linear(128 / 255.0f), 1e-6);  // not srgb(avg)
  EXPECT_NEAR(got[3], 0.5f, 1e-6);                                   // alpha is linear
}

// Fragment-stage implicit LOD: one quad whose coordinates step 4 texels of level 0 per pixel in x
// and 2 in y gives λ = log2(4) = 2 (spec: ρ = max of the two gradient lengths), selecting level 2;
// OpImageQueryLod reports the level and λ'; a Bias shifts both.
TEST(Sampling, ImplicitLodFromQuadDerivativesAndQueryLod) {
  TestImage img(VK_FORMAT_R32_SFLOAT, {16, 16, 1}, 5);
  for (uint32_t level = 0; level < 5; ++level) {
    const SubresourceAddress a = img.image.layout.address(VK_IMAGE_ASPECT_COLOR_BIT, level, 0);
    for (uint32_t i = 0; i < a.extent.width * a.extent.height; ++i) {
      const float value = float(level);
      std::memcpy(img.image.data + a.offset + i * 4, &value, 4);
    }
  }
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32_SFLOAT, VK_IMAGE_ASPECT_COLOR_BIT, 5, 1);
  Sampler s;
  s.max_lod = 4.0f;
  auto quad = [&](uint32_t op, float bias) {
    abi::SampleArgs a{};
    a.op = op;
    a.width = 4;
    a.coord_count = 2;
    for (uint32_t l = 0; l < 4; ++l) {
      a.view[l] = &v.view.shader_record;
      a.sampler[l] = &s;
      const float x = 0.3f + (4.0f / 16) * float(l & 1), y = 0.2f + (2.0f / 16) * float((l >> 1) & 1);
      std::memcpy(&a.coord[0][l], &x, 4);
      std::memcpy(&a.coord[1][l], &y, 4);
      a.lod[l] = bias;
    }
    EXPECT_EQ(v.fn(&a, 0xF), 0xFu);
    return a;
  };
  abi::SampleArgs sampled = quad(abi::kSampleOpSample | abi::kSampleImplicitLod, 0);
  for (uint32_t l = 0; l < 4; ++l) EXPECT_FLOAT_EQ(as_float({sampled.out[0][l], 0, 0, 0})[0], 2.0f) << l;
  abi::SampleArgs query = quad(abi::kSampleOpQueryLod, 0);
  EXPECT_FLOAT_EQ(as_float({query.out[0][0], 0, 0, 0})[0], 2.0f);
  EXPECT_FLOAT_EQ(as_float({query.out[1][0], 0, 0, 0})[0], 2.0f);
  abi::SampleArgs biased = quad(abi::kSampleOpSample | abi::kSampleImplicitLod | abi::kSampleBias, 1.0f);
  EXPECT_FLOAT_EQ(as_float({biased.out[0][3], 0, 0, 0})[0], 3.0f);
  abi::SampleArgs clamped = quad(abi::kSampleOpSample | abi::kSampleImplicitLod | abi::kSampleBias, 5.0f);
  EXPECT_FLOAT_EQ(as_float({clamped.out[0][1], 0, 0, 0})[0], 4.0f);  // maxLod
}

// samplerFilterMinmax: MIN/MAX reduce the texels of non-zero weight (both mip levels for linear
// mipmapping) component-wise instead of averaging them.
TEST(Sampling, MinMaxReductionTakesTheFootprintExtremes) {
  TestImage img(VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 2);
  img.randomize(17);
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT, 2, 1);
  for (VkSamplerReductionMode mode : {VK_SAMPLER_REDUCTION_MODE_MIN, VK_SAMPLER_REDUCTION_MODE_MAX}) {
    Sampler s;
    s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
    s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    s.address[0] = s.address[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    s.max_lod = 1.0f;
    s.reduction_mode = mode;
    auto pick = [&](double a, double b) { return mode == VK_SAMPLER_REDUCTION_MODE_MIN ? std::min(a, b) : std::max(a, b); };
    Request r;
    r.coord[0] = 0.3f;  // level 0: u = 1.2 -> texels 0, 1; v = 2.6 -> rows 2, 3
    r.coord[1] = 0.65f;
    r.lod = 0.0f;
    auto got = as_float(run(v, &s, r));
    for (int c = 0; c < 4; ++c) {
      const double want = pick(pick(ref_texel(img.image, s, 0, 0, 2, 0)[c], ref_texel(img.image, s, 0, 1, 2, 0)[c]),
                               pick(ref_texel(img.image, s, 0, 0, 3, 0)[c], ref_texel(img.image, s, 0, 1, 3, 0)[c]));
      EXPECT_NEAR(got[c], want, 1e-6) << mode << " c" << c;
    }
    // Between levels (λ = 0.5): level 1 is 2x2, u = 0.6 -> texels 0, 1; v = 1.3 -> rows 0, 1.
    r.lod = 0.5f;
    got = as_float(run(v, &s, r));
    for (int c = 0; c < 4; ++c) {
      double want = ref_texel(img.image, s, 0, 0, 2, 0)[c];
      for (auto [i, j] : {std::pair{1, 2}, {0, 3}, {1, 3}}) want = pick(want, ref_texel(img.image, s, 0, i, j, 0)[c]);
      for (auto [i, j] : {std::pair{0, 0}, {1, 0}, {0, 1}, {1, 1}}) want = pick(want, ref_texel(img.image, s, 1, i, j, 0)[c]);
      EXPECT_NEAR(got[c], want, 1e-6) << mode << " c" << c;
    }
  }
}

}  // namespace
}  // namespace kiln::mem

namespace kiln::mem {
namespace {

// ----- Anisotropic filtering (spec "Texel Anisotropic Filtering") ----------------------------------

TEST(Sampling, AnisotropicFootprintTakesProbesFromTheAxisRatio) {
  struct Case {
    float dx[3], dy[3], max_aniso;
    uint32_t probes;
    float lambda;
    bool x_major;
  };
  const Case cases[] = {
      {{8, 0, 0}, {0, 2, 0}, 16, 4, 1.0f, true},               // eta = 4: LOD of the minor axis
      {{0, 1, 0}, {0, 64, 0}, 16, 16, 2.0f, false},            // ratio 64 clamped to 16: log2(64 / 16)
      {{3, 0, 0}, {0, 2, 0}, 16, 2, std::log2(2.0f), true},    // eta = 1.5 -> 2 probes, LOD log2(3 / 1.5)
      {{2, 0, 0}, {0, 2, 0}, 16, 1, 1.0f, false},              // isotropic: one probe, ties pick d/dy
      {{4, 0, 0}, {0, 0, 0}, 8, 8, -1.0f, true},               // a line: the maximum ratio
      {{3, 4, 0}, {-8, 6, 0}, 4, 2, std::log2(5.0f), false},   // |dx| = 5, |dy| = 10, rotated axes
      {{1, 0, 0}, {0, 6, 0}, 2, 2, std::log2(3.0f), false},    // maxAnisotropy 2
  };
  for (const Case& c : cases) {
    const AnisotropicFootprint f = anisotropic_footprint(c.dx, c.dy, c.max_aniso);
    EXPECT_EQ(f.probes, c.probes) << c.dx[0] << "," << c.dy[1];
    EXPECT_FLOAT_EQ(f.lambda_base, c.lambda) << c.dx[0] << "," << c.dy[1];
    EXPECT_EQ(f.x_major, c.x_major) << c.dx[0] << "," << c.dy[1];
  }
  const float zero[3] = {0, 0, 0};
  const AnisotropicFootprint none = anisotropic_footprint(zero, zero, 16);
  EXPECT_EQ(none.probes, 1u);
  EXPECT_TRUE(std::isinf(none.lambda_base) && none.lambda_base < 0);
}

// Reference: N = ceil(eta) isotropic samples at P + (i / (N + 1) - 1/2) dP/d(major), i = 1..N, at
// lambda = log2(rho_max / eta), averaged (the spec's equations with Kiln's N).
TEST(Sampling, AnisotropicSamplesAverageProbesAlongTheMajorAxis) {
  TestImage img(VK_FORMAT_R8G8B8A8_UNORM, {32, 16, 1}, 5);
  img.randomize(21);
  TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT, 5, 1);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> coord(-0.5f, 1.5f), grad(-0.4f, 0.4f);
  int differs = 0, checked = 0;
  for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
    for (float max_aniso : {2.0f, 5.5f, 16.0f}) {
      Sampler s;
      s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
      s.mipmap_mode = mip;
      s.address[0] = VK_SAMPLER_ADDRESS_MODE_REPEAT;
      s.address[1] = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
      s.max_lod = 4.0f;
      s.max_anisotropy = max_aniso;
      Sampler isotropic = s;
      isotropic.max_anisotropy = 1.0f;
      for (int n = 0; n < 60; ++n) {
        Request r;
        r.op = abi::kSampleOpSample | abi::kSampleGrad;
        r.coord[0] = coord(rng);
        r.coord[1] = coord(rng);
        // Mostly elongated footprints: one axis scaled down.
        const float squash = n % 3 == 0 ? 1.0f : 0.05f;
        r.grad[0][0] = grad(rng);
        r.grad[0][1] = grad(rng) * (n % 2 ? squash : 1.0f);
        r.grad[1][0] = grad(rng) * (n % 2 ? 1.0f : squash);
        r.grad[1][1] = grad(rng) * squash;
        const double ux = r.grad[0][0] * 32.0, vx = r.grad[0][1] * 16.0, uy = r.grad[1][0] * 32.0, vy = r.grad[1][1] * 16.0;
        const double rx = std::hypot(ux, vx), ry = std::hypot(uy, vy);
        const double rmax = std::max(rx, ry), rmin = std::min(rx, ry);
        const double eta = rmin > 0 ? std::min(rmax / rmin, double(max_aniso)) : max_aniso;
        const uint32_t probes = uint32_t(std::ceil(eta - 1e-9));
        const double lambda = std::log2(rmax / eta);
        const float* major = rx > ry ? r.grad[0] : r.grad[1];
        std::array<double, 4> want{};
        for (uint32_t i = 1; i <= probes; ++i) {
          const double along = double(i) / (probes + 1) - 0.5;
          const auto p = ref_sample(img.image, s, 5, r.coord[0] + along * major[0], r.coord[1] + along * major[1], lambda, 0);
          for (int c = 0; c < 4; ++c) want[c] += p[c] / probes;
        }
        const auto got = as_float(run(v, &s, r));
        for (int c = 0; c < 4; ++c) ASSERT_NEAR(got[c], want[c], 1e-4) << "c" << c << " n" << n << " probes " << probes;
        const auto plain = as_float(run(v, &isotropic, r));
        if (probes > 1 && std::fabs(plain[0] - got[0]) > 0.01f) ++differs;
        ++checked;
      }
    }
  EXPECT_EQ(checked, 2 * 3 * 60);
  EXPECT_GT(differs, 100);  // anisotropy must change elongated footprints
}


// ----- Fast paths (memory/sampling_fast_path.h) against the generic routine ----------------------

// Random texel bytes for `format`; compressed images get random blocks (BC1-7 and ETC2 decode any
// bit pattern to something).
TestImage random_image(VkFormat format, VkExtent3D extent, uint32_t mips, uint32_t seed) {
  TestImage img(format, extent, mips);
  img.randomize(seed);
  if (format == VK_FORMAT_R32G32B32A32_SFLOAT || format == VK_FORMAT_R32_SFLOAT || format == VK_FORMAT_R16G16B16A16_SFLOAT) {
    // Finite values: random bit patterns would make NaNs, which compare unequal to themselves.
    std::mt19937 rng(seed);
    const uint32_t bytes = fmt::format_info(format)->block_bytes;
    for (size_t at = 0; at + bytes <= img.storage.size(); at += bytes) {
      VkClearColorValue v{};
      for (float& f : v.float32) f = float(rng() % 2001) / 1000.0f - 1.0f;
      fmt::pack_color(format, v, img.storage.data() + at);
    }
  }
  return img;
}

// W = 16 lanes of random requests through one view and sampler: once as a plain sample (which a
// fast path takes when the sampler qualifies) and once with a no-op MinLod operand (which always
// takes the generic routine). The outputs must be bit-identical. Four images: levels of whole
// blocks, partial blocks and levels one texel wide, a single level, and two levels read without a
// swizzle (the others are read with a swizzle that shows every channel); five rounds each:
// coordinates anywhere (all lanes, all lanes with kSampleUniform, some lanes inactive), then coordinates near a random centre as neighbouring
// pixels have them (footprints within a few texels and one or two rows: all lanes; a few texels
// each way: some lanes inactive), which the sixteen-lane filter reads by rows of texels.
void check_fast_paths_against_the_generic_routine() {
  const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_UNORM,
                              VK_FORMAT_B8G8R8A8_SRGB,  VK_FORMAT_R32_SFLOAT,    VK_FORMAT_R32G32B32A32_SFLOAT,
                              VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_BC1_RGB_UNORM_BLOCK,
                              VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC3_UNORM_BLOCK, VK_FORMAT_BC7_UNORM_BLOCK,
                              VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK};
  struct Shape {
    VkExtent3D extent;
    uint32_t levels;
  };
  const Shape shapes[] = {{{32, 16, 1}, 4}, {{13, 7, 1}, 4}, {{20, 12, 1}, 1}, {{24, 10, 1}, 2}};
  constexpr uint32_t kRounds = 5;
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> coord(-1.5f, 2.5f), lod(-1.0f, 4.0f), grad(-0.3f, 0.3f);
  std::uniform_real_distribution<float> near(-0.15f, 0.15f), nearer(-0.04f, 0.04f);
  uint32_t compared = 0;
  for (VkFormat format : formats)
    for (const Shape& shape : shapes) {
      const VkExtent3D& extent = shape.extent;
      SCOPED_TRACE(std::string(fmt::format_info(format)->name) + " " + std::to_string(extent.width) + "x" +
                   std::to_string(extent.height) + " levels " + std::to_string(shape.levels));
      const TestImage img = random_image(format, extent, shape.levels, format + extent.width);
      // A swizzle with a constant on the first shape, the identity on the last (the sixteen-lane
      // filter stores its vectors as they are then), every channel reversed on the others.
      const VkComponentMapping swizzle =
          &shape == &shapes[0]   ? VkComponentMapping{VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R}
          : &shape == &shapes[3] ? VkComponentMapping{}
                                 : VkComponentMapping{VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R};
      TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, format, VK_IMAGE_ASPECT_COLOR_BIT, shape.levels, 1, swizzle);
      ASSERT_NE(v.fn, nullptr);
      for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
        for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
          for (VkSamplerAddressMode mode : {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_REPEAT})
            for (uint32_t lod_mode : {uint32_t(abi::kSampleExplicitLod), uint32_t(abi::kSampleGrad), uint32_t(abi::kSampleImplicitLod | abi::kSampleBias)})
              for (uint32_t round = 0; round < kRounds; ++round) {
                Sampler s;
                s.mag_filter = s.min_filter = filter;
                s.mipmap_mode = mip;
                s.address[0] = s.address[1] = mode;
                s.min_lod = 0.25f;
                s.max_lod = 3.5f;
                s.mip_lod_bias = -0.5f;
                abi::SampleArgs fast{};
                fast.op = abi::kSampleOpSample | lod_mode;
                fast.width = abi::kMaxSampleLanes;
                fast.coord_count = 2;
                const float centre[2] = {coord(rng), coord(rng)};
                for (uint32_t l = 0; l < abi::kMaxSampleLanes; ++l) {
                  fast.view[l] = &v.view.shader_record;
                  fast.sampler[l] = &s;
                  for (uint32_t c = 0; c < 2; ++c) {
                    const float f = round < 3    ? coord(rng)
                                    : round == 3 ? centre[c] + (c == 0 ? near(rng) : nearer(rng))
                                                 : centre[c] + near(rng);
                    std::memcpy(&fast.coord[c][l], &f, 4);
                    fast.grad[0][c][l] = grad(rng);
                    fast.grad[1][c][l] = grad(rng);
                  }
                  fast.lod[l] = lod(rng);
                  fast.min_lod[l] = -100.0f;  // no effect on the result
                }
                if (round == 2) {
                  // Lanes 0-3: at a texel centre across (fraction 0: the upper corner is not read), at
                  // one down, and where the fraction rounds up to 1 (texel-space -2^-25) across and down.
                  const float w = float(extent.width), h = float(extent.height);
                  const float at[4][2] = {{2.5f / w, 0.3f}, {0.3f, 1.5f / h}, {(0.5f - 0x1p-25f) / w, 0.3f}, {0.7f, (0.5f - 0x1p-25f) / h}};
                  for (uint32_t l = 0; l < 4; ++l)
                    for (uint32_t c = 0; c < 2; ++c) std::memcpy(&fast.coord[c][l], &at[l][c], 4);
                }
                const uint32_t lanes = round == 0 || round == 3 ? 0xFFFFu : (rng() & 0xFFFFu) | 1u;
                if (round == 1 || round == 3) fast.op |= abi::kSampleUniform;  // as kernels say when they proved it
                if (round == 3) {  // as kernels do now; round 1 as kernels from before the scalar copies
                  fast.op |= abi::kSampleUniformRecords;
                  fast.uniform_view = &v.view.shader_record;
                  fast.uniform_sampler = &s;
                }
                abi::SampleArgs generic = fast;
                generic.op |= abi::kSampleMinLod;
                advance_sampling_epoch();
                ASSERT_EQ(v.fn(&fast, lanes), lanes);
                ASSERT_EQ(v.fn(&generic, lanes), lanes);
                for (uint32_t c = 0; c < 4; ++c)
                  for (uint32_t l = 0; l < abi::kMaxSampleLanes; ++l) {
                    // With kSampleUniform a routine may write lanes it was not passed (inactive ones);
                    // otherwise it must leave them alone (another routine may have written them).
                    if (!((lanes >> l) & 1) && (fast.op & abi::kSampleUniform)) continue;
                    ASSERT_EQ(fast.out[c][l], generic.out[c][l])
                        << "lane " << l << " component " << c << " filter " << filter << " mip " << mip << " mode "
                        << mode << " lod mode " << lod_mode << " round " << round;
                  }
                ++compared;
              }
    }
  EXPECT_EQ(compared, std::size(formats) * std::size(shapes) * 2 * 2 * 2 * 3 * kRounds);
}

// Once per SIMD width the fast paths may use (16 and 8 lanes run where the CPU has them; 1 is the
// portable code).
TEST(Sampling, FastPathsEqualTheGenericRoutine) {
  for (uint32_t simd : {16u, 8u, 1u}) {
    SCOPED_TRACE("SIMD lanes " + std::to_string(simd));
    limit_sampling_simd_lanes(simd);
    check_fast_paths_against_the_generic_routine();
  }
  limit_sampling_simd_lanes(abi::kMaxSampleLanes);
}

// The SIMD filters' REPEAT wrap (AND for powers of two, the float quotient for |i| < 2^22, a
// per-lane modulo beyond) against the spec's positive remainder: the eight-lane one on both halves
// of sixteen values, the sixteen-lane one (when `x16`) on all of them. Half of the vectors stay
// within the float path's limit, so every vector of them takes it.
__attribute__((target("avx2,fma"))) void wrap_x8(const int32_t* in, int32_t size, int32_t* out) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      sampling_detail::rgba8_wrap<true>(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in)),
                                                        _mm256_set1_epi32(size)));
}
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"))) void wrap_x16(const int32_t* in, int32_t size,
                                                                                     int32_t* out) {
  _mm512_storeu_si512(out, sampling_detail::rgba8_wrap_x16<true>(_mm512_loadu_si512(in), _mm512_set1_epi32(size)));
}

uint32_t repeat_wrap_mismatches(bool x16) {
  std::mt19937 rng(5);
  uint32_t bad = 0;
  for (int32_t size = 1; size <= 300; ++size)
    for (int k = 0; k < 100; ++k) {
      int32_t in[16], out[16];
      const uint32_t cases = rng() % 2 ? 4 : 3;
      for (int l = 0; l < 16; ++l) {
        switch (rng() % cases) {
          case 0: in[l] = int32_t(rng() % 20000) - 10000; break;
          case 1: in[l] = int32_t(rng() % (1u << 23)) - (1 << 22) + 1; break;  // up to the float path's limit
          case 2: in[l] = int32_t(rng() % 16) * size - 8 * size + int32_t(rng() % 3) - 1;  break;  // next to multiples
          default: in[l] = (rng() & 1 ? 1 : -1) * int32_t(rng() % (1u << 28)); break;  // beyond it
        }
      }
      wrap_x8(in, size, out);
      wrap_x8(in + 8, size, out + 8);
      for (int l = 0; l < 16; ++l) bad += out[l] != wrap_texel(VK_SAMPLER_ADDRESS_MODE_REPEAT, in[l], size);
      if (!x16) continue;
      wrap_x16(in, size, out);
      for (int l = 0; l < 16; ++l) bad += out[l] != wrap_texel(VK_SAMPLER_ADDRESS_MODE_REPEAT, in[l], size);
    }
  return bad;
}

TEST(Sampling, RepeatWrapOfTheSimdFiltersIsThePositiveRemainder) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) GTEST_SKIP() << "no AVX2";
  const bool x16 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  EXPECT_EQ(repeat_wrap_mismatches(x16), 0u);
}

// The per-thread cache of decoded blocks: texels equal the block decoder's, and a new sampling
// epoch (a new dispatch or draw) sees memory that changed.
// Small blocks (BC1 4x4) and the large ones of their own entries (ASTC 12x10 sRGB: 120 texels).
TEST(Sampling, CompressedBlockCacheFollowsTheDecoderAndTheEpoch) {
  for (const VkFormat format : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_ASTC_12x10_SRGB_BLOCK}) {
    const fmt::FormatInfo* info = fmt::format_info(format);
    SCOPED_TRACE(info->name);
    const uint32_t bw = info->block_width, bh = info->block_height, w = 4 * bw, h = 4 * bh;
    TestImage img(format, {w, h, 1});
    img.randomize(3);
    TestView v(img.image, VK_IMAGE_VIEW_TYPE_2D, format, VK_IMAGE_ASPECT_COLOR_BIT, 1, 1);
    Sampler s;  // nearest, REPEAT
    auto check_all_texels = [&] {
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
          float block[fmt::kMaxBlockTexels][4];
          ASSERT_TRUE(fmt::decode_block(format, img.storage.data() + ((y / bh) * 4 + x / bw) * info->block_bytes, block));
          abi::SampleArgs a{};
          a.op = abi::kSampleOpSample | abi::kSampleExplicitLod;
          a.width = 4;
          a.coord_count = 2;
          for (uint32_t l = 0; l < 4; ++l) {
            a.view[l] = &v.view.shader_record;
            a.sampler[l] = &s;
            const float st[2] = {(float(x) + 0.5f) / float(w), (float(y) + 0.5f) / float(h)};
            std::memcpy(&a.coord[0][l], &st[0], 4);
            std::memcpy(&a.coord[1][l], &st[1], 4);
          }
          ASSERT_EQ(v.fn(&a, 0xFu), 0xFu);
          for (uint32_t c = 0; c < 4; ++c) {
            float got;
            std::memcpy(&got, &a.out[c][0], 4);
            ASSERT_EQ(got, block[(y % bh) * bw + x % bw][c]) << x << "," << y << " c" << c;
          }
        }
    };
    advance_sampling_epoch();
    check_all_texels();
    for (uint8_t& b : img.storage) b = uint8_t(~b);  // every block changes
    advance_sampling_epoch();
    check_all_texels();
  }
}

}  // namespace
}  // namespace kiln::mem
