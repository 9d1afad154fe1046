// The draw engine's per-fragment work with fake kernels: interpolation (smooth, no-perspective,
// flat with either provoking vertex), depth/stencil tests and writes, depth bias, blending,
// logic ops, write masks, discard, drawing without a fragment kernel; plus memory/'s attachment
// fast paths against format_pack.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "draw_test_util.h"
#include "memory/attachment_access.h"
#include "pipeline/graphics/output_merge.h"

namespace kiln::exec::test {
namespace {

// A full-viewport quad at depth z with one colour.
void quad(DrawSetup& d, float z, const float color[4], float x0 = 0, float y0 = 0, float x1 = 16, float y1 = 16) {
  d.add(x0, y0, color, z); d.add(x1, y0, color, z); d.add(x1, y1, color, z);
  d.add(x0, y0, color, z); d.add(x1, y1, color, z); d.add(x0, y1, color, z);
}

TEST(DrawOutput, SmoothInterpolationIsPerspectiveCorrect) {
  TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, 16, 16);
  DrawSetup d(&target.view);
  const float c0[4] = {1, 0, 0, 1}, c1[4] = {0, 1, 0, 1}, c2[4] = {0, 0, 1, 1};
  const float w[3] = {1.0f, 3.0f, 0.5f};
  d.add(1, 1, c0, 0.5f, w[0]); d.add(15, 2, c1, 0.5f, w[1]); d.add(3, 15, c2, 0.5f, w[2]);
  d.draw(3);
  const double X[3] = {1, 15, 3}, Y[3] = {1, 2, 15};
  int checked = 0;
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      const double px = x + 0.5, py = y + 0.5;
      const double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
      double b[3];
      for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        b[i] = ((X[k] - X[j]) * (py - Y[j]) - (Y[k] - Y[j]) * (px - X[j])) / area;
      }
      if (std::min({b[0], b[1], b[2]}) < 0.02) continue;  // outside or too close to an edge
      const double q[3] = {b[0] / w[0], b[1] / w[1], b[2] / w[2]};
      const double sum = q[0] + q[1] + q[2];
      const VkClearColorValue v = target.color(x, y);
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(v.float32[c], q[c] / sum, 1e-5) << x << "," << y;
      ++checked;
    }
  EXPECT_GT(checked, 30);
}

TEST(DrawOutput, NoPerspectiveInterpolationIsLinearOnScreen) {
  TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, 16, 16);
  DrawSetup d(&target.view);
  d.kernels.fragment_interface.interpolation[0] = abi::Interpolation::NoPerspective;
  const float c0[4] = {0, 0, 0, 1}, c1[4] = {1, 0, 0, 1};
  d.add(0, 0, c0, 0.5f, 1.0f); d.add(16, 0, c1, 0.5f, 4.0f); d.add(0, 16, c0, 0.5f, 2.0f);
  d.draw(3);
  EXPECT_NEAR(target.color(3, 2).float32[0], 3.5f / 16, 1e-5);
  EXPECT_NEAR(target.color(8, 1).float32[0], 8.5f / 16, 1e-5);
}

TEST(DrawOutput, NoPerspectiveSurvivesClipping) {
  TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, 16, 16);
  DrawSetup d(&target.view);
  d.kernels.fragment_interface.interpolation[0] = abi::Interpolation::NoPerspective;
  // z = x_ndc with different w: the near plane clips the left half; the value stays linear in
  // screen x across the clipped triangle (value = u where u runs 0..1 across the whole quad).
  const Vertex v[4] = {{{-1, -1, -1, 1}, {0, 0, 0, 1}}, {{2, -2, 2, 2}, {1, 0, 0, 1}}, {{2, 2, 2, 2}, {1, 0, 0, 1}},
                       {{-1, 1, -1, 1}, {0, 0, 0, 1}}};
  for (int i : {0, 1, 2, 0, 2, 3}) d.vertices.push_back(v[i]);
  d.draw(6);
  for (uint32_t x = 8; x < 16; ++x) EXPECT_NEAR(target.color(x, 7).float32[0], (x + 0.5f) / 16, 1e-5) << x;
  EXPECT_EQ(target.color(7, 7).float32[3], 0.0f);
}

TEST(DrawOutput, FlatInterpolationUsesTheProvokingVertex) {
  for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
                                       VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN}) {
    for (bool last : {false, true}) {
      TestTarget target(VK_FORMAT_R32G32B32A32_SFLOAT, 16, 16);
      DrawSetup d(&target.view);
      d.kernels.fragment_interface.interpolation[0] = abi::Interpolation::Flat;
      d.state.input_assembly.topology = topology;
      if (last) d.state.rasterization.provoking_vertex = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
      const float pos[4][2] = {{1, 1}, {15, 1}, {1, 15}, {15, 15}};
      for (int i = 0; i < 4; ++i) {
        const float color[4] = {float(i), 0, 0, 1};
        d.add(pos[i][0], pos[i][1], color);
      }
      const uint32_t count = topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST ? 3 : 4;
      d.draw(count);
      // Triangle 0 of each topology covers pixel (6,2); strips/fans also draw triangle 1 over (13,13).
      float expect0 = 0, expect1 = 0;
      switch (topology) {
        case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: expect0 = last ? 2 : 0; break;
        case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP: expect0 = last ? 2 : 0; expect1 = last ? 3 : 1; break;
        default: expect0 = last ? 2 : 1; break;  // fan: {v1, v2, v0}
      }
      EXPECT_EQ(target.color(6, 2).float32[0], expect0) << topology << " last " << last;
      if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP) {
        EXPECT_EQ(target.color(13, 13).float32[0], expect1);
      }
    }
  }
}

TEST(DrawOutput, DepthTestAndWriteKeepTheNearest) {
  for (VkFormat depth_format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D16_UNORM}) {
    for (bool near_first : {false, true}) {
      TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
      TestTarget depth(depth_format, 16, 16, VK_IMAGE_ASPECT_DEPTH_BIT);
      depth.fill_depth(1.0f);
      DrawSetup d(&color.view);
      d.targets.depth = &depth.view;
      d.state.depth_stencil.depth_test = d.state.depth_stencil.depth_write = true;
      d.state.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
      const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
      if (near_first) { quad(d, 0.25f, green, 4, 4, 12, 12); quad(d, 0.75f, red); }
      else { quad(d, 0.75f, red); quad(d, 0.25f, green, 4, 4, 12, 12); }
      d.draw(12);
      EXPECT_EQ(color.color(6, 6).float32[1], 1.0f) << depth_format << " " << near_first;
      EXPECT_EQ(color.color(1, 1).float32[0], 1.0f);
      EXPECT_NEAR(depth.depth(6, 6), 0.25f, 1e-4);
      EXPECT_NEAR(depth.depth(1, 1), 0.75f, 1e-4);
    }
  }
}

