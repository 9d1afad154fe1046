// VK_EXT_shader_stencil_export: a fragment shader's FragStencilRefEXT replaces the state's stencil
// reference for its fragment, in the stencil test and in the REPLACE op. stencil_export.frag
// exports x * 4 + y / 16 for pixel (x, y); the state's reference (7) must not be used. The same
// tests run on lavapipe (KILN_TEST_DRIVER=lavapipe).
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kSize = 64;

class StencilExportTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    if (!device_has_extension(physical_device(), VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME)) {
      EXPECT_FALSE(is_kiln()) << "Kiln offers VK_EXT_shader_stencil_export";
      GTEST_SKIP() << "no VK_EXT_shader_stencil_export";
    }
    DeviceFeatures enabled;
    device_ = create_device(enabled, {VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME});
    ASSERT_TRUE(device_);
  }
  void TearDown() override {
    job_.reset();  // before the device goes
    VulkanTest::TearDown();
  }

  // A full-target rectangle drawn with stencil_export.frag and stencil op/compare `face` (reference
  // 7) into a D32_SFLOAT_S8_UINT attachment cleared to stencil `clear_stencil`.
  DrawJob& draw(VkStencilOpState face, uint32_t clear_stencil) {
    DrawJobOptions o = colored_options();
    o.fragment_shader = "stencil_export.frag";
    o.depth_format = VK_FORMAT_D32_SFLOAT_S8_UINT;
    o.depth_stencil.stencilTestEnable = VK_TRUE;
    o.depth_stencil.front = o.depth_stencil.back = face;
    job_ = std::make_unique<DrawJob>(*device_, o);
    EXPECT_EQ(job_->pipeline_result(), VK_SUCCESS);
    Buffer vb = vertex_buffer(*device_, rect(-1, -1, 1, 1, 0.5f, {0, 1, 0, 1}));
    job_->draw(kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdDraw(cb, 6, 1, 0, 0);
    }, 1.0f, clear_stencil);
    return *job_;
  }

  static uint32_t exported(uint32_t x, uint32_t y) { return x * 4 + y / 16; }

  TestDevice* device_ = nullptr;
  std::unique_ptr<DrawJob> job_;
};

TEST_F(StencilExportTest, ReplaceWritesEachFragmentsExportedReference) {
  DrawJob& job = draw({VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 7}, 0);
  const std::vector<uint8_t> stencil = job.read_stencil();
  ASSERT_EQ(stencil.size(), size_t{kSize} * kSize);
  PixelCheck failures(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      failures.expect_eq(size_t{y} * kSize + x, uint32_t{stencil[size_t{y} * kSize + x]}, exported(x, y),
                         "stencil = the exported reference");
}

// EQUAL against a stencil of 5: only the fragments that export 5 (x = 1, y in [16, 32)) pass.
TEST_F(StencilExportTest, StencilTestComparesTheExportedReference) {
  DrawJob& job = draw({VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0xFF, 0xFF, 7}, 5);
  const std::vector<uint8_t> color = job.read_color();
  ASSERT_EQ(color.size(), size_t{kSize} * kSize * 4);
  PixelCheck failures(kSize, kSize);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const size_t i = size_t{y} * kSize + x;
      failures.expect_eq(i, color[i * 4 + 1], uint8_t(exported(x, y) == 5 ? 255 : 0), "green where the reference is 5");
    }
}

}  // namespace
}  // namespace kiln::test
