#pragma once
// A depth-only, layered render target: a square kDepthFormat image of several array layers (cube
// compatible when there are six, as a point light's shadow map is), drawn in one render pass
// through a framebuffer of all its layers, so a geometry shader picks each primitive's layer with
// gl_Layer. It rests in DEPTH_STENCIL_ATTACHMENT_OPTIMAL between repetitions, is cleared to 1.0 at
// the start of every pass and kept at its end, and can be poisoned and read back for verification.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"
#include "tools/kiln-bench/graphics_helpers.h"

namespace kiln::bench {

// Why this device cannot render into and read back a `size` x `size` kDepthFormat image of
// `layers` layers (cube compatible when 6), or nullopt.
std::optional<std::string> missing_layered_depth_support(const tools::VulkanContext& context, uint32_t size,
                                                         uint32_t layers);

class LayeredDepthTarget {
 public:
  LayeredDepthTarget(tools::VulkanContext& context, uint32_t size, uint32_t layers);
  LayeredDepthTarget(const LayeredDepthTarget&) = delete;
  LayeredDepthTarget& operator=(const LayeredDepthTarget&) = delete;

  uint32_t size() const { return image_.width(); }
  uint32_t layers() const { return image_.array_layers(); }
  PassTarget pass_target() const;

  // Begins the render pass (depth cleared to 1.0) over every layer.
  void begin(VkCommandBuffer cmd) const;
  void end(VkCommandBuffer cmd) const;

  // Clears every texel of every layer to `depth`, a value a correct pass never leaves.
  void poison(tools::VulkanContext& context, float depth);

  // Every texel's depth: layer after layer, each row-major.
  std::vector<float> read_back(tools::VulkanContext& context);

 private:
  VkImageSubresourceRange whole_range() const;

  tools::Image image_;
  ImageView view_;
  std::unique_ptr<PassFramebuffer> pass_;
};

}  // namespace kiln::bench
