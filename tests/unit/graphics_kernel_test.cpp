// Vertex and fragment kernels called directly with hand-built invocations (common/abi/kernel_abi.h,
// graphics section), at every SIMD width, against values computed here on the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "compiler/graphics_compiler.h"
#include "compiler/vertex_formats.h"
#include "shaders/test_shaders.h"

namespace kiln::compiler {
namespace {

using abi::FragmentInvocation;
using abi::VertexInvocation;

// Set 0 binding 0 is the only binding the test shaders use: one record at offset 0.
BindingResolver binding0() {
  return [](uint32_t set, uint32_t binding) -> std::optional<BindingLocation> {
    if (set == 0 && binding == 0) return BindingLocation{};
    return std::nullopt;
  };
}

struct Shader {
  std::vector<uint32_t> words;
  ShaderSource source;
  Shader(const char* name, ShaderStage stage) : words(kiln_test_shader(name)) {
    source.words = words;
    source.entry_point = "main";
    source.stage = stage;
  }
};

// A resource context whose set 0 holds one buffer descriptor for `buffer`.
struct Resources {
  abi::ResourceContext context{};
  alignas(16) uint8_t set0[abi::kDescriptorRecordSize]{};
  explicit Resources(const void* buffer = nullptr, uint64_t range = 0) {
    abi::BufferDescriptor d{reinterpret_cast<uint64_t>(buffer), range, {0, 0}};
    std::memcpy(set0, &d, sizeof d);
    context.descriptor_sets[0] = set0;
  }
};

float bits_float(uint32_t v) {
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}
uint32_t float_bits(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Vertex kernels
// ---------------------------------------------------------------------------------------------

constexpr uint32_t kVertices = 8, kStride0 = 40;

VertexInputKey fetch_input_key() {
  VertexInputKey key;
  auto attr = [&](uint32_t location, uint32_t binding, VkFormat format, uint32_t offset) {
    key.attributes.push_back({location, binding, static_cast<uint32_t>(format), offset});
  };
  attr(0, 0, VK_FORMAT_R8G8B8A8_UNORM, 0);
  attr(1, 0, VK_FORMAT_R16G16_SNORM, 4);
  attr(2, 0, VK_FORMAT_R8G8_SINT, 8);
  attr(3, 0, VK_FORMAT_R32G32B32_SFLOAT, 12);
  attr(4, 0, VK_FORMAT_A2B10G10R10_UNORM_PACK32, 24);
  attr(5, 0, VK_FORMAT_B8G8R8A8_UNORM, 28);
  attr(6, 0, VK_FORMAT_R16G16_SFLOAT, 32);
  attr(7, 1, VK_FORMAT_R32_UINT, 0);
  attr(8, 0, VK_FORMAT_R8G8B8A8_SSCALED, 36);
  attr(9, 2, VK_FORMAT_R32G32B32A32_SFLOAT, 0);
  key.bindings = {{0, false, 1}, {1, true, 2}, {2, false, 1}};
  return key;
}

struct VertexData {
  std::vector<uint8_t> b0 = std::vector<uint8_t>(kVertices * kStride0);
  std::vector<uint32_t> b1;  // per-instance
  std::vector<float> b2;     // robust: 3.5 elements
  VertexData() {
    for (uint32_t v = 0; v < kVertices; ++v) {
      uint8_t* e = &b0[v * kStride0];
      for (uint32_t j = 0; j < kStride0; ++j) e[j] = static_cast<uint8_t>(v * 53 + j * 29 + 7);
      const float f3[3] = {v + 0.25f, -float(v), 3.5f * v};
      std::memcpy(e + 12, f3, 12);
      const _Float16 h[2] = {static_cast<_Float16>(v + 0.5f), static_cast<_Float16>(-2.0f * v - 0.75f)};
      std::memcpy(e + 32, h, 4);
    }
    for (uint32_t i = 0; i < 8; ++i) b1.push_back(100 + i);
    for (uint32_t i = 0; i < 14; ++i) b2.push_back(10.0f * (i / 4) + i % 4);
  }
};

// The values the shader's Location outputs must hold for vertex `v` (as raw bits), computed with
// the Vulkan conversion rules.
std::array<uint32_t, 4> expected_location(const VertexData& d, uint32_t location, uint32_t v) {
  const uint8_t* e = &d.b0[v * kStride0];
  auto f = [](float x) { return float_bits(x); };
  auto unorm8 = [](uint8_t x) { return float(x) / 255.0f; };
  switch (location) {
    case 0: return {f(unorm8(e[0])), f(unorm8(e[1])), f(unorm8(e[2])), f(unorm8(e[3]))};
    case 1: {
      int16_t s[2];
      std::memcpy(s, e + 4, 4);
      return {f(std::max(s[0] / 32767.0f, -1.0f)), f(std::max(s[1] / 32767.0f, -1.0f)), f(0), f(1)};
    }
    case 2: return {uint32_t(int32_t(int8_t(e[8]))), uint32_t(int32_t(int8_t(e[9]))), 0, 1};
    case 3: {
      float x[3];
      std::memcpy(x, e + 12, 12);
      return {f(x[0]), f(x[1]), f(x[2]), f(1)};
    }
    case 4: {
      uint32_t p;
      std::memcpy(&p, e + 24, 4);
      return {f((p & 1023) / 1023.0f), f(((p >> 10) & 1023) / 1023.0f), f(((p >> 20) & 1023) / 1023.0f), f((p >> 30) / 3.0f)};
    }
    case 5: return {f(unorm8(e[30])), f(unorm8(e[29])), f(unorm8(e[28])), f(unorm8(e[31]))};
    case 6: {
      _Float16 h[2];
      std::memcpy(h, e + 32, 4);
      return {f(float(h[0])), f(float(h[1])), f(0), f(1)};
    }
    case 7: return {103, 0, 0, 1};  // instance 5, base instance 1, divisor 2: element 1 + 4 / 2
    case 8: return {f(int8_t(e[36])), f(int8_t(e[37])), f(int8_t(e[38])), f(int8_t(e[39]))};
    case 9:
      if (v < 3) return {f(d.b2[v * 4]), f(d.b2[v * 4 + 1]), f(d.b2[v * 4 + 2]), f(d.b2[v * 4 + 3])};
      // The element extends past the buffer's size: the format's zero, four components of it
      // (robustBufferAccess2; a format with three would read (0, 0, 0, 1)).
      return {f(0), f(0), f(0), f(0)};
    default: return {};
  }
}

class VertexKernel : public ::testing::TestWithParam<uint32_t> {};

TEST_P(VertexKernel, FetchesAttributesAndWritesOutputsInLayoutOrder) {
  const uint32_t W = GetParam();
  Shader shader("gfx_fetch.vert", ShaderStage::Vertex);
  ASSERT_FALSE(shader.words.empty());
  const VertexInputKey key = fetch_input_key();
  std::string error;
  auto kernel = compile_vertex_kernel(shader.source, W, key, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  EXPECT_EQ(kernel->simd_width, W);

  const abi::VertexOutputLayout& layout = kernel->outputs;
  for (uint32_t l = 0; l <= 14; ++l) EXPECT_EQ(layout.location_slot[l], int32_t(l + 1)) << l;
  EXPECT_EQ(layout.location_slot[15], -1);
  EXPECT_EQ(layout.point_size_slot, 16);
  EXPECT_EQ(layout.clip_distance_slot, 17);
  EXPECT_EQ(layout.clip_distance_count, 2u);
  EXPECT_EQ(layout.cull_distance_slot, -1);
  EXPECT_EQ(layout.layer_slot, -1);
  EXPECT_EQ(layout.slot_count, 18u);

  VertexData data;
  abi::VertexBufferRecord buffers[abi::kMaxVertexBindings]{};
  buffers[0] = {data.b0.data(), data.b0.size(), kStride0, 0};
  buffers[1] = {reinterpret_cast<const uint8_t*>(data.b1.data()), data.b1.size() * 4, 4, 0};
  buffers[2] = {reinterpret_cast<const uint8_t*>(data.b2.data()), 3 * 16 + 8, 16, 0};
  const float ubo[4] = {0.5f, -1.0f, 0.25f, 0.0f};
  Resources resources(ubo, sizeof ubo);
  const float scale = 2.0f;
  std::memcpy(resources.context.push_constants, &scale, 4);

  std::vector<int32_t> indices(W);
  for (uint32_t i = 0; i < W; ++i) indices[i] = int32_t((i * 5 + 1) % kVertices);
  std::vector<uint32_t> out(layout.slot_count * 4 * W, 0xDEADBEEFu);
  uint32_t faults = 0;
  VertexInvocation inv{};
  inv.resources = &resources.context;
  inv.vertex_buffers = buffers;
  inv.faults = &faults;
  inv.vertex_index = indices.data();
  inv.lane_count = W - 1;  // the last lane is inactive
  inv.instance_index = 5;
  inv.base_vertex = -3;
  inv.base_instance = 1;
  inv.draw_index = 7;
  inv.view_index = 1;
  inv.outputs = out.data();
  kernel->function(&inv);

  auto at = [&](int32_t slot, uint32_t c, uint32_t lane) { return out[(uint32_t(slot) * 4 + c) * W + lane]; };
  for (uint32_t lane = 0; lane < W - 1; ++lane) {
    const uint32_t v = uint32_t(indices[lane]);
    for (uint32_t l = 0; l <= 9; ++l) {
      const auto want = expected_location(data, l, v);
      for (uint32_t c = 0; c < 4; ++c)
        EXPECT_EQ(at(layout.location_slot[l], c, lane), want[c]) << "W " << W << " lane " << lane << " location " << l << " c " << c;
    }
    const std::array<uint32_t, 4> ids = {v, 5, uint32_t(-3), 1};
    const std::array<uint32_t, 4> draw = {7, 1, 77, 0};
    const std::array<uint32_t, 4> column0 = {float_bits(1), float_bits(2), 0, 0}, column1 = {float_bits(3), float_bits(4), 0, 0};
    const std::array<uint32_t, 4> subgroup = {W, W - 1, 0, 0};
    for (uint32_t c = 0; c < 4; ++c) {
      EXPECT_EQ(at(layout.location_slot[10], c, lane), ids[c]) << lane;
      EXPECT_EQ(at(layout.location_slot[11], c, lane), draw[c]) << lane;
      EXPECT_EQ(at(layout.location_slot[12], c, lane), column0[c]) << lane;
      EXPECT_EQ(at(layout.location_slot[13], c, lane), column1[c]) << lane;
      EXPECT_EQ(at(layout.location_slot[14], c, lane), subgroup[c]) << lane;
    }
    float f3[3];
    std::memcpy(f3, &data.b0[v * kStride0 + 12], 12);
    EXPECT_EQ(bits_float(at(0, 0, lane)), f3[0] * 2.0f + 0.5f);
    EXPECT_EQ(bits_float(at(0, 1, lane)), f3[1] * 2.0f - 1.0f);
    EXPECT_EQ(bits_float(at(0, 2, lane)), f3[2] * 2.0f + 0.25f);
    EXPECT_EQ(bits_float(at(0, 3, lane)), 1.0f);
    EXPECT_EQ(bits_float(at(layout.point_size_slot, 0, lane)), 3.0f);
    EXPECT_EQ(bits_float(at(layout.clip_distance_slot, 0, lane)), 0.5f);
    EXPECT_EQ(bits_float(at(layout.clip_distance_slot, 1, lane)), float(v) - 1.5f);
    EXPECT_EQ(at(layout.clip_distance_slot, 2, lane), 0u);  // components no output covers are zero
  }
  EXPECT_EQ(faults, 0u);
}

TEST_P(VertexKernel, UnboundBufferAndNegativeIndexReadDefaults) {
  const uint32_t W = GetParam();
  Shader shader("gfx_fetch.vert", ShaderStage::Vertex);
  std::string error;
  auto kernel = compile_vertex_kernel(shader.source, W, fetch_input_key(), binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  VertexData data;
  abi::VertexBufferRecord buffers[abi::kMaxVertexBindings]{};
  buffers[0] = {data.b0.data(), data.b0.size(), kStride0, 0};  // bindings 1 and 2 unbound
  const float ubo[4] = {};
  Resources resources(ubo, sizeof ubo);
  std::vector<int32_t> indices(W, -1);  // VertexIndex -1 (vertexOffset): out of range
  indices[0] = 2;
  std::vector<uint32_t> out(kernel->outputs.slot_count * 4 * W);
  uint32_t faults = 0;
  VertexInvocation inv{};
  inv.resources = &resources.context;
  inv.vertex_buffers = buffers;
  inv.faults = &faults;
  inv.vertex_index = indices.data();
  inv.lane_count = W;
  inv.outputs = out.data();
  kernel->function(&inv);
  auto at = [&](uint32_t location, uint32_t c, uint32_t lane) {
    return out[(uint32_t(kernel->outputs.location_slot[location]) * 4 + c) * W + lane];
  };
  const auto lane0 = expected_location(data, 0, 2);
  for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(at(0, c, 0), lane0[c]);
  for (uint32_t lane = 1; lane < W; ++lane) {
    EXPECT_EQ(at(0, 0, lane), 0u);
    EXPECT_EQ(at(0, 3, lane), 0u) << "RGBA8: the format's zero, alpha included";
    EXPECT_EQ(at(2, 3, lane), 1u) << "two-component integer formats default alpha to 1";
  }
  for (uint32_t lane = 0; lane < W; ++lane) {
    EXPECT_EQ(at(7, 0, lane), 0u);
    EXPECT_EQ(at(7, 3, lane), 1u);
    EXPECT_EQ(at(9, 3, lane), 0u);  // four components: the format's zero
    EXPECT_EQ(at(3, 3, lane), float_bits(1.0f)) << "three-component float formats default alpha to 1.0";
  }
}

TEST_P(VertexKernel, PlainBuiltinVariablesAndComponentArrays) {
  const uint32_t W = GetParam();
  Shader shader("gfx_plain_builtins.vert.spvasm", ShaderStage::Vertex);
  ASSERT_FALSE(shader.words.empty());
  std::string error;
  auto kernel = compile_vertex_kernel(shader.source, W, VertexInputKey{}, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  const abi::VertexOutputLayout& layout = kernel->outputs;
  EXPECT_EQ(layout.location_slot[2], 1);
  EXPECT_EQ(layout.location_slot[3], 2);
  EXPECT_EQ(layout.point_size_slot, 3);
  EXPECT_EQ(layout.slot_count, 4u);
  Resources resources;
  std::vector<int32_t> indices(W);
  for (uint32_t i = 0; i < W; ++i) indices[i] = int32_t(i * 3) - 4;
  std::vector<uint32_t> out(layout.slot_count * 4 * W, 0xDEADBEEFu);
  uint32_t faults = 0;
  VertexInvocation inv{};
  inv.resources = &resources.context;
  abi::VertexBufferRecord buffers[abi::kMaxVertexBindings]{};
  inv.vertex_buffers = buffers;
  inv.faults = &faults;
  inv.vertex_index = indices.data();
  inv.lane_count = W;
  inv.outputs = out.data();
  kernel->function(&inv);
  auto at = [&](uint32_t slot, uint32_t c, uint32_t lane) { return bits_float(out[(slot * 4 + c) * W + lane]); };
  for (uint32_t lane = 0; lane < W; ++lane) {
    const float v = float(indices[lane]);
    EXPECT_EQ(at(0, 0, lane), v);
    EXPECT_EQ(at(0, 1, lane), 1.0f);
    EXPECT_EQ(at(0, 2, lane), 2.0f);
    EXPECT_EQ(at(0, 3, lane), 1.0f);
    EXPECT_EQ(at(3, 0, lane), v) << "PointSize";
    EXPECT_EQ(at(1, 1, lane), v) << "arr[0] at Location 2 component 1";
    EXPECT_EQ(at(2, 1, lane), 7.0f) << "arr[1] at Location 3 component 1";
    EXPECT_EQ(out[(1 * 4 + 0) * W + lane], 0u) << "uncovered components are zero";
  }
}

TEST(VertexKernelCompile, DeclaredButUnwrittenPerVertexMembersGetNoSlots) {
  // glslang declares gl_PointSize, gl_ClipDistance[1] and gl_CullDistance[1] in every gl_PerVertex;
  // a shader that writes only gl_Position and a Location must not make vertices carry (and
  // primitives be clipped or culled against) the others.
  Shader shader("gfx_api_passthrough.vert", ShaderStage::Vertex);
  ASSERT_FALSE(shader.words.empty());
  std::string error;
  auto kernel = compile_vertex_kernel(shader.source, 8, VertexInputKey{}, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  const abi::VertexOutputLayout& layout = kernel->outputs;
  EXPECT_EQ(layout.location_slot[0], 1);
  EXPECT_EQ(layout.point_size_slot, -1);
  EXPECT_EQ(layout.clip_distance_count, 0u);
  EXPECT_EQ(layout.cull_distance_count, 0u);
  EXPECT_EQ(layout.slot_count, 2u);
}

TEST(VertexKernelCompile, SameKeyLinksOnceAndVertexInputIsPartOfTheKey) {
  Shader shader("gfx_fetch.vert", ShaderStage::Vertex);
  std::string error;
  VertexInputKey key = fetch_input_key();
  auto a = compile_vertex_kernel(shader.source, 8, key, binding0(), 1, nullptr, &error);
  auto b = compile_vertex_kernel(shader.source, 8, key, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(a && b) << error;
  EXPECT_EQ(a.get(), b.get());
  key.attributes[0].offset = 1;
  CompileRequest request;
  request.fail_if_compile_required = true;
  EXPECT_FALSE(compile_vertex_kernel(shader.source, 8, key, binding0(), 1, nullptr, &error, &request));
  EXPECT_TRUE(request.compile_required) << "a different vertex input state is a different kernel";
}

TEST(VertexKernelCompile, PipelineCacheCarriesTheOutputLayout) {
  Shader shader("gfx_fetch.vert", ShaderStage::Vertex);
  std::string error;
  KernelCache cache;
  auto kernel = compile_vertex_kernel(shader.source, 4, fetch_input_key(), binding0(), 77, &cache, &error);
  ASSERT_TRUE(kernel) << error;
  ASSERT_EQ(cache.size(), 1u);
  KernelCache loaded;
  ASSERT_TRUE(loaded.deserialize(cache.serialize("cpu"), "cpu"));
  ASSERT_EQ(loaded.size(), 1u);
  // The one entry (its key is internal): compare what matters through a round trip of the bytes.
  EXPECT_EQ(loaded.serialize("cpu"), cache.serialize("cpu"));
}

TEST(VertexKernelCompile, UnsupportedFormatAndStagesFailWithAnError) {
  Shader shader("gfx_fetch.vert", ShaderStage::Vertex);
  std::string error;
  VertexInputKey key = fetch_input_key();
  key.attributes[0].format = VK_FORMAT_BC1_RGB_UNORM_BLOCK;
  EXPECT_FALSE(compile_vertex_kernel(shader.source, 8, key, binding0(), 1, nullptr, &error));
  EXPECT_NE(error.find("format"), std::string::npos) << error;
  Shader fragment("gfx_discard.frag", ShaderStage::Fragment);
  error.clear();
  EXPECT_FALSE(compile_vertex_kernel(fragment.source, 8, key, binding0(), 1, nullptr, &error));
  EXPECT_FALSE(error.empty());
}

TEST(VertexFormats, EveryFormatVulkanRequiresForVertexBuffersIsFetchable) {
  for (VkFormat f : {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R8_UINT, VK_FORMAT_R8_SINT, VK_FORMAT_R8G8_UNORM,
                     VK_FORMAT_R8G8_SNORM, VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8B8A8_UNORM,
                     VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_B8G8R8A8_UNORM,
                     VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_SNORM_PACK32, VK_FORMAT_A8B8G8R8_UINT_PACK32,
                     VK_FORMAT_A8B8G8R8_SINT_PACK32, VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16_UNORM,
                     VK_FORMAT_R16_SNORM, VK_FORMAT_R16_UINT, VK_FORMAT_R16_SINT, VK_FORMAT_R16_SFLOAT,
                     VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_SNORM, VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16_SINT,
                     VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_SNORM,
                     VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_SINT, VK_FORMAT_R16G16B16A16_SFLOAT,
                     VK_FORMAT_R32_UINT, VK_FORMAT_R32_SINT, VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_UINT,
                     VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32_SINT,
                     VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SINT,
                     VK_FORMAT_R32G32B32A32_SFLOAT})
    EXPECT_TRUE(abi::vertex_format(f)) << f;
  EXPECT_FALSE(abi::vertex_format(VK_FORMAT_R64_SFLOAT));
}

INSTANTIATE_TEST_SUITE_P(Widths, VertexKernel, ::testing::Values(4u, 8u, 16u));

// ---------------------------------------------------------------------------------------------
// Fragment kernels
// ---------------------------------------------------------------------------------------------

// The arrays a FragmentInvocation points at, for W lanes.
struct FragmentArrays {
  uint32_t W;
  std::vector<uint32_t> inputs, outputs, sample_mask_in, sample_mask_out;
  std::vector<float> frag_coord, frag_depth;
  explicit FragmentArrays(uint32_t width)
      : W(width), inputs(abi::kFragmentInputSlots * 4 * width), outputs(abi::kMaxColorAttachments * 4 * width, 0xDEADBEEFu),
        sample_mask_in(width), sample_mask_out(width, ~0u), frag_coord(4 * width), frag_depth(width, 0.9f) {}
  uint32_t& input(uint32_t location, uint32_t c, uint32_t lane) { return inputs[(location * 4 + c) * W + lane]; }
  uint32_t output(uint32_t location, uint32_t c, uint32_t lane) const { return outputs[(location * 4 + c) * W + lane]; }
  FragmentInvocation invocation(const abi::ResourceContext* resources, uint32_t* faults) {
    FragmentInvocation inv{};
    inv.resources = resources;
    inv.faults = faults;
    inv.inputs = inputs.data();
    inv.frag_coord = frag_coord.data();
    inv.sample_mask_in = sample_mask_in.data();
    inv.outputs = outputs.data();
    inv.frag_depth = frag_depth.data();
    inv.sample_mask_out = sample_mask_out.data();
    inv.quad_mask = W == 32 ? ~0u : (1u << W) - 1;
    inv.covered_mask = inv.quad_mask;
    return inv;
  }
};

class FragmentKernel : public ::testing::TestWithParam<uint32_t> {};

TEST_P(FragmentKernel, InputsBuiltinsAndDerivatives) {
  const uint32_t W = GetParam();
  Shader shader("gfx_varyings.frag", ShaderStage::Fragment);
  ASSERT_FALSE(shader.words.empty());
  std::string error;
  auto kernel = compile_fragment_kernel(shader.source, W, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  const abi::FragmentInterface& fi = kernel->interface;
  EXPECT_EQ(fi.input_location_mask, 0xFu);
  // Declared components: vec4, ivec2, float, float.
  EXPECT_EQ(fi.input_components[0], 0xF);
  EXPECT_EQ(fi.input_components[1], 0x3);
  EXPECT_EQ(fi.input_components[2], 0x1);
  EXPECT_EQ(fi.input_components[3], 0x1);
  EXPECT_EQ(fi.interpolation[0], abi::Interpolation::Smooth);
  EXPECT_EQ(fi.interpolation[1], abi::Interpolation::Flat);
  EXPECT_EQ(fi.interpolation[2], abi::Interpolation::NoPerspective);
  EXPECT_EQ(fi.centroid_mask, 1u << 3);
  EXPECT_EQ(fi.sample_mask, 0u);
  EXPECT_EQ(fi.output_location_mask, 0x1Fu);
  EXPECT_EQ(fi.output_type[0], 0);
  EXPECT_EQ(fi.output_type[1], 1);
  EXPECT_EQ(fi.output_type[4], 2);
  EXPECT_TRUE(fi.early_fragment_tests);
  EXPECT_FALSE(fi.can_discard);
  EXPECT_FALSE(fi.writes_depth);
  EXPECT_FALSE(fi.uses_sample_rate);
  EXPECT_FALSE(fi.has_side_effects) << "no buffer, image or atomic writes";
  EXPECT_TRUE(fi.reads_frag_coord);
  EXPECT_TRUE(fi.reads_primitive_builtins) << "FrontFacing";

  FragmentArrays a(W);
  // v_f = 3 px + 5 py + 7 px py + 10 quad: fine dx = 3 + 7 py, fine dy = 5 + 7 px, coarse 3 and 5.
  auto v_f = [](uint32_t lane) {
    const float px = lane & 1, py = (lane >> 1) & 1;
    return 3 * px + 5 * py + 7 * px * py + 10.0f * (lane / 4);
  };
  for (uint32_t lane = 0; lane < W; ++lane) {
    const float color[4] = {float(lane), 2.0f * lane, -float(lane), 0.5f};
    for (uint32_t c = 0; c < 4; ++c) a.input(0, c, lane) = float_bits(color[c]);
    a.input(1, 0, lane) = lane * 7;
    a.input(1, 1, lane) = uint32_t(-int32_t(lane));
    a.input(2, 0, lane) = float_bits(v_f(lane));
    a.input(3, 0, lane) = float_bits(lane + 0.25f);
    a.frag_coord[0 * W + lane] = 2.0f * (lane / 4) + (lane & 1) + 0.5f;
    a.frag_coord[1 * W + lane] = ((lane >> 1) & 1) + 0.5f;
    a.frag_coord[2 * W + lane] = 0.125f * lane;
    a.frag_coord[3 * W + lane] = 1.0f;
    a.sample_mask_in[lane] = lane | 0x10;
  }
  Resources resources;
  uint32_t faults = 0;
  FragmentInvocation inv = a.invocation(&resources.context, &faults);
  inv.covered_mask &= ~(1u << 3);  // lane 3 is a helper
  inv.front_facing = 1;
  EXPECT_EQ(kernel->function(&inv), inv.covered_mask);

  for (uint32_t lane = 0; lane < W; ++lane) {
    const uint32_t px = lane & 1, py = (lane >> 1) & 1;
    for (uint32_t c = 0; c < 4; ++c) {
      EXPECT_EQ(a.output(0, c, lane), a.input(0, c, lane));
      EXPECT_EQ(a.output(2, c, lane), float_bits(a.frag_coord[c * W + lane])) << "FragCoord";
    }
    EXPECT_EQ(a.output(1, 0, lane), lane * 7);
    EXPECT_EQ(a.output(1, 1, lane), uint32_t(-int32_t(lane)));
    EXPECT_EQ(a.output(1, 2, lane), 1u) << "FrontFacing";
    EXPECT_EQ(a.output(1, 3, lane), lane);
    EXPECT_EQ(bits_float(a.output(3, 0, lane)), 3.0f + 7.0f * py) << "dFdxFine, lane " << lane;
    EXPECT_EQ(bits_float(a.output(3, 1, lane)), 5.0f + 7.0f * px) << "dFdyFine, lane " << lane;
    EXPECT_EQ(bits_float(a.output(3, 2, lane)), 3.0f) << "dFdxCoarse, lane " << lane;
    EXPECT_EQ(bits_float(a.output(3, 3, lane)), 5.0f) << "dFdyCoarse, lane " << lane;
    EXPECT_EQ(bits_float(a.output(4, 0, lane)), 3.0f + 7.0f * py + 5.0f + 7.0f * px) << "fwidth";
    EXPECT_EQ(a.output(4, 1, lane), lane == 3 ? 1u : 0u) << "HelperInvocation";
    EXPECT_EQ(a.output(4, 2, lane), lane | 0x10) << "SampleMaskIn";
    const uint32_t left = lane & ~1u, right = lane | 1u;
    const float want_square = v_f(right) * v_f(right) - v_f(left) * v_f(left);
    EXPECT_EQ(bits_float(a.output(4, 3, lane)), want_square) << "dFdx(v * v), lane " << lane;
  }
}

TEST_P(FragmentKernel, HelperLanesDoNotWriteMemoryAndDiscardIsReturned) {
  const uint32_t W = GetParam();
  Shader shader("gfx_discard.frag", ShaderStage::Fragment);
  std::string error;
  auto kernel = compile_fragment_kernel(shader.source, W, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  const abi::FragmentInterface& fi = kernel->interface;
  EXPECT_TRUE(fi.can_discard);
  EXPECT_TRUE(fi.has_side_effects) << "storage-buffer stores and atomics";
  EXPECT_TRUE(fi.reads_frag_coord);
  EXPECT_FALSE(fi.reads_primitive_builtins);
  EXPECT_TRUE(fi.writes_depth);
  EXPECT_TRUE(fi.writes_sample_mask);
  EXPECT_TRUE(fi.depth_replacing_mode_greater);
  EXPECT_FALSE(fi.depth_replacing_mode_less);
  EXPECT_EQ(fi.output_location_mask, 1u);

  FragmentArrays a(W);
  for (uint32_t lane = 0; lane < W; ++lane) a.frag_coord[lane] = lane + 0.5f;
  std::vector<uint32_t> ssbo(1 + 16, 0);
  Resources resources(ssbo.data(), ssbo.size() * 4);
  uint32_t faults = 0;
  FragmentInvocation inv = a.invocation(&resources.context, &faults);
  const uint32_t helpers = (1u << 0) | (1u << (W - 3));
  inv.covered_mask &= ~helpers;
  uint32_t discarded = 0;
  for (uint32_t lane = 0; lane < W; ++lane)
    if (lane % 3 == 1) discarded |= 1u << lane;
  EXPECT_EQ(kernel->function(&inv), inv.covered_mask & ~discarded);

  EXPECT_EQ(ssbo[0], uint32_t(__builtin_popcount(inv.covered_mask))) << "helper lanes' atomics are dropped";
  for (uint32_t lane = 0; lane < W; ++lane) {
    const bool helper = helpers & (1u << lane);
    EXPECT_EQ(ssbo[1 + lane], helper ? 0u : lane + 1) << "lane " << lane;
    if (helper || (discarded & (1u << lane))) continue;
    EXPECT_EQ(a.frag_depth[lane], lane % 2 == 0 ? lane * 0.25f : 0.9f) << "FragDepth keeps its preset where unwritten";
    EXPECT_EQ(a.sample_mask_out[lane], lane);
    EXPECT_EQ(bits_float(a.output(0, 0, lane)), float(lane));
  }
}

TEST_P(FragmentKernel, DemotedLanesKeepDerivativesButStopWriting) {
  const uint32_t W = GetParam();
  Shader shader("gfx_demote.frag", ShaderStage::Fragment);
  std::string error;
  auto kernel = compile_fragment_kernel(shader.source, W, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  EXPECT_TRUE(kernel->interface.can_discard);
  FragmentArrays a(W);
  for (uint32_t lane = 0; lane < W; ++lane) a.frag_coord[lane] = lane + 0.5f;
  std::vector<uint32_t> ssbo(16, 0);
  Resources resources(ssbo.data(), ssbo.size() * 4);
  uint32_t faults = 0;
  FragmentInvocation inv = a.invocation(&resources.context, &faults);
  inv.covered_mask &= ~(1u << 1);  // lane 1 is a helper, lane 2 demotes itself
  EXPECT_EQ(kernel->function(&inv), inv.covered_mask & ~(1u << 2));
  for (uint32_t lane = 0; lane < W; ++lane) {
    EXPECT_EQ(ssbo[lane], lane == 1 || lane == 2 ? 0u : 1u) << "lane " << lane;
    if (lane == 1 || lane == 2) continue;
    const float left = (lane & ~1u) + 0.5f;
    EXPECT_EQ(bits_float(a.output(0, 0, lane)), (left + 1) * (left + 1) - left * left) << "lane " << lane;
    EXPECT_EQ(bits_float(a.output(0, 1, lane)), 0.0f);
  }
}

// SampleId comes from the call; SamplePosition is the fractional part of FragCoord, which the engine
// puts at the sample when it shades per sample (here 8-sample location 0: (9/16, 5/16)).
TEST_P(FragmentKernel, SampleIdAndSamplePosition) {
  const uint32_t W = GetParam();
  Shader shader("msaa_sample_id.frag", ShaderStage::Fragment);
  ASSERT_FALSE(shader.words.empty());
  std::string error;
  auto kernel = compile_fragment_kernel(shader.source, W, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  EXPECT_TRUE(kernel->interface.uses_sample_rate);
  FragmentArrays a(W);
  for (uint32_t lane = 0; lane < W; ++lane) {
    a.frag_coord[0 * W + lane] = 10.0f + 2.0f * (lane / 4) + (lane & 1) + 0.5625f;
    a.frag_coord[1 * W + lane] = 20.0f + ((lane >> 1) & 1) + 0.3125f;
    a.input(0, 3, lane) = float_bits(0.75f);
  }
  Resources resources;
  uint32_t faults = 0;
  FragmentInvocation inv = a.invocation(&resources.context, &faults);
  inv.sample_id = 5;
  EXPECT_EQ(kernel->function(&inv), inv.covered_mask);
  for (uint32_t lane = 0; lane < W; ++lane) {
    EXPECT_EQ(bits_float(a.output(0, 0, lane)), 5.0f) << "SampleId, lane " << lane;
    EXPECT_EQ(bits_float(a.output(0, 1, lane)), 0.5625f) << "SamplePosition.x, lane " << lane;
    EXPECT_EQ(bits_float(a.output(0, 2, lane)), 0.3125f) << "SamplePosition.y, lane " << lane;
    EXPECT_EQ(bits_float(a.output(0, 3, lane)), 0.75f);
  }
}

// InterpolateAt*: the kernel evaluates the primitive's planes (abi::InterpolationRecord, whose
// address the engine puts in the inputs' kInterpolationInputSlot) at the position it asks for.
struct PlaneRecord {
  abi::InterpolationRecord r{};
  // Perspective weights around origin (8, 16): b1 = 0.25 + x/64, b2 = 0.125 + y/32, 1/w 1, 0.5, 0.25;
  // 4 standard samples; Locations 0..2 components 0/1 are p1/p2 (b1/b2 when noperspective).
  PlaneRecord() {
    r.origin[0] = 8, r.origin[1] = 16;
    const float b1[3] = {0.25f, 1 / 64.0f, 0}, b2[3] = {0.125f, 0, 1 / 32.0f}, inv_w[3] = {1, 0.5f, 0.25f};
    std::copy(b1, b1 + 3, r.b1), std::copy(b2, b2 + 3, r.b2), std::copy(inv_w, inv_w + 3, r.inv_w);
    r.perspective = 1;
    r.samples = 4;
    const float positions[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
    for (int i = 0; i < 4; ++i) r.sample_position[i][0] = positions[i][0], r.sample_position[i][1] = positions[i][1];
    for (uint32_t location = 0; location < 3; ++location) {
      r.component[location * 4 + 0][1] = 1;  // a0 0, d1 1, d2 0
      r.component[location * 4 + 1][2] = 1;
    }
  }
  // (p1, p2) or (b1, b2) at framebuffer position (x, y), as doubles.
  std::array<double, 2> at(double x, double y, bool perspective) const {
    const double b1 = 0.25 + (x - 8) / 64, b2 = 0.125 + (y - 16) / 32;
    if (!perspective) return {b1, b2};
    const double q0 = (1 - b1 - b2) * 1, q1 = b1 * 0.5, q2 = b2 * 0.25, w = q0 + q1 + q2;
    return {q1 / w, q2 / w};
  }
  void pass_to(FragmentArrays& a) const {
    const abi::InterpolationRecord* address = &r;
    std::memcpy(&a.inputs[abi::kInterpolationInputSlot * 4 * a.W], &address, sizeof address);
  }
};

TEST_P(FragmentKernel, InterpolateAtSampleAndOffsetEvaluateThePlanes) {
  const uint32_t W = GetParam();
  Shader shader("interpolate_at_sample.frag", ShaderStage::Fragment);
  ASSERT_FALSE(shader.words.empty());
  std::string error;
  auto kernel = compile_fragment_kernel(shader.source, W, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  EXPECT_TRUE(kernel->interface.interpolates_at_positions);
  EXPECT_TRUE(kernel->interface.reads_frag_coord);
  PlaneRecord planes;
  FragmentArrays a(W);
  planes.pass_to(a);
  auto pixel_x = [](uint32_t lane) { return 8.0 + 2 * (lane / 4) + (lane & 1); };
  auto pixel_y = [](uint32_t lane) { return 16.0 + ((lane >> 1) & 1); };
  for (uint32_t lane = 0; lane < W; ++lane) {  // shading sample 2 of each pixel
    a.frag_coord[0 * W + lane] = float(pixel_x(lane) + 0.125);
    a.frag_coord[1 * W + lane] = float(pixel_y(lane) + 0.625);
  }
  Resources resources;
  uint32_t faults = 0;
  FragmentInvocation inv = a.invocation(&resources.context, &faults);
  inv.sample_id = 2;
  EXPECT_EQ(kernel->function(&inv), inv.covered_mask);
  for (uint32_t lane = 0; lane < W; ++lane) {
    const auto at_sample = planes.at(pixel_x(lane) + 0.625, pixel_y(lane) + 0.875, true);  // sample 2 ^ 1
    const auto at_offset = planes.at(pixel_x(lane) + 0.75, pixel_y(lane) + 0.125, false);
    EXPECT_NEAR(bits_float(a.output(0, 0, lane)), at_sample[0], 1e-6) << "lane " << lane;
    EXPECT_NEAR(bits_float(a.output(0, 1, lane)), at_sample[1], 1e-6) << "lane " << lane;
    EXPECT_NEAR(bits_float(a.output(0, 2, lane)), at_offset[0], 1e-6) << "lane " << lane;
    EXPECT_NEAR(bits_float(a.output(0, 3, lane)), at_offset[1], 1e-6) << "lane " << lane;
  }
}

// InterpolateAtCentroid: the pixel centre when all samples or none (a helper) are covered, else
// the first covered sample.
TEST_P(FragmentKernel, InterpolateAtCentroidPicksTheFirstCoveredSample) {
  const uint32_t W = GetParam();
  Shader shader("interpolate_at_centroid.frag", ShaderStage::Fragment);
  ASSERT_FALSE(shader.words.empty());
  std::string error;
  auto kernel = compile_fragment_kernel(shader.source, W, binding0(), 1, nullptr, &error);
  ASSERT_TRUE(kernel) << error;
  EXPECT_TRUE(kernel->interface.interpolates_at_positions);
  PlaneRecord planes;
  FragmentArrays a(W);
  planes.pass_to(a);
  const uint32_t coverage[4] = {0xF, 0x6, 0x0, 0x8};
  const double where[4][2] = {{0.5, 0.5}, {0.875, 0.375}, {0.5, 0.5}, {0.625, 0.875}};
  for (uint32_t lane = 0; lane < W; ++lane) {
    a.frag_coord[0 * W + lane] = 8.5f + 2 * (lane / 4) + (lane & 1);
    a.frag_coord[1 * W + lane] = 16.5f + ((lane >> 1) & 1);
    a.sample_mask_in[lane] = coverage[lane % 4];
  }
  Resources resources;
  uint32_t faults = 0;
  FragmentInvocation inv = a.invocation(&resources.context, &faults);
  inv.covered_mask &= ~0x4444u;  // the lanes without coverage are helpers
  EXPECT_EQ(kernel->function(&inv), inv.covered_mask);
  for (uint32_t lane = 0; lane < W; ++lane) {
    const auto want = planes.at(8.0 + 2 * (lane / 4) + (lane & 1) + where[lane % 4][0],
                                16.0 + ((lane >> 1) & 1) + where[lane % 4][1], true);
    EXPECT_NEAR(bits_float(a.output(0, 0, lane)), want[0], 1e-6) << "lane " << lane;
    EXPECT_NEAR(bits_float(a.output(0, 1, lane)), want[1], 1e-6) << "lane " << lane;
  }
}

// Dual-source blending: Location 0 Index 1 lands in output slot kDualSourceOutputSlot and the
// interface says so; next to a Location 1 output it is dropped and Location 1 keeps the slot.
TEST_P(FragmentKernel, DualSourceOutputGoesToItsSlot) {
  const uint32_t W = GetParam();
  for (const bool with_location1 : {false, true}) {
    SCOPED_TRACE(with_location1 ? "with Location 1" : "Location 0 only");
    Shader shader(with_location1 ? "draw_dual_source_and_location1.frag" : "draw_dual_source.frag", ShaderStage::Fragment);
    ASSERT_FALSE(shader.words.empty());
    std::string error;
    auto kernel = compile_fragment_kernel(shader.source, W, binding0(), 1, nullptr, &error);
    ASSERT_TRUE(kernel) << error;
    EXPECT_EQ(kernel->interface.writes_dual_source, !with_location1);
    EXPECT_EQ(kernel->interface.output_location_mask, with_location1 ? 3u : 1u);
    FragmentArrays a(W);
    for (uint32_t lane = 0; lane < W; ++lane) {
      for (uint32_t c = 0; c < 4; ++c) a.input(0, c, lane) = float_bits(0.25f * c);
      a.frag_coord[0 * W + lane] = 2.0f * (lane / 4) + (lane & 1) + 0.5f;
      a.frag_coord[1 * W + lane] = ((lane >> 1) & 1) + 0.5f;
    }
    Resources resources;
    uint32_t faults = 0;
    FragmentInvocation inv = a.invocation(&resources.context, &faults);
    kernel->function(&inv);
    for (uint32_t lane = 0; lane < W; ++lane) {
      const float x = std::floor(a.frag_coord[lane]), y = std::floor(a.frag_coord[W + lane]);
      const float source1[4] = {x / 64, y / 64, (x + y) / 128, 1 - x / 64};
      for (uint32_t c = 0; c < 4; ++c) {
        EXPECT_EQ(bits_float(a.output(0, c, lane)), 0.25f * c);
        EXPECT_EQ(bits_float(a.output(abi::kDualSourceOutputSlot, c, lane)), with_location1 ? 3.0f : source1[c])
            << "lane " << lane << " component " << c;
      }
    }
  }
}

TEST(FragmentKernelCompile, SixteenBitVaryingsFailWithAnError) {
  Shader shader("gfx_half_varying.frag", ShaderStage::Fragment);
  ASSERT_FALSE(shader.words.empty());
  std::string error;
  EXPECT_FALSE(compile_fragment_kernel(shader.source, 8, binding0(), 1, nullptr, &error));
  EXPECT_NE(error.find("16-bit"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << "one line";
}

INSTANTIATE_TEST_SUITE_P(Widths, FragmentKernel, ::testing::Values(4u, 8u, 16u));

}  // namespace
}  // namespace kiln::compiler
