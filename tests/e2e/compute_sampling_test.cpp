// Texture sampling in compute shaders (issue #5): GLSL texture*/texelFetch/textureGather/
// textureSize/textureQueryLevels on sampler2D, sampler2DArray, sampler3D, samplerCube,
// sampler2DShadow, separate textures and samplers, and arrays of samplers (uniform and
// non-uniform indices). Results come back through a storage buffer and are compared with a CPU
// reference written from the spec's formulas. Filtered values are compared within 0.015 (three
// linear interpolations with the spec's minimum of 8 subtexel bits, as lavapipe uses), gradient
// LODs within 0.03; fetches, gathers, nearest samples and queries exactly.
// Run with KILN_TEST_DRIVER=lavapipe to check the references against lavapipe.
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"
#include "memory/block_decode.h"
#include "memory/format_pack.h"
#include "memory/format_table.h"

namespace kiln::test {
namespace {

class ComputeSamplingTest : public VulkanTest {
 protected:
  // A device with dynamic and non-uniform indexing of sampler arrays.
  TestDevice& indexing_device() {
    enabled_.core.features.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
    enabled_.v12.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
    TestDevice* device = create_device(enabled_);
    if (!device) throw std::runtime_error("vkCreateDevice with sampled-image array indexing failed");
    return *device;
  }
  DeviceFeatures enabled_;

  VkSampler make_sampler(TestDevice& device, VkFilter filter, VkSamplerMipmapMode mip, VkSamplerAddressMode u,
                         VkSamplerAddressMode v, VkSamplerAddressMode w, float max_lod, bool compare = false) {
    VkSamplerCreateInfo info{.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    info.magFilter = info.minFilter = filter;
    info.mipmapMode = mip;
    info.addressModeU = u;
    info.addressModeV = v;
    info.addressModeW = w;
    info.maxLod = max_lod;
    info.compareEnable = compare;
    info.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    VkSampler sampler = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateSampler(device.handle(), &info, nullptr, &sampler));
    VkDevice d = device.handle();
    device.defer_destroy([d, sampler] { vkDestroySampler(d, sampler, nullptr); });
    return sampler;
  }

  // Sampling of every compressed format in 2D images or (depth > 1) 3D images (definition below).
  void check_compressed_sampling(TestDevice& device, VkSampler linear, uint32_t depth);

  // Runs `shader` over `groups` workgroups with `set` and returns the results buffer.
  void run(TestDevice& device, const char* shader, VkDescriptorSetLayout layout, VkDescriptorSet set, uint32_t groups) {
    SetsPipeline pipeline(device, shader, {layout});
    device.run_commands([&](VkCommandBuffer cmd) {
      pipeline.record_dispatch(cmd, {set}, groups);
      shader_writes_to_host_barrier(cmd);
    });
  }
};

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

using Vec4 = std::array<double, 4>;

// ----- Reference for sample_2d.comp: an 8x8 RGBA8 UNORM image with 4 levels, linear filtering,
// linear mipmaps, U = REPEAT, V = MIRRORED_REPEAT, LOD range [0, 3]. -----------------------------
struct Reference2D {
  const std::vector<std::vector<uint8_t>>& levels;
  static int64_t mod(int64_t a, int64_t n) { return ((a % n) + n) % n; }
  static int64_t mirror(int64_t a) { return a >= 0 ? a : -(1 + a); }
  static uint32_t size(uint32_t level) { return 8u >> level; }