TEST(DrawOutput, DepthCompareOpsAndNoWrite) {
  struct Case { VkCompareOp op; bool pass_at_equal, pass_nearer, pass_farther; };
  const Case cases[] = {{VK_COMPARE_OP_NEVER, false, false, false}, {VK_COMPARE_OP_LESS, false, true, false},
                        {VK_COMPARE_OP_EQUAL, true, false, false}, {VK_COMPARE_OP_LESS_OR_EQUAL, true, true, false},
                        {VK_COMPARE_OP_GREATER, false, false, true}, {VK_COMPARE_OP_NOT_EQUAL, false, true, true},
                        {VK_COMPARE_OP_GREATER_OR_EQUAL, true, false, true}, {VK_COMPARE_OP_ALWAYS, true, true, true}};
  for (const Case& c : cases) {
    for (float z : {0.25f, 0.5f, 0.75f}) {
      TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
      TestTarget depth(VK_FORMAT_D32_SFLOAT, 16, 16, VK_IMAGE_ASPECT_DEPTH_BIT);
      depth.fill_depth(0.5f);
      DrawSetup d(&color.view);
      d.targets.depth = &depth.view;
      d.state.depth_stencil.depth_test = true;
      d.state.depth_stencil.depth_compare = c.op;
      quad(d, z, kWhite);
      d.draw(6);
      const bool pass = z == 0.5f ? c.pass_at_equal : z < 0.5f ? c.pass_nearer : c.pass_farther;
      EXPECT_EQ(color.color(5, 5).float32[0], pass ? 1.0f : 0.0f) << "op " << c.op << " z " << z;
      EXPECT_EQ(depth.depth(5, 5), 0.5f);  // depth writes off
    }
  }
}

TEST(DrawOutput, DepthBoundsTestUsesTheStoredDepth) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
  TestTarget depth(VK_FORMAT_D32_SFLOAT, 16, 16, VK_IMAGE_ASPECT_DEPTH_BIT);
  depth.fill_depth(0.9f);
  *reinterpret_cast<float*>(depth.texel(VK_IMAGE_ASPECT_DEPTH_BIT, 2, 2)) = 0.3f;
  DrawSetup d(&color.view);
  d.targets.depth = &depth.view;
  d.state.depth_stencil.depth_bounds_test = true;
  d.state.depth_stencil.min_depth_bounds = 0.2f;
  d.state.depth_stencil.max_depth_bounds = 0.5f;
  quad(d, 0.5f, kWhite);
  d.draw(6);
  EXPECT_EQ(color.color(2, 2).float32[0], 1.0f);
  EXPECT_EQ(color.color(3, 2).float32[0], 0.0f);
}

TEST(DrawOutput, DepthBiasConstantAndSlope) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
  TestTarget depth(VK_FORMAT_D16_UNORM, 16, 16, VK_IMAGE_ASPECT_DEPTH_BIT);
  depth.fill_depth(1.0f);
  DrawSetup d(&color.view);
  d.targets.depth = &depth.view;
  d.state.depth_stencil.depth_test = d.state.depth_stencil.depth_write = true;
  d.state.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
  d.state.rasterization.depth_bias_enable = true;
  d.state.rasterization.depth_bias_constant = 100.0f;  // 100 * 2^-16
  quad(d, 0.5f, kWhite);
  d.draw(6);
  EXPECT_NEAR(depth.depth(5, 5), 0.5f + 100.0f / 65536.0f, 1.0f / 65535.0f);
}

TEST(DrawOutput, StencilOpsAndTwoSidedState) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
  TestTarget ds(VK_FORMAT_D24_UNORM_S8_UINT, 16, 16, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
  ds.fill_depth(0.5f);
  DrawSetup d(&color.view);
  d.targets.depth = &ds.view;
  d.targets.stencil = &ds.view;
  DepthStencilState& s = d.state.depth_stencil;
  s.stencil_test = true;
  s.depth_test = true;
  s.depth_compare = VK_COMPARE_OP_LESS;
  // Pass 1: REPLACE with 5 everywhere (depth passes at z = 0.25).
  s.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 5};
  s.back = s.front;
  quad(d, 0.25f, kWhite);
  d.draw(6);
  EXPECT_EQ(ds.stencil(3, 3), 5u);
  // Pass 2, left half: EQUAL 5 passes, depth fails (z = 0.75) -> depth_fail_op INCREMENT_AND_CLAMP.
  // Right half: EQUAL 6 fails -> fail_op INVERT with write mask 0x0F.
  d.vertices.clear();
  s.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_COMPARE_OP_EQUAL, 0xFF, 0xFF, 5};
  s.back = s.front;  // quads are clockwise on screen: back-facing
  quad(d, 0.75f, kWhite, 0, 0, 8, 16);
  d.draw(6);
  s.front = {VK_STENCIL_OP_INVERT, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0xFF, 0x0F, 6};
  s.back = s.front;
  d.vertices.clear();
  quad(d, 0.25f, kWhite, 8, 0, 16, 16);
  d.draw(6);
  EXPECT_EQ(ds.stencil(3, 3), 6u);
  EXPECT_EQ(ds.stencil(12, 3), (5u & 0xF0u) | (~5u & 0x0Fu));
  // Back faces use the back state: DECREMENT_AND_WRAP from 6 on the left, 10 -> 9 on the right.
  s.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 0};
  s.back = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_DECREMENT_AND_WRAP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 0};
  d.vertices.clear();
  // Clockwise on screen = back-facing with the default counter-clockwise front face.
  d.add(0, 0, kWhite, 0.1f); d.add(16, 0, kWhite, 0.1f); d.add(0, 16, kWhite, 0.1f);
  d.draw(3);
  EXPECT_EQ(ds.stencil(3, 3), 5u);
  EXPECT_EQ(ds.stencil(12, 1), ((5u & 0xF0u) | (~5u & 0x0Fu)) - 1);
  EXPECT_EQ(ds.stencil(14, 14), (5u & 0xF0u) | (~5u & 0x0Fu));  // outside the triangle
}

