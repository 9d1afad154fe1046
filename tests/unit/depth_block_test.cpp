// The block depth test (pipeline/graphics/depth_block.h): against the scalar formula and the
// scalar compare the per-sample test uses (compare_op.h) for every op, and whole draws through it against the same draws through the per-sample depth
// test (depth bounds on, over [0, 1], takes that path) — colour and depth bit for bit.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "draw_test_util.h"
#include "common/compare_op.h"
#include "pipeline/graphics/depth_block.h"

namespace kiln::exec::test {
namespace {

constexpr VkCompareOp kOps[] = {VK_COMPARE_OP_NEVER,           VK_COMPARE_OP_LESS,    VK_COMPARE_OP_EQUAL,
                                VK_COMPARE_OP_LESS_OR_EQUAL,   VK_COMPARE_OP_GREATER, VK_COMPARE_OP_NOT_EQUAL,
                                VK_COMPARE_OP_GREATER_OR_EQUAL, VK_COMPARE_OP_ALWAYS};

TEST(DepthBlock, MatchesTheScalarPlaneAndCompare) {
  if (!gfx::depth_block_supported()) GTEST_SKIP() << "no AVX-512 VL: the back end never uses the block test here";
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), slope(-0.01f, 0.01f);
  constexpr uint64_t kPitch = 12 * sizeof(float);  // rows wider than the block, as in an image
  for (int round = 0; round < 200; ++round) {
    for (VkCompareOp op : kOps) {
      for (bool write : {false, true}) {
        gfx::DepthBlock b;
        b.at = unit(rng);
        b.dx = slope(rng);
        b.dy = slope(rng);
        b.x = float(int(rng() % 129) - 64) + 0.5f;
        b.y = float(int(rng() % 129) - 64) + 0.5f;
        b.compare = op;
        b.write = write;
        float expected_z[8][8];
        std::vector<float> stored(8 * 12);
        for (int r = 0; r < 8; ++r)
          for (int c = 0; c < 8; ++c) {
            // The formula the interpolator evaluates (no contraction in this baseline-x86 file).
            const float z = (b.at + b.dx * (b.x + float(c))) + b.dy * (b.y + float(r));
            expected_z[r][c] = z;
            // Stored values around z, exactly z (EQUAL), and NaN now and then.
            const uint32_t pick = rng() % 8;
            stored[r * 12 + c] = pick == 0   ? z
                                 : pick == 1 ? std::numeric_limits<float>::quiet_NaN()
                                             : z + (unit(rng) - 0.5f) * 0.02f;
          }
        stored[8] = 42.0f;  // past the block's first row: must stay
        const std::vector<float> before = stored;
        b.texels = reinterpret_cast<uint8_t*>(stored.data());
        b.row_pitch = kPitch;
        const uint64_t passed = gfx::test_depth_block(b);
        for (int r = 0; r < 8; ++r)
          for (int c = 0; c < 8; ++c) {
            const float old = before[r * 12 + c];
            const bool pass = compare_op(op, expected_z[r][c], old);
            ASSERT_EQ(((passed >> (r * 8 + c)) & 1) != 0, pass) << "op " << op << " pixel " << c << "," << r;
            const float want = pass && write ? expected_z[r][c] : old;
            ASSERT_EQ(memcmp(&stored[r * 12 + c], &want, 4), 0) << "op " << op << " write " << write;
          }
        ASSERT_EQ(stored[8], 42.0f);
      }
    }
  }
}

// Random sloped triangles over a 45x37 target (whole blocks, blocks cut by the target's edge,
// blocks cut by triangle edges), drawn once with a plain depth test (whole blocks take the
// block test) and once with a depth bounds test over [0, 1] added (every sample takes the
// per-sample test): the same colours and depths, bit for bit.
void draw_random_triangles(VkCompareOp op, bool write, uint32_t fragment_width, bool bounds, TestTarget& color,
                           TestTarget& depth) {
  constexpr float kW = 45, kH = 37;
  DrawSetup d(&color.view, uint32_t(kW), uint32_t(kH));
  if (fragment_width == 16) {
    d.kernels.fragment = &fake_color_kernel<16>;
    d.kernels.fragment_width = 16;
  }
  d.targets.depth = &depth.view;
  DepthStencilState& ds = d.state.depth_stencil;
  ds.depth_test = true;
  ds.depth_write = write;
  ds.depth_compare = op;
  ds.depth_bounds_test = bounds;
  ds.min_depth_bounds = 0.0f;
  ds.max_depth_bounds = 1.0f;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> px(-10.0f, 55.0f), pz(0.05f, 0.95f), channel(0.0f, 1.0f);
  constexpr uint32_t kTriangles = 60;
  for (uint32_t t = 0; t < kTriangles; ++t) {
    const float colour[4] = {channel(rng), channel(rng), channel(rng), 1.0f};
    for (int v = 0; v < 3; ++v) d.add(px(rng), px(rng) * kH / kW, colour, pz(rng), 1.0f, kW, kH);
  }
  d.draw(3 * kTriangles);
}

TEST(DepthBlock, DrawsMatchThePerSampleDepthTest) {
  for (VkCompareOp op : {VK_COMPARE_OP_LESS, VK_COMPARE_OP_GREATER_OR_EQUAL, VK_COMPARE_OP_NOT_EQUAL}) {
    for (bool write : {true, false}) {
      for (uint32_t width : {8u, 16u}) {
        TestTarget colours[2] = {{VK_FORMAT_R8G8B8A8_UNORM, 45, 37}, {VK_FORMAT_R8G8B8A8_UNORM, 45, 37}};
        TestTarget depths[2] = {{VK_FORMAT_D32_SFLOAT, 45, 37, VK_IMAGE_ASPECT_DEPTH_BIT},
                                {VK_FORMAT_D32_SFLOAT, 45, 37, VK_IMAGE_ASPECT_DEPTH_BIT}};
        for (int i = 0; i < 2; ++i) {
          depths[i].fill_depth(op == VK_COMPARE_OP_LESS ? 1.0f : 0.5f);
          draw_random_triangles(op, write, width, i == 1, colours[i], depths[i]);
        }
        EXPECT_EQ(colours[0].storage, colours[1].storage) << "op " << op << " write " << write << " W " << width;
        EXPECT_EQ(depths[0].storage, depths[1].storage) << "op " << op << " write " << write << " W " << width;
        // Something was drawn and (with writes) something was written.
        EXPECT_NE(colours[0].color(22, 18).float32[3], 0.0f) << "op " << op;
      }
    }
  }
}

}  // namespace
}  // namespace kiln::exec::test
