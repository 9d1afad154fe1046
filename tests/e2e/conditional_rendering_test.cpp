// VK_EXT_conditional_rendering through the loader with validation: between Begin and End, draws
// and vkCmdClearAttachments run only when the buffer's 32-bit value is non-zero (zero with
// VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT); the render pass's own load-op clear always runs.
// Dispatches follow the same rule (CTS conditional_rendering.dispatch.*).
#include <array>
#include <cstring>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class ConditionalRenderingTest : public VulkanTest {};

TEST_F(ConditionalRenderingTest, DrawsAndAttachmentClearsFollowTheCondition) {
  VkPhysicalDeviceConditionalRenderingFeaturesEXT features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
  const bool supported =
      query_extension_features(physical_device(), VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME, features) &&
      features.conditionalRendering;
  REQUIRE_ON_KILN(supported, "VK_EXT_conditional_rendering");
  features.inheritedConditionalRendering = VK_FALSE;
  TestDevice* device = create_device_with_extension(features, VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME);
  ASSERT_NE(device, nullptr);
  auto begin = reinterpret_cast<PFN_vkCmdBeginConditionalRenderingEXT>(
      vkGetDeviceProcAddr(device->handle(), "vkCmdBeginConditionalRenderingEXT"));
  auto end = reinterpret_cast<PFN_vkCmdEndConditionalRenderingEXT>(
      vkGetDeviceProcAddr(device->handle(), "vkCmdEndConditionalRenderingEXT"));
  ASSERT_TRUE(begin && end);
  DrawJob job(*device, colored_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(*device, rect(0, -1, 1, 1, 0.5f, {1, 0, 0, 1}));  // the right half, red
  struct Case {
    uint32_t value;
    bool inverted, runs;
  };
  for (const Case& c : {Case{0, false, false}, Case{1, false, true}, Case{0, true, true}, Case{7, true, false}}) {
    // The condition at offset 4 (any multiple of 4 may be used).
    Buffer condition = device->create_buffer(16, VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT, 0xFF);
    std::memcpy(static_cast<uint8_t*>(condition.mapped) + 4, &c.value, 4);
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
      info.buffer = condition.buffer;
      info.offset = 4;
      info.flags = c.inverted ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0;
      begin(cb, &info);
      VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
      clear.clearValue.color = {.float32 = {0, 1, 0, 1}};
      const VkClearRect left{{{0, 0}, {32, 64}}, 0, 1};
      vkCmdClearAttachments(cb, 1, &clear, 1, &left);  // the left half, green
      bind_vertices(cb, vb);
      vkCmdDraw(cb, 6, 1, 0, 0);
      end(cb);
    });
    const std::string what = "value " + std::to_string(c.value) + (c.inverted ? ", inverted" : "");
    check_rgba8(job.read_color(), what, [&](uint32_t x, uint32_t) {
      if (!c.runs) return std::array<int, 4>{0, 0, 0, 0};
      return x < 32 ? std::array<int, 4>{0, 255, 0, 255} : std::array<int, 4>{255, 0, 0, 255};
    });
  }
}

}  // namespace
}  // namespace kiln::test