TEST(DrawOutput, StencilCompareMaskAndClampAndWrap) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
  TestTarget ds(VK_FORMAT_S8_UINT, 16, 16, VK_IMAGE_ASPECT_STENCIL_BIT);
  for (uint32_t x = 0; x < 16; ++x) *ds.texel(VK_IMAGE_ASPECT_STENCIL_BIT, x, 0) = uint8_t(x < 8 ? 255 : 0);
  DrawSetup d(&color.view);
  d.targets.stencil = &ds.view;
  d.state.rasterization.front_face = VK_FRONT_FACE_CLOCKWISE;  // quads are front-facing
  DepthStencilState& s = d.state.depth_stencil;
  s.stencil_test = true;
  s.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0, 0xFF, 0};
  s.back = s.front;
  quad(d, 0.5f, kWhite);
  d.draw(6);
  EXPECT_EQ(ds.stencil(0, 0), 255u);
  EXPECT_EQ(ds.stencil(9, 0), 1u);
  s.front.pass_op = VK_STENCIL_OP_INCREMENT_AND_WRAP;
  d.draw(6);
  EXPECT_EQ(ds.stencil(0, 0), 0u);
  EXPECT_EQ(ds.stencil(9, 0), 2u);
  // Compare mask 0x0F: (ref & 0xF) == (2 & 0xF) with ref 0x12.
  s.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_DECREMENT_AND_CLAMP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0x0F, 0xFF,
             0x12};
  d.draw(6);
  EXPECT_EQ(ds.stencil(9, 0), 1u);
  EXPECT_EQ(ds.stencil(0, 0), 0u);  // 0 != 2: kept
}

// Blending one source colour over one destination colour, against a float reference.
VkClearColorValue blend_one(VkFormat format, const float src[4], const float dst[4], VkBlendFactor sf, VkBlendFactor df,
                            VkBlendOp op, const float constants[4] = nullptr, VkColorComponentFlags mask = 0xF) {
  TestTarget color(format, 4, 4);
  VkClearColorValue dv;
  memcpy(dv.float32, dst, 16);
  color.fill(dv);
  DrawSetup d(&color.view, 4, 4);
  d.blend(sf, df, op);
  d.state.color_blend.attachments[0].colorWriteMask = mask;
  if (constants) memcpy(d.state.color_blend.blend_constants, constants, 16);
  d.add(0, 0, src, 0.5f, 1, 4, 4); d.add(4, 0, src, 0.5f, 1, 4, 4); d.add(0, 4, src, 0.5f, 1, 4, 4);
  d.draw(3);
  return color.color(0, 0);
}

TEST(DrawOutput, BlendFactorsAndOps) {
  const float src[4] = {0.8f, 0.4f, 0.2f, 0.6f}, dst[4] = {0.1f, 0.5f, 0.9f, 0.3f}, k[4] = {0.25f, 0.5f, 0.75f, 0.2f};
  struct Case { VkBlendFactor sf, df; VkBlendOp op; };
  const Case cases[] = {
      {VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD},
      {VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_SUBTRACT},
      {VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_REVERSE_SUBTRACT},
      {VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_MIN},
      {VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_MAX},
      {VK_BLEND_FACTOR_DST_COLOR, VK_BLEND_FACTOR_SRC_COLOR, VK_BLEND_OP_ADD},
      {VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR, VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR, VK_BLEND_OP_ADD},
      {VK_BLEND_FACTOR_DST_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA, VK_BLEND_OP_ADD},
      {VK_BLEND_FACTOR_CONSTANT_COLOR, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR, VK_BLEND_OP_ADD},
      {VK_BLEND_FACTOR_CONSTANT_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA, VK_BLEND_OP_ADD},
      {VK_BLEND_FACTOR_SRC_ALPHA_SATURATE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD},
  };
  auto factor = [&](VkBlendFactor f, int i) -> double {
    switch (f) {
      case VK_BLEND_FACTOR_ZERO: return 0;
      case VK_BLEND_FACTOR_ONE: return 1;
      case VK_BLEND_FACTOR_SRC_COLOR: return src[i];
      case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1 - src[i];
      case VK_BLEND_FACTOR_DST_COLOR: return dst[i];
      case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1 - dst[i];
      case VK_BLEND_FACTOR_SRC_ALPHA: return src[3];
      case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - src[3];
      case VK_BLEND_FACTOR_DST_ALPHA: return dst[3];
      case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1 - dst[3];
      case VK_BLEND_FACTOR_CONSTANT_COLOR: return k[i];
      case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1 - k[i];
      case VK_BLEND_FACTOR_CONSTANT_ALPHA: return k[3];
      case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1 - k[3];
      case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return i == 3 ? 1 : std::min<double>(src[3], 1 - dst[3]);
      default: return -1;
    }
  };
  for (const Case& c : cases) {
    const VkClearColorValue got = blend_one(VK_FORMAT_R32G32B32A32_SFLOAT, src, dst, c.sf, c.df, c.op, k);
    for (int i = 0; i < 4; ++i) {
      const double s = src[i] * factor(c.sf, i), d = dst[i] * factor(c.df, i);
      const double want = c.op == VK_BLEND_OP_ADD ? s + d : c.op == VK_BLEND_OP_SUBTRACT ? s - d
                          : c.op == VK_BLEND_OP_REVERSE_SUBTRACT ? d - s : c.op == VK_BLEND_OP_MIN ? std::min(src[i], dst[i])
                                                                                                : std::max(src[i], dst[i]);
      EXPECT_NEAR(got.float32[i], want, 1e-6) << "factors " << c.sf << "/" << c.df << " op " << c.op << " channel " << i;
    }
  }
}

// Fragment kernel for blend_fast_path_matches_generic: four channel values per pixel picked from
// FragCoord and noise_seed by a hash, among rounding boundaries, ordinary values, values outside
// [0, 1], signed zeros, infinities and NaN.
inline uint32_t noise_seed = 0;
float noise_value(uint32_t x, uint32_t y, uint32_t c) {
  uint32_t h = (x * 73856093u) ^ (y * 19349663u) ^ (c * 83492791u) ^ (noise_seed * 2654435761u);
  h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
  const uint32_t kind = h % 16, k = (h >> 8) % 256;
  switch (kind) {
    case 0: return (float(k) + 0.5f) / 255.0f;  // a rounding boundary
    case 1: return std::nextafter((float(k) + 0.5f) / 255.0f, 2.0f);
    case 2: return -float(k) / 100.0f;
    case 3: return 1.0f + float(k) / 100.0f;
    case 4: return (h >> 16) % 2 ? -0.0f : 0.0f;
    case 5: return (h >> 16) % 3 == 0 ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    default: return float(h >> 8) / float(1u << 24);
  }
}
template <uint32_t W>
uint32_t fake_noise_kernel(const abi::FragmentInvocation* inv) {
  for (uint32_t lane = 0; lane < W; ++lane) {
    const uint32_t x = uint32_t(flt(inv->frag_coord[lane])), y = uint32_t(flt(inv->frag_coord[W + lane]));
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[c * W + lane] = bits(noise_value(x, y, c));
    for (uint32_t c = 0; c < 4; ++c)  // dual-source blending's second source
      inv->outputs[(abi::kDualSourceOutputSlot * 4 + c) * W + lane] = bits(noise_value(x, y, c + 4));
  }
  return inv->covered_mask;
}

// One draw configuration of the RGBA8/BGRA8 fast-path comparisons below.
struct Unorm8Case {
  uint32_t seed = 0;  // destination bytes and noise sources
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  uint32_t width = 8;  // fragment kernel width: 4, 8, 16 (four quads: full strips) or 32 (two steps)
  VkPipelineColorBlendAttachmentState blend{};
  bool alpha_to_one = false;
};