  Vec4 texel(uint32_t level, int64_t i, int64_t j) const {
    const int64_t n = size(level);
    const int64_t x = mod(i, n);                               // REPEAT
    const int64_t y = (n - 1) - mirror(mod(j, 2 * n) - n);     // MIRRORED_REPEAT
    const uint8_t* p = levels[level].data() + (y * n + x) * 4;
    return {p[0] / 255.0, p[1] / 255.0, p[2] / 255.0, p[3] / 255.0};
  }
  Vec4 bilinear(uint32_t level, double s, double t, int32_t ox, int32_t oy) const {
    const double u = s * size(level) - 0.5, v = t * size(level) - 0.5;
    const int64_t i0 = int64_t(std::floor(u)) + ox, j0 = int64_t(std::floor(v)) + oy;
    const double a = u - std::floor(u), b = v - std::floor(v);
    const Vec4 t00 = texel(level, i0, j0), t10 = texel(level, i0 + 1, j0);
    const Vec4 t01 = texel(level, i0, j0 + 1), t11 = texel(level, i0 + 1, j0 + 1);
    Vec4 out;
    for (int c = 0; c < 4; ++c)
      out[c] = (1 - a) * (1 - b) * t00[c] + a * (1 - b) * t10[c] + (1 - a) * b * t01[c] + a * b * t11[c];
    return out;
  }
  Vec4 sample(double s, double t, double lod, int32_t ox = 0, int32_t oy = 0) const {
    const double d = std::clamp(lod, 0.0, 3.0);
    const uint32_t hi = uint32_t(std::floor(d)), lo = std::min(hi + 1, 3u);
    const double delta = d - hi;
    const Vec4 a = bilinear(hi, s, t, ox, oy), b = bilinear(lo, s, t, ox, oy);
    Vec4 out;
    for (int c = 0; c < 4; ++c) out[c] = (1 - delta) * a[c] + delta * b[c];
    return out;
  }
  // textureGather: component `comp` of (i0, j1), (i1, j1), (i1, j0), (i0, j0) of level 0.
  Vec4 gather(double s, double t, uint32_t comp, int32_t ox = 0, int32_t oy = 0) const {
    const int64_t i0 = int64_t(std::floor(s * 8 - 0.5)) + ox, j0 = int64_t(std::floor(t * 8 - 0.5)) + oy;
    return {texel(0, i0, j0 + 1)[comp], texel(0, i0 + 1, j0 + 1)[comp], texel(0, i0 + 1, j0)[comp], texel(0, i0, j0)[comp]};
  }
};

void expect_near(const float* got, const Vec4& want, double tolerance, const std::string& what) {
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[c], want[c], tolerance) << what << " component " << c;
}

TEST_F(ComputeSamplingTest, Sampler2DLodOffsetGradProjFetchGatherAndQueries) {
  TestDevice& device = this->device();
  std::vector<std::vector<uint8_t>> levels;
  for (uint32_t l = 0; l < 4; ++l) levels.push_back(random_bytes((8u >> l) * (8u >> l) * 4, 100 + l));
  const SampledImage image = make_sampled_image(device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 1}, 1, levels);
  const VkSampler sampler = make_sampler(device, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                         VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 3.0f);
  constexpr uint32_t kInvocations = 64;
  Buffer results = device.create_buffer(kInvocations * 8 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  VkDescriptorSetLayout layout;
  VkDescriptorSet set = make_set(device, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  write_images(device, set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
               {{sampler, image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}});
  write_buffers(device.handle(), set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  run(device, "sample_2d.comp", layout, set, kInvocations / 16);

  const Reference2D ref{levels};
  const float* out = reinterpret_cast<const float*>(results.mapped);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    const float s = float(i % 8u) * 0.173f - 0.31f, t = float(i / 8u) * 0.121f - 0.2f;
    const float lod = float(i % 5u) * 0.45f - 0.3f;
    const uint32_t level = i % 3u;
    const float* r = out + i * 32;
    expect_near(r + 0, ref.sample(s, t, lod), 0.015, "textureLod");
    const int64_t fx = (i % 8u) >> level, fy = (i / 8u) >> level;
    const uint8_t* p = levels[level].data() + (fy * (8 >> level) + fx) * 4;
    expect_near(r + 4, {p[0] / 255.0, p[1] / 255.0, p[2] / 255.0, p[3] / 255.0}, 1e-6, "texelFetch");
    expect_near(r + 8, ref.gather(s, t, 1), 1e-6, "textureGather");
    expect_near(r + 12, ref.sample(s, t, lod, 1, -2), 0.015, "textureLodOffset");
    expect_near(r + 16, {double(8u >> (i / 16u)), double(8u >> (i / 16u)), 4.0, 0.0}, 0, "textureSize/QueryLevels");
    expect_near(r + 20, ref.sample(s, t, std::log2(1.6)), 0.03, "textureGrad");
    expect_near(r + 24, ref.gather(s, t, 3, -1, 1), 1e-6, "textureGatherOffset");
    expect_near(r + 28, ref.sample(s, t, lod), 0.015, "textureProjLod");
  }
}

// The spec's cube face table: face index and (s, t).
uint32_t ref_cube_face(double x, double y, double z, double* s, double* t) {
  const double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  double sc, tc, ma;
  uint32_t face;
  if (ax >= ay && ax >= az) { face = x >= 0 ? 0 : 1; ma = ax; sc = x >= 0 ? -z : z; tc = -y; }
  else if (ay >= az) { face = y >= 0 ? 2 : 3; ma = ay; sc = x; tc = y >= 0 ? z : -z; }
  else { face = z >= 0 ? 4 : 5; ma = az; sc = z >= 0 ? x : -x; tc = -y; }
  *s = 0.5 * (sc / ma + 1);
  *t = 0.5 * (tc / ma + 1);
  return face;
}

TEST_F(ComputeSamplingTest, ArrayVolumeCubeShadowSeparateAndSamplerArrays) {
  TestDevice& device = this->device();
  constexpr uint32_t kInvocations = 64;
  const auto array_bytes = random_bytes(4 * 4 * 3 * 4, 1);
  const auto volume_bytes = random_bytes(4 * 4 * 4 * 4, 2);
  const auto cube_bytes = random_bytes(2 * 2 * 6 * 4, 3);
  const auto pair0 = random_bytes(4 * 4 * 4, 4), pair1 = random_bytes(4 * 4 * 4, 5);
  std::vector<float> depth(16);
  for (uint32_t k = 0; k < 16; ++k) depth[k] = float(k % 7) / 7.0f + 0.01f;
  std::vector<uint8_t> depth_bytes(64);
  std::memcpy(depth_bytes.data(), depth.data(), 64);
  std::vector<uint16_t> halves(16 * 4);
  for (uint32_t k = 0; k < halves.size(); ++k) halves[k] = fmt::float_to_half(float(k % 33) / 16.0f - 1.0f);
  std::vector<uint8_t> half_bytes(halves.size() * 2);
  std::memcpy(half_bytes.data(), halves.data(), half_bytes.size());

  const SampledImage arr = make_sampled_image(device, VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 3, {array_bytes});
  const SampledImage vol = make_sampled_image(device, VK_IMAGE_VIEW_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 4}, 1, {volume_bytes});
  const SampledImage cube = make_sampled_image(device, VK_IMAGE_VIEW_TYPE_CUBE, VK_FORMAT_R8G8B8A8_UNORM, {2, 2, 1}, 6, {cube_bytes});
  const SampledImage shadow = make_sampled_image(device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_D32_SFLOAT, {4, 4, 1}, 1, {depth_bytes},
                                         VK_IMAGE_ASPECT_DEPTH_BIT);
  const SampledImage separate = make_sampled_image(device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R16G16B16A16_SFLOAT, {4, 4, 1}, 1, {half_bytes});
  const SampledImage p0 = make_sampled_image(device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 1, {pair0});
  const SampledImage p1 = make_sampled_image(device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 1, {pair1});
  const auto clamp = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  const VkSampler nearest = make_sampler(device, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, clamp, clamp, clamp, 0.0f);
  const VkSampler linear = make_sampler(device, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, clamp, clamp, clamp, 0.0f);
  const VkSampler compare = make_sampler(device, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, clamp, clamp, clamp, 0.0f, true);

  Buffer results = device.create_buffer(kInvocations * 10 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  VkDescriptorSetLayout layout;
  const auto combined = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  VkDescriptorSet set = make_set(device, {{combined}, {combined}, {combined}, {combined}, {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE},
                                          {VK_DESCRIPTOR_TYPE_SAMPLER}, {combined, 2}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  const auto ro = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  write_images(device, set, 0, combined, {{nearest, arr.view, ro}});
  write_images(device, set, 1, combined, {{nearest, vol.view, ro}});
  write_images(device, set, 2, combined, {{nearest, cube.view, ro}});
  write_images(device, set, 3, combined, {{compare, shadow.view, ro}});
  write_images(device, set, 4, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, {{VK_NULL_HANDLE, separate.view, ro}});
  write_images(device, set, 5, VK_DESCRIPTOR_TYPE_SAMPLER, {{nearest, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED}});
  write_images(device, set, 6, combined, {{linear, p0.view, ro}, {linear, p1.view, ro}});
  write_buffers(device.handle(), set, 7, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  run(device, "sample_kinds.comp", layout, set, kInvocations / 16);

  auto rgba8 = [](const std::vector<uint8_t>& bytes, size_t texel) {
    const uint8_t* p = bytes.data() + texel * 4;
    return Vec4{p[0] / 255.0, p[1] / 255.0, p[2] / 255.0, p[3] / 255.0};
  };
  const double face_dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  const float* out = reinterpret_cast<const float*>(results.mapped);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    const uint32_t x = i % 4u, y = (i / 4u) % 4u;
    const float* r = out + i * 40;
    expect_near(r + 0, rgba8(array_bytes, (i % 3u) * 16 + y * 4 + x), 1e-6, "sampler2DArray");
    expect_near(r + 4, rgba8(volume_bytes, (i % 4u) * 16 + y * 4 + x), 1e-6, "sampler3D");
    double s, t;
    const double* d = face_dirs[i % 6u];
    const uint32_t face = ref_cube_face(d[0] * 2 + 0.1, d[1] * 2 + 0.1, d[2] * 2 + 0.1, &s, &t);
    ASSERT_EQ(face, i % 6u);
    expect_near(r + 8, rgba8(cube_bytes, face * 4 + uint32_t(t * 2) * 2 + uint32_t(s * 2)), 1e-6, "samplerCube");
    const float ref = float(i % 5u) * 0.25f;
    const double lit = ref <= depth[y * 4 + x] ? 1.0 : 0.0;
    expect_near(r + 12, {lit, lit, lit, lit}, 1e-6, "sampler2DShadow");
    Vec4 h;
    for (int c = 0; c < 4; ++c) h[c] = fmt::half_to_float(halves[(y * 4 + x) * 4 + c]);
    expect_near(r + 16, h, 1e-6, "texture2D + sampler");
    Vec4 difference;
    for (int c = 0; c < 4; ++c) difference[c] = rgba8(pair1, y * 4 + x)[c] - rgba8(pair0, y * 4 + x)[c];
    expect_near(r + 20, difference, 1e-6, "sampler2D[2]");
    expect_near(r + 24, {4, 4, 3, 1}, 0, "array size, cube levels");
    expect_near(r + 28, {2, 2, 4, 4}, 0, "cube and shadow sizes");
    expect_near(r + 32, {lit, lit, lit, lit}, 1e-6, "textureProjLod(sampler2DShadow)");
    expect_near(r + 36, rgba8(array_bytes, (i % 3u) * 16 + y * 4 + x), 1e-6, "texelFetchOffset");
  }
}

TEST_F(ComputeSamplingTest, NonUniformIndexIntoSamplersOfDifferentFormats) {
  REQUIRE_ON_KILN(features().v12.shaderSampledImageArrayNonUniformIndexing, "shaderSampledImageArrayNonUniformIndexing");
  REQUIRE_ON_KILN(features().core.features.shaderSampledImageArrayDynamicIndexing, "shaderSampledImageArrayDynamicIndexing");
  TestDevice* device = &indexing_device();
  const VkFormat formats[4] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_SFLOAT, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT};
  std::vector<std::vector<uint8_t>> texels(4);
  std::vector<VkDescriptorImageInfo> infos;
  const auto clamp = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  const VkSampler nearest = make_sampler(*device, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, clamp, clamp, clamp, 0.0f);
  std::mt19937 rng(77);
  for (uint32_t k = 0; k < 4; ++k) {
    const uint32_t size = texel_size(formats[k]);
    texels[k].resize(16 * size);
    for (uint32_t t = 0; t < 16; ++t) {
      VkClearColorValue v{};
      for (float& f : v.float32) f = float(rng() % 1000) / 1000.0f;
      ASSERT_TRUE(fmt::pack_color(formats[k], v, texels[k].data() + t * size));
    }
    const SampledImage image = make_sampled_image(*device, VK_IMAGE_VIEW_TYPE_2D, formats[k], {4, 4, 1}, 1, {texels[k]});
    infos.push_back({nearest, image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
  }
  constexpr uint32_t kInvocations = 32;
  Buffer results = device->create_buffer(kInvocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  VkDescriptorSetLayout layout;
  VkDescriptorSet set = make_set(*device, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  write_images(*device, set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, infos);
  write_buffers(device->handle(), set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  run(*device, "sample_nonuniform.comp", layout, set, kInvocations / 16);
  const float* out = reinterpret_cast<const float*>(results.mapped);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t k = (i * 7u) % 4u, texel = ((i / 4u) % 4u) * 4 + i % 4u;
    VkClearColorValue want{};
    ASSERT_TRUE(fmt::unpack_color(formats[k], texels[k].data() + texel * texel_size(formats[k]), &want));
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(out[i * 4 + c], want.float32[c], 1e-6) << "invocation " << i << " c" << c;
  }
}

TEST_F(ComputeSamplingTest, CubeArraysMirrorClampToEdgeAndExtendedGathers) {
  const DeviceFeatures& f = features();
  REQUIRE_ON_KILN(f.core.features.imageCubeArray, "imageCubeArray");
  REQUIRE_ON_KILN(f.v12.samplerMirrorClampToEdge, "samplerMirrorClampToEdge");
  REQUIRE_ON_KILN(f.core.features.shaderImageGatherExtended, "shaderImageGatherExtended");
  enabled_.core.features.imageCubeArray = VK_TRUE;
  enabled_.v12.samplerMirrorClampToEdge = VK_TRUE;
  enabled_.core.features.shaderImageGatherExtended = VK_TRUE;
  TestDevice* device = create_device(enabled_);
  ASSERT_NE(device, nullptr);
  const auto cube_bytes = random_bytes(2 * 2 * 12 * 4, 31), tex_bytes = random_bytes(4 * 4 * 4, 32);
  const SampledImage cubes = make_sampled_image(*device, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, VK_FORMAT_R8G8B8A8_UNORM, {2, 2, 1}, 12, {cube_bytes});
  const SampledImage tex = make_sampled_image(*device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 1, {tex_bytes});
  const auto clamp = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, mirror = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE,
             repeat = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  const VkSampler nearest = make_sampler(*device, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, clamp, clamp, clamp, 0.0f);
  const VkSampler mirrored = make_sampler(*device, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, mirror, mirror, mirror, 0.0f);
  const VkSampler repeating = make_sampler(*device, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, repeat, repeat, repeat, 0.0f);
  constexpr uint32_t kInvocations = 64;
  Buffer results = device->create_buffer(kInvocations * 5 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  VkDescriptorSetLayout layout;
  const auto combined = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  VkDescriptorSet set = make_set(*device, {{combined}, {combined}, {combined}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  const auto ro = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  write_images(*device, set, 0, combined, {{nearest, cubes.view, ro}});
  write_images(*device, set, 1, combined, {{mirrored, tex.view, ro}});
  write_images(*device, set, 2, combined, {{repeating, tex.view, ro}});
  write_buffers(device->handle(), set, 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  run(*device, "sample_features.comp", layout, set, kInvocations / 16);
  // ConstOffsets: Kiln only (the shader crashes lavapipe's compiler).
  Buffer gathers = device->create_buffer(kInvocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  if (is_kiln()) {
    VkDescriptorSetLayout gather_layout;
    VkDescriptorSet gather_set = make_set(*device, {{combined}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &gather_layout);
    write_images(*device, gather_set, 0, combined, {{repeating, tex.view, ro}});
    write_buffers(device->handle(), gather_set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{gathers.buffer, 0, VK_WHOLE_SIZE}});
    run(*device, "sample_gather_offsets.comp", gather_layout, gather_set, kInvocations / 16);
  }

  auto texel = [&](int64_t x, int64_t y) {  // REPEAT
    const uint8_t* p = tex_bytes.data() + (((y % 4) + 4) % 4 * 4 + ((x % 4) + 4) % 4) * 4;
    return Vec4{p[0] / 255.0, p[1] / 255.0, p[2] / 255.0, p[3] / 255.0};
  };
  auto mirror_clamp = [](int64_t i) { return std::min<int64_t>(i >= 0 ? i : -(1 + i), 3); };
  const double face_dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  const int32_t offsets[4][2] = {{0, 0}, {1, -1}, {-2, 3}, {5, 1}};
  const float* out = reinterpret_cast<const float*>(results.mapped);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    const float* r = out + i * 20;
    double s, t;
    const double* d = face_dirs[i % 6u];
    const uint32_t face = ref_cube_face(d[0] * 2 + 0.1, d[1] * 2 + 0.1, d[2] * 2 + 0.1, &s, &t);
    const uint32_t layer = ((i / 6u) % 2u) * 6 + face;
    const uint8_t* c = cube_bytes.data() + (layer * 4 + uint32_t(t * 2) * 2 + uint32_t(s * 2)) * 4;
    expect_near(r + 0, {c[0] / 255.0, c[1] / 255.0, c[2] / 255.0, c[3] / 255.0}, 1e-6, "samplerCubeArray");
    const float ms = float(i % 16u) * 0.37f - 3.0f, mt = float(i / 16u) * 0.61f - 1.3f;
    expect_near(r + 4, texel(mirror_clamp(int64_t(std::floor(ms * 4))), mirror_clamp(int64_t(std::floor(mt * 4)))), 1e-6,
                "MIRROR_CLAMP_TO_EDGE");
    const float u = float(i % 8u) * 0.173f - 0.31f, v = float(i / 8u) * 0.121f - 0.2f;
    const int64_t i0 = int64_t(std::floor(u * 4 - 0.5)), j0 = int64_t(std::floor(v * 4 - 0.5));
    Vec4 gathered;
    for (int k = 0; k < 4; ++k) gathered[k] = texel(i0 + offsets[k][0], j0 + offsets[k][1])[2];
    if (is_kiln()) expect_near(reinterpret_cast<const float*>(gathers.mapped) + i * 4, gathered, 1e-6, "textureGatherOffsets");
    const int64_t ox = int64_t(i % 3u) - 1, oy = int64_t(i % 5u) - 2;
    expect_near(r + 12, {texel(i0 + ox, j0 + oy + 1)[0], texel(i0 + ox + 1, j0 + oy + 1)[0], texel(i0 + ox + 1, j0 + oy)[0],
                         texel(i0 + ox, j0 + oy)[0]}, 1e-6, "textureGatherOffset (dynamic offset)");
    expect_near(r + 16, {2, 2, 2, 1}, 0, "cube array size and levels");
  }
}

// Every compressed format the driver samples: texelFetch of every texel and a linear sample per
// texel of a 2x2-block image of random blocks, against memory/compressed's decoders (the same
// decoders Kiln samples with; KILN_TEST_DRIVER=lavapipe checks them against Mesa's for BC and ETC2).
// Every compressed format the driver samples (on Kiln every BC, ETC2, EAC and ASTC LDR format), in
// images of 2x2 blocks and, with `depth` > 1, 3D images of `depth` such slices: texelFetch of every
// texel against the block decoder, and a linear sample a quarter texel right and down (and, in 3D,
// towards the next slice) of its centre against the weighted texels.
void ComputeSamplingTest::check_compressed_sampling(TestDevice& device, VkSampler linear, uint32_t depth) {
  const bool volume = depth > 1;
  // Kiln samples with these very decoders: exact. Mesa decodes BC through 8-bit intermediates and
  // differs by up to 2.4/255 on UNORM and 1.4/127 on SNORM (measured), so other drivers get 0.015.
  const float fetch_tolerance = is_kiln() ? 1e-6f : 0.015f;
  int tested = 0;
  for (const fmt::FormatInfo* info = fmt::format_table_begin(); info != fmt::format_table_end(); ++info) {
    if (!info->is_compressed()) continue;
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(physical_device(), info->format, &props);
    const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    const std::string family = info->compression;
    const bool required = family == "BC" || family == "ETC2" || family == "EAC" || family == "ASTC LDR";
    VkImageFormatProperties image_props;
    const bool supported =
        (props.optimalTilingFeatures & need) == need &&
        vkGetPhysicalDeviceImageFormatProperties(physical_device(), info->format, volume ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D,
                                                 VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                 0, &image_props) == VK_SUCCESS;
    if (!supported) {
      if (is_kiln() && required) ADD_FAILURE() << info->name << " cannot be sampled" << (volume ? " in 3D images" : "");
      continue;
    }
    SCOPED_TRACE(info->name);
    const uint32_t bw = info->block_width, bh = info->block_height, w = 2 * bw, h = 2 * bh;
    const uint32_t blocks_per_slice = 4;
    const auto blocks = random_bytes(blocks_per_slice * depth * info->block_bytes, info->format + depth);
    const SampledImage image =
        make_sampled_image(device, volume ? VK_IMAGE_VIEW_TYPE_3D : VK_IMAGE_VIEW_TYPE_2D, info->format, {w, h, depth}, 1, {blocks});
    Buffer results = device.create_buffer(w * h * depth * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
    VkDescriptorSetLayout layout;
    VkDescriptorSet set = make_set(device, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
    write_images(device, set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {{linear, image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}});
    write_buffers(device.handle(), set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
    run(device, volume ? "sample_compressed_3d.comp" : "sample_compressed.comp", layout, set, (w * h * depth + 15) / 16);
    // Reference texels: each block decoded (slices of 2x2 blocks, blocks row-major in a slice).
    std::vector<std::array<float, 4>> texels(w * h * depth);
    for (uint32_t b = 0; b < blocks_per_slice * depth; ++b) {
      float decoded[fmt::kMaxBlockTexels][4];
      ASSERT_TRUE(fmt::decode_block(info->format, blocks.data() + b * info->block_bytes, decoded));
      const uint32_t z = b / blocks_per_slice, in_slice = b % blocks_per_slice;
      for (uint32_t y = 0; y < bh; ++y)
        for (uint32_t x = 0; x < bw; ++x)
          std::memcpy(texels[(z * h + (in_slice / 2) * bh + y) * w + (in_slice % 2) * bw + x].data(), decoded[y * bw + x], 16);
    }
    auto at = [&](uint32_t x, uint32_t y, uint32_t z) {
      return texels[(std::min(z, depth - 1) * h + std::min(y, h - 1)) * w + std::min(x, w - 1)];
    };
    const float* out = reinterpret_cast<const float*>(results.mapped);
    for (uint32_t z = 0; z < depth; ++z)
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
          const float* fetched = out + ((z * h + y) * w + x) * 8;
          const float* filtered = fetched + 4;
          for (int c = 0; c < 4; ++c) {
            const float want = at(x, y, z)[c];
            if (!std::isfinite(want)) continue;  // BC6H: random blocks may hold infinities
            EXPECT_NEAR(fetched[c], want, fetch_tolerance * std::max(1.0f, std::fabs(want)))
                << "fetch " << x << "," << y << "," << z << " c" << c;
            auto bilinear = [&](uint32_t slice) {
              return 0.5625 * at(x, y, slice)[c] + 0.1875 * at(x + 1, y, slice)[c] + 0.1875 * at(x, y + 1, slice)[c] +
                     0.0625 * at(x + 1, y + 1, slice)[c];
            };
            const double linear_want = volume ? 0.75 * bilinear(z) + 0.25 * bilinear(z + 1) : bilinear(z);
            if (std::isfinite(linear_want))
              EXPECT_NEAR(filtered[c], linear_want, 0.015 * std::max(1.0, std::fabs(linear_want)))
                  << "linear " << x << "," << y << "," << z << " c" << c;
          }
        }
    ++tested;
  }
  if (is_kiln()) EXPECT_GT(tested, 40);
}

TEST_F(ComputeSamplingTest, CompressedFormatsDecodeWhenSampled) {
  const DeviceFeatures& f = features();
  if (is_kiln()) {  // other drivers: whichever compressed formats they sample
    EXPECT_TRUE(f.core.features.textureCompressionBC);
    EXPECT_TRUE(f.core.features.textureCompressionETC2);
    EXPECT_TRUE(f.core.features.textureCompressionASTC_LDR);
  }
  TestDevice& device = this->device();
  const auto clamp = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  check_compressed_sampling(device, make_sampler(device, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, clamp, clamp, clamp, 0.0f), 1);
}

// 3D images of compressed formats: slices of blocks (the formats' blocks are one texel deep).
TEST_F(ComputeSamplingTest, CompressedFormatsIn3DImages) {
  TestDevice& device = this->device();
  const auto clamp = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  check_compressed_sampling(device, make_sampler(device, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, clamp, clamp, clamp, 0.0f), 3);
}

// samplerFilterMinmax: MIN and MAX reduction of linear footprints across two mip levels.
TEST_F(ComputeSamplingTest, MinMaxReductionSamplers) {
  REQUIRE_ON_KILN(features().v12.samplerFilterMinmax, "samplerFilterMinmax");
  enabled_.v12.samplerFilterMinmax = VK_TRUE;
  TestDevice* device = create_device(enabled_);
  ASSERT_NE(device, nullptr);
  const std::vector<std::vector<uint8_t>> levels = {random_bytes(4 * 4 * 4, 41), random_bytes(2 * 2 * 4, 42)};
  const SampledImage image = make_sampled_image(*device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 1, levels);
  VkSampler samplers[2];
  const VkSamplerReductionMode modes[2] = {VK_SAMPLER_REDUCTION_MODE_MIN, VK_SAMPLER_REDUCTION_MODE_MAX};
  for (int k = 0; k < 2; ++k) {
    VkSamplerReductionModeCreateInfo reduction{.sType = VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO};
    reduction.reductionMode = modes[k];
    VkSamplerCreateInfo info{.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, .pNext = &reduction};
    info.magFilter = info.minFilter = VK_FILTER_LINEAR;
    info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.maxLod = 1.0f;
    ASSERT_EQ(VK_SUCCESS, vkCreateSampler(device->handle(), &info, nullptr, &samplers[k]));
    VkDevice d = device->handle();
    VkSampler sampler = samplers[k];
    device->defer_destroy([d, sampler] { vkDestroySampler(d, sampler, nullptr); });
  }
  constexpr uint32_t kInvocations = 64;
  Buffer results = device->create_buffer(kInvocations * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  VkDescriptorSetLayout layout;
  const auto combined = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  VkDescriptorSet set = make_set(*device, {{combined}, {combined}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  for (uint32_t k = 0; k < 2; ++k)
    write_images(*device, set, k, combined, {{samplers[k], image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}});
  write_buffers(device->handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  run(*device, "sample_minmax.comp", layout, set, kInvocations / 16);

  auto texel = [&](uint32_t level, int64_t i, int64_t j) {  // CLAMP_TO_EDGE
    const int64_t n = 4 >> level;
    const uint8_t* p = levels[level].data() + (std::clamp<int64_t>(j, 0, n - 1) * n + std::clamp<int64_t>(i, 0, n - 1)) * 4;
    return Vec4{p[0] / 255.0, p[1] / 255.0, p[2] / 255.0, p[3] / 255.0};
  };
  const float* out = reinterpret_cast<const float*>(results.mapped);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    const float s = float(i % 8u) * 0.13f + 0.02f, t = float(i / 8u) * 0.11f + 0.03f;
    const float lod = float(i % 3u) * 0.4f;
    // Texels with non-zero weight: the bilinear footprint of level 0, and of level 1 when λ > 0.
    std::vector<Vec4> footprint;
    for (uint32_t level = 0; level < (lod > 0 ? 2u : 1u); ++level) {
      const double u = s * (4 >> level) - 0.5, v = t * (4 >> level) - 0.5;
      const int64_t i0 = int64_t(std::floor(u)), j0 = int64_t(std::floor(v));
      const bool two_i = u != std::floor(u), two_j = v != std::floor(v);
      for (int64_t dj = 0; dj <= (two_j ? 1 : 0); ++dj)
        for (int64_t di = 0; di <= (two_i ? 1 : 0); ++di) footprint.push_back(texel(level, i0 + di, j0 + dj));
    }
    Vec4 lo = footprint[0], hi = footprint[0];
    for (const Vec4& f : footprint)
      for (int c = 0; c < 4; ++c) {
        lo[c] = std::min(lo[c], f[c]);
        hi[c] = std::max(hi[c], f[c]);
      }
    expect_near(out + i * 8, lo, 1e-6, "MIN");
    expect_near(out + i * 8 + 4, hi, 1e-6, "MAX");
  }
}

// VK_EXT_custom_border_color: CLAMP_TO_BORDER texels take the sampler's custom colour (float, with a
// format; integer, without one).
TEST_F(ComputeSamplingTest, CustomBorderColors) {
  const bool has = device_has_extension(physical_device(), VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
  REQUIRE_ON_KILN(has, VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
  VkPhysicalDeviceCustomBorderColorFeaturesEXT custom{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
  custom.customBorderColors = VK_TRUE;
  custom.customBorderColorWithoutFormat = VK_TRUE;
  enabled_.v13.pNext = &custom;
  TestDevice* device = create_device(enabled_, {VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME});
  ASSERT_NE(device, nullptr);
  const auto float_bytes = random_bytes(4 * 4 * 4, 51), uint_bytes = random_bytes(4 * 4 * 4, 52);
  const SampledImage float_image = make_sampled_image(*device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 1, {float_bytes});
  const SampledImage uint_image = make_sampled_image(*device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UINT, {4, 4, 1}, 1, {uint_bytes});
  VkSampler samplers[2];
  for (int k = 0; k < 2; ++k) {
    VkSamplerCustomBorderColorCreateInfoEXT border{.sType = VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
    if (k == 0) {
      border.customBorderColor.float32[0] = 0.25f;
      border.customBorderColor.float32[1] = 0.5f;
      border.customBorderColor.float32[2] = 0.75f;
      border.customBorderColor.float32[3] = 1.0f;
      border.format = VK_FORMAT_R8G8B8A8_UNORM;
    } else {
      for (uint32_t c = 0; c < 4; ++c) border.customBorderColor.uint32[c] = 7 + c;
      border.format = VK_FORMAT_UNDEFINED;
    }
    VkSamplerCreateInfo info{.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, .pNext = &border};
    info.magFilter = info.minFilter = VK_FILTER_NEAREST;
    info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    info.borderColor = k == 0 ? VK_BORDER_COLOR_FLOAT_CUSTOM_EXT : VK_BORDER_COLOR_INT_CUSTOM_EXT;
    ASSERT_EQ(VK_SUCCESS, vkCreateSampler(device->handle(), &info, nullptr, &samplers[k]));
    VkDevice d = device->handle();
    VkSampler sampler = samplers[k];
    device->defer_destroy([d, sampler] { vkDestroySampler(d, sampler, nullptr); });
  }
  constexpr uint32_t kInvocations = 64;
  Buffer results = device->create_buffer(kInvocations * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  VkDescriptorSetLayout layout;
  const auto combined = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  VkDescriptorSet set = make_set(*device, {{combined}, {combined}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  write_images(*device, set, 0, combined, {{samplers[0], float_image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}});
  write_images(*device, set, 1, combined, {{samplers[1], uint_image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}});
  write_buffers(device->handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  run(*device, "sample_border.comp", layout, set, kInvocations / 16);
  const float* out = reinterpret_cast<const float*>(results.mapped);
  int borders = 0;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    const float u = (float(i % 8u) * 0.3f - 0.6f) * 4, v = (float(i / 8u) * 0.3f - 0.6f) * 4;
    const int64_t x = int64_t(std::floor(u)), y = int64_t(std::floor(v));
    if (x < 0 || y < 0 || x > 3 || y > 3) {
      expect_near(out + i * 8, {0.25, 0.5, 0.75, 1.0}, 1e-6, "float border");
      expect_near(out + i * 8 + 4, {7, 8, 9, 10}, 0, "uint border");
      ++borders;
      continue;
    }
    const uint8_t* f = float_bytes.data() + (y * 4 + x) * 4;
    const uint8_t* n = uint_bytes.data() + (y * 4 + x) * 4;
    expect_near(out + i * 8, {f[0] / 255.0, f[1] / 255.0, f[2] / 255.0, f[3] / 255.0}, 1e-6, "float texel");
    expect_near(out + i * 8 + 4, {double(n[0]), double(n[1]), double(n[2]), double(n[3])}, 0, "uint texel");
  }
  EXPECT_GT(borders, 10);
}

}  // namespace
}  // namespace kiln::test

namespace kiln::test {
namespace {

// ----- samplerAnisotropy: textureGrad through an anisotropic and an isotropic sampler -----------
// The texture (64x64, 7 levels, a box-filtered mip chain) has detail along both axes: red varies
// with s (period 8 texels), green with t (period 8), blue slowly with both. Footprints are
// ellipses of random orientation with axis ratios up to 24. The reference follows the spec's
// equations with Kiln's choice of N (memory/sampling.h anisotropic_footprint): eta =
// min(rho_max / rho_min, maxAnisotropy), N = ceil(eta) probes along the major axis at
// P + (i / (N + 1) - 1/2) dP, lambda = log2(rho_max / eta), trilinear probes averaged.
// Kiln must match it within 0.015 (filtering precision). Anisotropic filtering is
// implementation-dependent, so on other drivers only the isotropic results are checked (which
// validates the reference's texture, coordinates and gradients): lavapipe (Mesa 22.3) answers
// anisotropic textureGrad in compute with its coarsest level (0.502 for every channel here).
constexpr uint32_t kAnisoSize = 64, kAnisoLevels = 7;
constexpr float kMaxAnisotropy = 16.0f;

struct AnisoTexture {
  std::vector<std::vector<uint8_t>> levels;
  AnisoTexture() {
    std::vector<double> base(kAnisoSize * kAnisoSize * 4);
    for (uint32_t y = 0; y < kAnisoSize; ++y)
      for (uint32_t x = 0; x < kAnisoSize; ++x) {
        double* p = &base[(y * kAnisoSize + x) * 4];
        p[0] = 0.5 + 0.5 * std::sin(2 * M_PI * (x + 0.5) / 8);
        p[1] = 0.5 + 0.5 * std::sin(2 * M_PI * (y + 0.5) / 8);
        p[2] = 0.5 + 0.25 * std::sin(2 * M_PI * (x + 0.5) / 64) + 0.25 * std::cos(2 * M_PI * (y + 0.5) / 64);
        p[3] = 1.0;
      }
    std::vector<double> level = base;
    for (uint32_t l = 0, n = kAnisoSize; l < kAnisoLevels; ++l, n /= 2) {
      std::vector<uint8_t> bytes(level.size());
      for (size_t k = 0; k < level.size(); ++k) bytes[k] = uint8_t(std::lround(std::clamp(level[k], 0.0, 1.0) * 255));
      levels.push_back(bytes);
      if (n == 1) break;
      std::vector<double> next((n / 2) * (n / 2) * 4);
      for (uint32_t y = 0; y < n / 2; ++y)
        for (uint32_t x = 0; x < n / 2; ++x)
          for (int c = 0; c < 4; ++c) {
            double sum = 0;
            for (uint32_t k = 0; k < 4; ++k) sum += level[((2 * y + k / 2) * n + 2 * x + k % 2) * 4 + c];
            next[(y * (n / 2) + x) * 4 + c] = sum / 4;
          }
      level = std::move(next);
    }
  }
  // REPEAT in both directions, bilinear.
  Vec4 bilinear(uint32_t level, double s, double t) const {
    const int64_t n = kAnisoSize >> level;
    const double u = s * n - 0.5, v = t * n - 0.5;
    const int64_t i0 = int64_t(std::floor(u)), j0 = int64_t(std::floor(v));
    const double a = u - std::floor(u), b = v - std::floor(v);
    Vec4 out{};
    for (int k = 0; k < 4; ++k) {
      const int64_t i = (((i0 + k % 2) % n) + n) % n, j = (((j0 + k / 2) % n) + n) % n;
      const double w = (k % 2 ? a : 1 - a) * (k / 2 ? b : 1 - b);
      for (int c = 0; c < 4; ++c) out[c] += w * levels[level][(j * n + i) * 4 + c] / 255.0;
    }
    return out;
  }
  Vec4 trilinear(double s, double t, double lambda) const {
    const double d = std::clamp(lambda, 0.0, double(kAnisoLevels - 1));
    const uint32_t hi = uint32_t(std::floor(d)), lo = std::min(hi + 1, kAnisoLevels - 1);
    const double delta = d - hi;
    const Vec4 a = bilinear(hi, s, t), b = bilinear(lo, s, t);
    Vec4 out;
    for (int c = 0; c < 4; ++c) out[c] = (1 - delta) * a[c] + delta * b[c];
    return out;
  }
  // textureGrad with gradients (normalized) g = (ds/dx, dt/dx, ds/dy, dt/dy).
  Vec4 sample(double s, double t, const float g[4], float max_anisotropy) const {
    const double rx = std::hypot(g[0] * kAnisoSize, g[1] * kAnisoSize), ry = std::hypot(g[2] * kAnisoSize, g[3] * kAnisoSize);
    const double rmax = std::max(rx, ry), rmin = std::min(rx, ry);
    const double eta = max_anisotropy <= 1 ? 1.0 : rmin > 0 ? std::min(rmax / rmin, double(max_anisotropy)) : max_anisotropy;
    const uint32_t probes = uint32_t(std::ceil(eta - 1e-6));
    const double lambda = std::log2(rmax / eta);
    const float* major = rx > ry ? g : g + 2;
    Vec4 out{};
    for (uint32_t i = 1; i <= probes; ++i) {
      const double along = double(i) / (probes + 1) - 0.5;
      const Vec4 p = trilinear(s + along * major[0], t + along * major[1], lambda);
      for (int c = 0; c < 4; ++c) out[c] += p[c] / probes;
    }
    return out;
  }
};

TEST_F(ComputeSamplingTest, AnisotropicFilteringWithGradients) {
  REQUIRE_ON_KILN(features().core.features.samplerAnisotropy, "samplerAnisotropy");
  if (is_kiln()) EXPECT_GE(properties().limits.maxSamplerAnisotropy, 16.0f);
  enabled_.core.features.samplerAnisotropy = VK_TRUE;
  TestDevice* device = create_device(enabled_);
  ASSERT_NE(device, nullptr);
  const AnisoTexture texture;
  const SampledImage image =
      make_sampled_image(*device, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kAnisoSize, kAnisoSize, 1}, 1, texture.levels);
  VkSampler samplers[2];
  for (int k = 0; k < 2; ++k) {
    VkSamplerCreateInfo info{.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    info.magFilter = info.minFilter = VK_FILTER_LINEAR;
    info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    info.maxLod = VK_LOD_CLAMP_NONE;
    info.anisotropyEnable = k == 0;
    info.maxAnisotropy = k == 0 ? kMaxAnisotropy : 1.0f;
    ASSERT_EQ(VK_SUCCESS, vkCreateSampler(device->handle(), &info, nullptr, &samplers[k]));
    VkDevice d = device->handle();
    VkSampler sampler = samplers[k];
    device->defer_destroy([d, sampler] { vkDestroySampler(d, sampler, nullptr); });
  }
  constexpr uint32_t kInvocations = 128;
  Buffer inputs = device->create_buffer(kInvocations * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0);
  Buffer results = device->create_buffer(kInvocations * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  // Footprints: major axis 1..32 texels at a random angle, axis ratio 1..24 (the first 16 are
  // axis-aligned with ratio 8, where the probes and any anisotropic filter agree best).
  std::mt19937 rng(123);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  float* in = reinterpret_cast<float*>(inputs.mapped);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const float angle = i < 16 ? (i % 2 ? 0.0f : float(M_PI / 2)) : unit(rng) * float(M_PI);
    const float major = i < 16 ? 8.0f : 1.0f + 31.0f * unit(rng) * unit(rng);
    const float ratio = i < 16 ? 8.0f : 1.0f + 23.0f * unit(rng);
    const float minor = major / ratio;
    const float ca = std::cos(angle), sa = std::sin(angle);
    float* p = in + i * 8;
    p[0] = unit(rng);
    p[1] = unit(rng);
    p[2] = p[3] = 0;
    const bool x_major = i % 3 != 0;
    const float mx = major * ca / kAnisoSize, my = major * sa / kAnisoSize;
    const float nx = -minor * sa / kAnisoSize, ny = minor * ca / kAnisoSize;
    p[4] = x_major ? mx : nx;
    p[5] = x_major ? my : ny;
    p[6] = x_major ? nx : mx;
    p[7] = x_major ? ny : my;
  }
  VkDescriptorSetLayout layout;
  const auto combined = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  VkDescriptorSet set = make_set(*device, {{combined}, {combined}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                           {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  for (uint32_t k = 0; k < 2; ++k)
    write_images(*device, set, k, combined, {{samplers[k], image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}});
  write_buffers(device->handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{inputs.buffer, 0, VK_WHOLE_SIZE}});
  write_buffers(device->handle(), set, 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  run(*device, "sample_aniso.comp", layout, set, kInvocations / 16);

  constexpr double kTolerance = 0.015;
  const float* out = reinterpret_cast<const float*>(results.mapped);
  uint32_t distinct = 0;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    const float* p = in + i * 8;
    const Vec4 aniso = texture.sample(p[0], p[1], p + 4, kMaxAnisotropy);
    const Vec4 iso = texture.sample(p[0], p[1], p + 4, 1.0f);
    if (is_kiln()) expect_near(out + i * 8, aniso, kTolerance, "anisotropic");
    expect_near(out + i * 8 + 4, iso, kTolerance, "isotropic");
    double gap = 0;
    for (int c = 0; c < 3; ++c) gap = std::max(gap, std::fabs(aniso[c] - iso[c]));
    if (gap > 3 * kTolerance) ++distinct;
  }
  // The test can tell anisotropic from isotropic filtering on many footprints.
  EXPECT_GT(distinct, kInvocations / 4);
}

}  // namespace
}  // namespace kiln::test