// Draws `c` into a kSize x kSize target of `format` over random destination bytes: a slanted
// triangle (partial quads) and then the whole target, every fragment with noise_value sources
// (and a dual-source second source). Returns the target's bytes in RGBA order.
std::vector<uint8_t> draw_unorm8_case(VkFormat format, const Unorm8Case& c) {
  constexpr uint32_t kSize = 21;  // partial tiles, and quads sticking out of the image
  const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM;
  TestTarget color(format, kSize, kSize, VK_IMAGE_ASPECT_COLOR_BIT, c.samples);
  std::mt19937 rng(c.seed);
  for (size_t i = 0; i < color.storage.size(); i += 4) {
    const uint32_t w = rng();
    for (int b = 0; b < 4; ++b) color.storage[i + b] = uint8_t(w >> (8 * (bgra && b != 1 && b != 3 ? 2 - b : b)));
  }
  DrawSetup d(&color.view, kSize, kSize);
  d.kernels.fragment = c.width == 4    ? &fake_noise_kernel<4>
                       : c.width == 16 ? &fake_noise_kernel<16>
                       : c.width == 32 ? &fake_noise_kernel<32>
                                       : &fake_noise_kernel<8>;
  d.kernels.fragment_width = c.width;
  d.kernels.fragment_interface.writes_dual_source = c.blend.blendEnable;
  d.state.multisample.samples = c.samples;
  d.state.multisample.alpha_to_one = c.alpha_to_one;
  d.state.color_blend.attachments[0] = c.blend;
  const float constants[4] = {0.3f, 1.5f, -0.25f, 0.6f};
  memcpy(d.state.color_blend.blend_constants, constants, 16);
  noise_seed = c.seed;
  const float k = float(kSize);
  d.add(0.3f, 0.2f, kWhite, 0.5f, 1, k, k); d.add(k, 3.7f, kWhite, 0.5f, 1, k, k); d.add(5.1f, k, kWhite, 0.5f, 1, k, k);
  d.add(0, 0, kWhite, 0.5f, 1, k, k); d.add(k, 0, kWhite, 0.5f, 1, k, k); d.add(0, k, kWhite, 0.5f, 1, k, k);
  d.add(k, 0, kWhite, 0.5f, 1, k, k); d.add(k, k, kWhite, 0.5f, 1, k, k); d.add(0, k, kWhite, 0.5f, 1, k, k);
  d.draw(9);
  std::vector<uint8_t> result = color.storage;
  if (bgra)
    for (size_t i = 0; i < result.size(); i += 4) std::swap(result[i], result[i + 2]);
  return result;
}

// Draws `c` with the generic path (A8B8G8R8_UNORM_PACK32 has the RGBA8 byte layout but goes
// through blend() and format_pack) and with the RGBA8 and BGRA8 fast paths, those with the
// AVX-512 stores on (where the CPU has them) and off; counts differing bytes, reporting the first.
// Adds to *changed the bytes the draws changed in the generic path's target: if no case changes
// any, the paths agree only because nothing was drawn.
uint32_t unorm8_fast_path_mismatches(const Unorm8Case& c, const char* what, uint64_t* changed) {
  const bool had_avx512 = gfx::OutputMerger::avx512_stores;
  const std::vector<uint8_t> generic = draw_unorm8_case(VK_FORMAT_A8B8G8R8_UNORM_PACK32, c);
  std::mt19937 rng(c.seed);  // draw_unorm8_case's destination bytes, in RGBA order
  for (size_t i = 0; i < generic.size(); i += 4) {
    const uint32_t w = rng();
    for (int b = 0; b < 4; ++b) *changed += generic[i + b] != uint8_t(w >> (8 * b));
  }
  uint32_t mismatches = 0;
  for (bool avx512 : {false, true}) {
    if (avx512 && !had_avx512) continue;
    gfx::OutputMerger::avx512_stores = avx512;
    for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM}) {
      const std::vector<uint8_t> fast = draw_unorm8_case(format, c);
      for (size_t i = 0; i < generic.size(); ++i)
        if (fast[i] != generic[i] && ++mismatches <= 5)
          ADD_FAILURE() << what << (format == VK_FORMAT_R8G8B8A8_UNORM ? " RGBA8" : " BGRA8")
                        << (avx512 ? " AVX-512" : " SSE2") << " W=" << c.width << " samples " << c.samples << " byte "
                        << i << ": fast " << int(fast[i]) << ", generic " << int(generic[i]);
    }
  }
  gfx::OutputMerger::avx512_stores = had_avx512;
  return mismatches;
}

// The SIMD blend paths of RGBA8/BGRA8 UNORM (AVX-512 and SSE2) against the generic one:
// byte-identical results for every factor pair (SRC1_* included: the kernel writes a second
// source; alpha factors and ops cycling), blend constants out of range, partial quads and quads
// outside the image, partial write masks, alpha to one, 4 samples, kernel widths 8 and 16, over
// noise sources (NaN, infinities, out of range, rounding boundaries) and random destinations.
TEST(DrawOutput, Unorm8BlendFastPathMatchesTheGenericPath) {
  constexpr VkBlendOp kOps[] = {VK_BLEND_OP_ADD, VK_BLEND_OP_SUBTRACT, VK_BLEND_OP_REVERSE_SUBTRACT, VK_BLEND_OP_MIN,
                                VK_BLEND_OP_MAX};
  constexpr VkColorComponentFlags kMasks[] = {VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT,
                                              VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT,
                                              VK_COLOR_COMPONENT_B_BIT, 0xE};
  uint32_t mismatches = 0, case_index = 0;
  uint64_t changed = 0;
  constexpr int kFactors = VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA + 1;
  for (int sf = VK_BLEND_FACTOR_ZERO; sf < kFactors; ++sf)
    for (int df = VK_BLEND_FACTOR_ZERO; df < kFactors; ++df, ++case_index) {
      Unorm8Case c;
      c.seed = case_index;
      c.samples = case_index % 7 == 3 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
      c.width = case_index % 2 ? 16 : 8;
      c.alpha_to_one = case_index % 13 == 6;
      VkPipelineColorBlendAttachmentState& a = c.blend;
      a.blendEnable = VK_TRUE;
      a.srcColorBlendFactor = VkBlendFactor(sf);
      a.dstColorBlendFactor = VkBlendFactor(df);
      a.srcAlphaBlendFactor = VkBlendFactor((sf + df + case_index) % kFactors);
      a.dstAlphaBlendFactor = VkBlendFactor((sf * 7 + case_index) % kFactors);
      a.colorBlendOp = kOps[case_index % 5];
      a.alphaBlendOp = kOps[(case_index / 5) % 5];
      if (sf == VK_BLEND_FACTOR_SRC_ALPHA && df == VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA) {  // the specialised "over"
        a.srcAlphaBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        a.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        a.colorBlendOp = a.alphaBlendOp = VK_BLEND_OP_ADD;
      }
      a.colorWriteMask = case_index % 11 == 5 ? kMasks[(case_index / 11) % 4] : 0xF;
      mismatches += unorm8_fast_path_mismatches(c, "blend", &changed);
    }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_GT(changed, 0u) << "the draws changed no byte";
}

// Source over, the specialised path, in every variant: widths, samples, write masks, alpha to one.
TEST(DrawOutput, Unorm8SourceOverFastPathMatchesTheGenericPath) {
  uint32_t mismatches = 0;
  uint64_t changed = 0;
  for (uint32_t i = 0; i < 24; ++i) {
    Unorm8Case c;
    c.seed = 1000 + i;
    c.width = i % 2 ? 16 : i % 4 == 0 ? 32 : 8;
    c.samples = i % 3 == 2 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
    c.alpha_to_one = i % 8 == 5;
    c.blend.blendEnable = VK_TRUE;
    c.blend.srcColorBlendFactor = c.blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
    c.blend.dstColorBlendFactor = c.blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    c.blend.colorBlendOp = c.blend.alphaBlendOp = VK_BLEND_OP_ADD;
    c.blend.colorWriteMask = i % 4 == 1 ? VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT : 0xF;
    mismatches += unorm8_fast_path_mismatches(c, "source over", &changed);
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_GT(changed, 0u) << "the draws changed no byte";
}

// The unblended store paths (encode and store, AVX-512 and SSE2) against the generic one: every
// write mask, widths 4 to 32, 1 and 4 samples, alpha to one.
TEST(DrawOutput, Unorm8StoreFastPathMatchesTheGenericPath) {
  uint32_t mismatches = 0;
  uint64_t changed = 0;
  for (uint32_t mask = 1; mask <= 0xF; ++mask)
    for (uint32_t variant = 0; variant < 4; ++variant) {
      Unorm8Case c;
      c.seed = 2000 + mask * 4 + variant;
      c.width = variant % 2 ? 16 : mask % 3 == 0 ? 4 : mask % 3 == 1 ? 32 : 8;
      c.samples = variant == 2 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
      c.alpha_to_one = variant == 3 && mask % 3 == 0;
      c.blend.colorWriteMask = mask;
      mismatches += unorm8_fast_path_mismatches(c, "store", &changed);
    }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_GT(changed, 0u) << "the draws changed no byte";
}

TEST(AttachmentAccess, Unorm8DecodeX4MatchesTheTable) {
  const float* table = mem::unorm8_decode_table();
  for (int code = 0; code < 256; code += 4) {
    float got[4];
    _mm_storeu_ps(got, mem::decode_unorm8_x4(_mm_setr_epi32(code, code + 1, code + 2, code + 3)));
    for (int i = 0; i < 4; ++i) ASSERT_EQ(bits(got[i]), bits(table[code + i])) << "code " << code + i;
  }
}

__attribute__((target("avx512f"))) void decode_unorm8_x16_codes(int first, float out[16]) {
  _mm512_storeu_ps(out, mem::decode_unorm8_x16(_mm512_add_epi32(_mm512_set1_epi32(first),
                                                               _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                                                 12, 13, 14, 15))));
}

TEST(AttachmentAccess, Unorm8DecodeX16MatchesTheTable) {
  if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "no AVX-512";
  const float* table = mem::unorm8_decode_table();
  for (int code = 0; code < 256; code += 16) {
    float got[16];
    decode_unorm8_x16_codes(code, got);
    for (int i = 0; i < 16; ++i) ASSERT_EQ(bits(got[i]), bits(table[code + i])) << "code " << code + i;
  }
}

TEST(DrawOutput, BlendingClampsOnlyNormalizedFormats) {
  const float src[4] = {2.0f, -1.0f, 0.4f, 1.0f}, dst[4] = {0.5f, 0.5f, 0.25f, 1.0f};
  const VkClearColorValue f = blend_one(VK_FORMAT_R32G32B32A32_SFLOAT, src, dst, VK_BLEND_FACTOR_ONE,
                                        VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD);
  EXPECT_FLOAT_EQ(f.float32[0], 2.5f);
  EXPECT_FLOAT_EQ(f.float32[1], -0.5f);
  // UNORM: the source is clamped to [0, 1] before blending: (1 + 0.5) -> 1, (0 + 0.5) = 0.5.
  const VkClearColorValue u = blend_one(VK_FORMAT_R8G8B8A8_UNORM, src, dst, VK_BLEND_FACTOR_ONE,
                                        VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD);
  EXPECT_FLOAT_EQ(u.float32[0], 1.0f);
  EXPECT_NEAR(u.float32[1], 128.0f / 255, 1e-6);  // dst 0.5 was stored as 128
  EXPECT_NEAR(u.float32[2], (102.0f + 64.0f) / 255, 1e-6);  // 0.4 + 64/255
}

TEST(DrawOutput, ColorWriteMaskKeepsMaskedChannels) {
  const float src[4] = {1, 1, 1, 1}, dst[4] = {0.2f, 0.4f, 0.6f, 0.8f};
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT,
                          VK_FORMAT_R5G6B5_UNORM_PACK16}) {
    const VkClearColorValue v = blend_one(format, src, dst, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                                          nullptr, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT);
    VkClearColorValue expect_dst, packed_dst;
    memcpy(expect_dst.float32, dst, 16);
    uint8_t texel[16];
    fmt::pack_color(format, expect_dst, texel);
    fmt::unpack_color(format, texel, &packed_dst);
    EXPECT_EQ(v.float32[0], 1.0f) << format;
    EXPECT_EQ(v.float32[1], packed_dst.float32[1]) << format;
    EXPECT_EQ(v.float32[2], 1.0f) << format;
    EXPECT_EQ(v.float32[3], packed_dst.float32[3]) << format;
  }
}

TEST(DrawOutput, LogicOpsOnUnormAndUint) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 4, 4);
  VkClearColorValue dv{};
  dv.float32[0] = 0x0F / 255.0f;
  dv.float32[1] = 0x3C / 255.0f;
  color.fill(dv);
  DrawSetup d(&color.view, 4, 4);
  d.state.color_blend.logic_op_enable = true;
  d.state.color_blend.logic_op = VK_LOGIC_OP_XOR;
  const float src[4] = {0xFF / 255.0f, 0x0F / 255.0f, 0, 1};
  d.add(0, 0, src, 0.5f, 1, 4, 4); d.add(4, 0, src, 0.5f, 1, 4, 4); d.add(0, 4, src, 0.5f, 1, 4, 4);
  d.draw(3);
  const uint8_t* t = color.texel(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  EXPECT_EQ(t[0], 0xF0);
  EXPECT_EQ(t[1], 0x33);
  EXPECT_EQ(t[3], 0xFF);  // 0xFF ^ 0x00
}

TEST(DrawOutput, DiscardedFragmentsWriteNothing) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
  TestTarget depth(VK_FORMAT_D32_SFLOAT, 16, 16, VK_IMAGE_ASPECT_DEPTH_BIT);
  depth.fill_depth(1.0f);
  DrawSetup d(&color.view);
  d.kernels.fragment = &fake_discard_kernel<8>;
  d.kernels.fragment_interface.can_discard = true;
  d.targets.depth = &depth.view;
  d.state.depth_stencil.depth_test = d.state.depth_stencil.depth_write = true;
  d.state.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
  // Red ramps from 0 (left) to 1 (right): the right half is discarded.
  const float c0[4] = {0, 0, 1, 1}, c1[4] = {1, 0, 1, 1};
  d.add(0, 0, c0); d.add(16, 0, c1); d.add(16, 16, c1);
  d.add(0, 0, c0); d.add(16, 16, c1); d.add(0, 16, c0);
  d.draw(6);
  EXPECT_EQ(color.color(2, 8).float32[2], 1.0f);
  EXPECT_EQ(depth.depth(2, 8), 0.5f);
  EXPECT_EQ(color.color(14, 8).float32[2], 0.0f);
  EXPECT_EQ(depth.depth(14, 8), 1.0f);
}

TEST(DrawOutput, NoFragmentKernelStillWritesDepthAndStencil) {
  TestTarget ds(VK_FORMAT_D32_SFLOAT_S8_UINT, 16, 16, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
  ds.fill_depth(1.0f);
  DrawSetup d;
  d.kernels.fragment = nullptr;
  d.targets.depth = d.targets.stencil = &ds.view;
  d.state.depth_stencil.depth_test = d.state.depth_stencil.depth_write = true;
  d.state.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
  d.state.depth_stencil.stencil_test = true;
  d.state.depth_stencil.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS,
                                 0xFF, 0xFF, 7};
  d.state.depth_stencil.back = d.state.depth_stencil.front;
  quad(d, 0.3f, kWhite, 0, 0, 8, 16);
  d.draw(6);
  EXPECT_FLOAT_EQ(ds.depth(3, 3), 0.3f);
  EXPECT_EQ(ds.stencil(3, 3), 7u);
  EXPECT_EQ(ds.depth(12, 3), 1.0f);
  EXPECT_EQ(ds.stencil(12, 3), 0u);
}

TEST(DrawOutput, FragmentKernelWidthsGiveTheSameImage) {
  // W = 4, 8 and 16 fragment kernels (1, 2 and 4 quads per call).
  std::vector<uint8_t> images[3];
  int i = 0;
  for (uint32_t W : {4u, 8u, 16u}) {
    TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
    DrawSetup d(&color.view);
    d.kernels.fragment_width = W;
    d.kernels.fragment = W == 4 ? &fake_color_kernel<4> : W == 8 ? &fake_color_kernel<8> : &fake_color_kernel<16>;
    const float c0[4] = {1, 0, 0, 1}, c1[4] = {0, 1, 0, 1}, c2[4] = {0, 0, 1, 1};
    d.add(1, 1, c0); d.add(15, 3, c1); d.add(4, 14, c2);
    d.draw(3);
    // The triangle was drawn at all: opaque inside it, the cleared alpha 0 outside.
    EXPECT_EQ(color.color(6, 6).float32[3], 1.0f) << "W " << W;
    EXPECT_EQ(color.color(14, 14).float32[3], 0.0f) << "W " << W;
    images[i++] = color.storage;
  }
  EXPECT_EQ(images[0], images[1]);
  EXPECT_EQ(images[1], images[2]);
}

TEST(DrawOutput, FourSamplesUseStandardLocations) {
  TestTarget color(VK_FORMAT_R32G32B32A32_SFLOAT, 4, 4, VK_IMAGE_ASPECT_COLOR_BIT, VK_SAMPLE_COUNT_4_BIT);
  DrawSetup d(&color.view, 4, 4);
  d.state.multisample.samples = VK_SAMPLE_COUNT_4_BIT;
  // A vertical edge at x = 1.5: pixel 1's samples at x offsets 0.375, 0.875, 0.125, 0.625 ->
  // samples 0 and 2 lie left of it (covered by a triangle spanning x < 1.5).
  d.add(-4, -4, kWhite, 0.5f, 1, 4, 4); d.add(1.5f, -4, kWhite, 0.5f, 1, 4, 4); d.add(1.5f, 8, kWhite, 0.5f, 1, 4, 4);
  d.add(-4, -4, kWhite, 0.5f, 1, 4, 4); d.add(1.5f, 8, kWhite, 0.5f, 1, 4, 4); d.add(-4, 8, kWhite, 0.5f, 1, 4, 4);
  d.draw(6);
  EXPECT_EQ(color.color(1, 1, 0).float32[0], 1.0f);
  EXPECT_EQ(color.color(1, 1, 1).float32[0], 0.0f);
  EXPECT_EQ(color.color(1, 1, 2).float32[0], 1.0f);
  EXPECT_EQ(color.color(1, 1, 3).float32[0], 0.0f);
  for (uint32_t s = 0; s < 4; ++s) EXPECT_EQ(color.color(0, 1, s).float32[0], 1.0f);
  for (uint32_t s = 0; s < 4; ++s) EXPECT_EQ(color.color(2, 1, s).float32[0], 0.0f);
}

// The inline 8-bit encoder the back end vectorises must round exactly like the reference: probe
// the floats around every rounding boundary (k + 0.5) / 255, plus NaN and out-of-range values.
TEST(AttachmentAccess, InlineUnorm8EncodeMatchesReferenceAtEveryBoundary) {
  auto reference = [](float v) {
    VkClearColorValue c{};
    c.float32[0] = v;
    uint8_t code = 0;
    fmt::pack_color(VK_FORMAT_R8_UNORM, c, &code);
    return uint32_t{code};
  };
  for (uint32_t k = 0; k < 256; ++k) {
    float v = (float(k) + 0.5f) / 255.0f;
    for (int i = 0; i < 8; ++i) v = std::nextafter(v, -1.0f);
    for (int i = 0; i < 16; ++i, v = std::nextafter(v, 2.0f)) {
      ASSERT_EQ(mem::encode_unorm8(v), reference(v)) << v;
      uint32_t four[4];
      _mm_storeu_si128(reinterpret_cast<__m128i*>(four), mem::encode_unorm8_x4(_mm_set_ps(v, 0.5f, v, -1.0f)));
      ASSERT_EQ(four[3], reference(v)) << v;
      ASSERT_EQ(four[1], reference(v)) << v;
      ASSERT_EQ(four[2], 128u);
      ASSERT_EQ(four[0], 0u);
    }
  }
  for (float v : {0.0f, -0.0f, 0.5f, 1.0f, -1.0f, 2.0f, std::numeric_limits<float>::quiet_NaN(),
                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}) {
    EXPECT_EQ(mem::encode_unorm8(v), reference(v)) << v;
    uint32_t four[4];
    _mm_storeu_si128(reinterpret_cast<__m128i*>(four), mem::encode_unorm8_x4(_mm_set1_ps(v)));
    EXPECT_EQ(four[0], reference(v)) << v;
  }
}

__attribute__((target("avx512f"))) void encode_unorm8_x16_values(const float in[16], uint32_t out[16]) {
  _mm512_storeu_si512(out, mem::encode_unorm8_x16(_mm512_loadu_ps(in)));
}

// encode_unorm8_x16 (FMA and conversion rounded down) against the scalar encoder: 64 floats either
// side of every rounding boundary, the special values, and every 251st float in [0, 1] (the
// whole range was checked once; the stride keeps the test fast).
TEST(AttachmentAccess, Unorm8EncodeX16MatchesTheScalarEncoder) {
  if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "no AVX-512";
  std::vector<float> values = {0.0f, -0.0f, 0.5f, 1.0f, -1.0f, 2.0f, std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::denorm_min(), std::nextafter(1.0f, 2.0f)};
  for (uint32_t k = 0; k < 256; ++k) {
    float v = (float(k) + 0.5f) / 255.0f;
    for (int i = 0; i < 64; ++i) v = std::nextafter(v, -1.0f);
    for (int i = 0; i < 128; ++i, v = std::nextafter(v, 2.0f)) values.push_back(v);
  }
  for (uint32_t b = 0; b <= 0x3F800000u; b += 251) values.push_back(flt(b));
  while (values.size() % 16) values.push_back(1.0f);
  for (size_t i = 0; i < values.size(); i += 16) {
    uint32_t got[16];
    encode_unorm8_x16_values(&values[i], got);
    for (size_t k = 0; k < 16; ++k) ASSERT_EQ(got[k], mem::encode_unorm8(values[i + k])) << values[i + k];
  }
}

// The word encoder (AVX-512/AVX2/SSE2 by CPU) gives every lane the scalar encoder's codes, in
// RGBA and BGRA order, for lane counts that exercise the wide loop and each tail.
TEST(AttachmentAccess, Unorm8WordEncoderMatchesScalarEncoder) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> value(-0.25f, 1.25f);
  std::vector<float> channel[4];
  for (auto& c : channel) {
    for (uint32_t k = 0; k < 256; ++k) c.push_back((float(k) + 0.5f) / 255.0f);  // rounding boundaries
    for (uint32_t k = 0; k < 256; ++k) c.push_back(std::nextafter((float(k) + 0.5f) / 255.0f, 2.0f));
    for (uint32_t k = 0; k < 500; ++k) c.push_back(value(rng));
    c.push_back(std::numeric_limits<float>::quiet_NaN());
    std::shuffle(c.begin(), c.end(), rng);
  }
  for (bool bgra : {false, true})
    for (uint32_t n : {1u, 4u, 7u, 8u, 15u, 16u, 29u, uint32_t(channel[0].size())}) {
      std::vector<uint32_t> words(n, 0xDEADBEEF);
      mem::encode_unorm8_words(bgra, channel[0].data(), channel[1].data(), channel[2].data(), channel[3].data(), n,
                               words.data());
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t r = mem::encode_unorm8(channel[0][k]), b = mem::encode_unorm8(channel[2][k]);
        const uint32_t expected = (bgra ? b : r) | mem::encode_unorm8(channel[1][k]) << 8 | (bgra ? r : b) << 16 |
                                  mem::encode_unorm8(channel[3][k]) << 24;
        ASSERT_EQ(words[k], expected) << "lane " << k << " of " << n << (bgra ? " (BGRA)" : " (RGBA)");
      }
    }
}

TEST(AttachmentAccess, FastPathsMatchFormatPack) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> value(-0.2f, 1.2f);
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                          VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT}) {
    const mem::ColorCodec codec = mem::color_codec(format);
    ASSERT_TRUE(codec);
    for (int i = 0; i < 2000; ++i) {
      VkClearColorValue v;
      for (float& f : v.float32) f = i < 256 ? float(i) / 255.0f + (i % 2 ? 0.5f / 255 : 0.0f) : value(rng);
      uint8_t fast[16] = {}, ref[16] = {};
      codec.pack(v, fast);
      fmt::pack_color(format, v, ref);
      ASSERT_EQ(memcmp(fast, ref, 16), 0) << format << " value " << v.float32[0];
      VkClearColorValue a, b;
      codec.unpack(ref, &a);
      fmt::unpack_color(format, ref, &b);
      ASSERT_EQ(memcmp(&a, &b, 16), 0) << format;
    }
  }
  for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT}) {
    const mem::DepthCodec codec = mem::depth_codec(format);
    for (float d : {0.0f, 0.1f, 0.3333f, 0.5f, 0.99999f, 1.0f, 1.5f, -0.5f}) {
      uint8_t fast[4] = {}, ref[4] = {};
      codec.pack(d, fast);
      fmt::pack_depth(format, d, ref);
      EXPECT_EQ(memcmp(fast, ref, 4), 0) << format << " " << d;
      float a = 0, b = 0;
      fmt::unpack_depth(format, ref, &b);
      a = codec.unpack(ref);
      EXPECT_EQ(a, b);
    }
  }
}

}  // namespace
}  // namespace kiln::exec::test

namespace kiln::exec::test {
namespace {

// Full-viewport quad covering a w x h target, with layer `layer`.
void full_quad(DrawSetup& d, float w, float h, int32_t layer = 0, const float* color = kWhite) {
  for (auto [x, y] : {std::pair{0.f, 0.f}, {w, 0.f}, {w, h}, {0.f, 0.f}, {w, h}, {0.f, h}}) {
    d.add(x, y, color, 0.5f, 1, w, h);
    d.vertices.back().layer = layer;
  }
}

TEST(DrawMultisample, SampleMaskAndAlphaToCoverage) {
  for (bool alpha : {false, true}) {
    TestTarget color(VK_FORMAT_R32G32B32A32_SFLOAT, 4, 4, VK_IMAGE_ASPECT_COLOR_BIT, VK_SAMPLE_COUNT_4_BIT);
    DrawSetup d(&color.view, 4, 4);
    d.state.multisample.samples = VK_SAMPLE_COUNT_4_BIT;
    const float half[4] = {1, 1, 1, 0.5f};
    if (alpha) d.state.multisample.alpha_to_coverage = true;
    else d.state.multisample.sample_mask = 0b0101;
    full_quad(d, 4, 4, 0, half);
    d.draw(6);
    // Alpha 0.5 of 4 samples: two samples (0 and 1); the sample mask keeps samples 0 and 2.
    const uint32_t expect = alpha ? 0b0011 : 0b0101;
    for (uint32_t s = 0; s < 4; ++s)
      EXPECT_EQ(color.color(2, 2, s).float32[0], (expect >> s) & 1 ? 1.0f : 0.0f) << "alpha " << alpha << " s " << s;
  }
}

// Sample-rate shading with `samples` samples: every sample of the covered pixel (x, y) is shaded
// (the fake kernel writes SampleId) and stored.
void expect_every_sample_shaded(VkSampleCountFlagBits samples, uint32_t x, uint32_t y) {
  TestTarget color(VK_FORMAT_R32G32B32A32_SFLOAT, 4, 4, VK_IMAGE_ASPECT_COLOR_BIT, samples);
  DrawSetup d(&color.view, 4, 4);
  d.state.multisample.samples = samples;
  d.state.multisample.sample_shading = true;
  d.state.multisample.min_sample_shading = 1.0f;
  d.kernels.fragment = &fake_sample_id_kernel<8>;
  full_quad(d, 4, 4);
  d.draw(6);
  for (uint32_t s = 0; s < uint32_t(samples); ++s) EXPECT_EQ(color.color(x, y, s).float32[0], float(s)) << "sample " << s;
}

TEST(DrawMultisample, SampleRateShadingRunsOncePerSample) { expect_every_sample_shaded(VK_SAMPLE_COUNT_4_BIT, 1, 3); }

// 8 samples (the largest count): every sample of a covered pixel is shaded and stored.
TEST(DrawMultisample, EightSamplesShadeAndStoreEverySample) { expect_every_sample_shaded(VK_SAMPLE_COUNT_8_BIT, 2, 1); }

TEST(DrawGeometry, ClipDistancesClipAndCullDistancesCull) {
  {
    TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
    DrawSetup d(&color.view);
    d.kernels.vertex_outputs.clip_distance_slot = 3;  // ClipDistance[0] = x_clip: keeps x >= 0
    d.kernels.vertex_outputs.clip_distance_count = 1;
    full_quad(d, 16, 16);
    d.draw(6);
    for (uint32_t x = 0; x < 16; ++x) EXPECT_EQ(color.color(x, 5).float32[0], x >= 8 ? 1.0f : 0.0f) << x;
  }
  {
    TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
    DrawSetup d(&color.view);
    d.kernels.vertex_outputs.cull_distance_slot = 3;  // CullDistance[0] = x, [1] = y
    d.kernels.vertex_outputs.cull_distance_count = 2;
    d.add(1, 1, kWhite); d.add(7, 1, kWhite); d.add(1, 7, kWhite);      // all x < 0: culled
    d.add(6, 9, kWhite); d.add(12, 9, kWhite); d.add(6, 15, kWhite);    // straddles x = 0: drawn whole
    d.draw(6);
    EXPECT_EQ(color.color(2, 2).float32[0], 0.0f);
    EXPECT_EQ(color.color(6, 10).float32[0], 1.0f);  // x < 8 part is not clipped
    EXPECT_EQ(color.color(9, 10).float32[0], 1.0f);
  }
}

TEST(DrawGeometry, LayerOutputAndMultiview) {
  for (bool multiview : {false, true}) {
    TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 4, 4, VK_IMAGE_ASPECT_COLOR_BIT, VK_SAMPLE_COUNT_1_BIT, 3);
    DrawSetup d(&color.view, 4, 4);
    d.targets.layer_count = 3;
    if (multiview) {
      d.targets.view_mask = 0b101;
      full_quad(d, 4, 4);
    } else {
      d.kernels.vertex_outputs.layer_slot = 4;
      full_quad(d, 4, 4, 1);
    }
    d.draw(6);
    for (uint32_t layer = 0; layer < 3; ++layer) {
      const bool drawn = multiview ? layer != 1 : layer == 1;
      EXPECT_EQ(color.color(1, 1, 0, layer).float32[0], drawn ? 1.0f : 0.0f) << multiview << " layer " << layer;
    }
  }
}

}  // namespace
}  // namespace kiln::exec::test

namespace kiln::exec::test {
namespace {

TEST(DrawGeometry, DepthClampClampsToTheViewportRange) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 4, 4);
  TestTarget depth(VK_FORMAT_D32_SFLOAT, 4, 4, VK_IMAGE_ASPECT_DEPTH_BIT);
  depth.fill_depth(1.0f);
  DrawSetup d(&color.view, 4, 4);
  d.targets.depth = &depth.view;
  d.state.viewport.viewports[0] = {0, 0, 4, 4, 0.2f, 0.8f};
  d.state.rasterization.depth_clamp = true;
  d.state.rasterization.depth_clip = false;
  d.state.depth_stencil.depth_test = d.state.depth_stencil.depth_write = true;
  d.state.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
  // z_ndc = 1.5 lies beyond the far plane: kept (no depth clip) and clamped to maxDepth.
  for (auto [x, y] : {std::pair{0.f, 0.f}, {4.f, 0.f}, {4.f, 4.f}}) d.add(x, y, kWhite, 1.5f, 1, 4, 4);
  d.draw(3);
  EXPECT_FLOAT_EQ(depth.depth(3, 1), 0.8f);
  EXPECT_EQ(color.color(3, 1).float32[0], 1.0f);
}

TEST(DrawGeometry, NonFiniteVerticesDrawNothingAndDoNotCrash) {
  TestTarget color(VK_FORMAT_R8G8B8A8_UNORM, 8, 8);
  DrawSetup d(&color.view, 8, 8);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  d.add(0, 0, kWhite, 0.5f, 1, 8, 8); d.add(8, 0, kWhite, 0.5f, 1, 8, 8); d.add(0, 8, kWhite, 0.5f, 1, 8, 8);
  d.vertices[1].pos[0] = nan;
  d.add(0, 0, kWhite, 0.5f, 1, 8, 8); d.add(8, 0, kWhite, 0.5f, 1, 8, 8); d.add(0, 8, kWhite, 0.5f, 1, 8, 8);
  d.vertices[5].pos[1] = inf;
  d.add(0, 0, kWhite, 0.5f, 1, 8, 8); d.add(8, 0, kWhite, 0.5f, 1, 8, 8); d.add(0, 8, kWhite, 0.5f, 1, 8, 8);
  d.vertices[8].pos[3] = 0.0f;
  d.draw(9);
  d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  d.draw(9);
  d.state.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  d.draw(9);
  // Only primitives with finite positions may draw; the NaN/inf triangles must not cover the
  // far corner, which only they could reach.
  EXPECT_EQ(color.color(7, 7).float32[0], 0.0f);
}

}  // namespace
}  // namespace kiln::exec::test
