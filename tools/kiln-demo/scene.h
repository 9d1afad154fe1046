#pragma once
// The demo's scene and how one frame of it is recorded:
//   1. compute: sparks.comp moves 1536 sparks for the frame's time (a storage buffer);
//   2. one 4x multisampled render pass with depth, resolved at its end:
//      - the terrain: patches tessellated by distance (vertex, tessellation control and evaluation,
//        fragment), displaced analytically, textured with the ground texture, lit and fogged;
//      - wooden crates: one vertex-buffer cube drawn instanced (vertex, fragment), textured;
//      - a copper torus: task shader culls its bands against the frustum, mesh shader builds them
//        (or, on a device without VK_EXT_mesh_shader, a vertex shader draws the same triangles);
//      - the sparks as camera-facing quads built by a geometry shader, alpha-blended;
//   3. the resolved picture is copied to a host buffer, as an application shows or saves a frame.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"
#include "tools/kiln-bench/graphics_helpers.h"

namespace kiln::demo {

// How the torus is drawn: by task and mesh shaders, or by a vertex shader (same triangles).
enum class TorusPath { Mesh, Vertex };

class Scene {
 public:
  // Why `context`'s device cannot draw the scene at width x height, or nullopt. The mesh path
  // additionally needs VK_EXT_mesh_shader (task and mesh shaders).
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context, uint32_t width,
                                                       uint32_t height, TorusPath torus);

  // Creates every pipeline, uploads the terrain, crate and texture data.
  Scene(tools::VulkanContext& context, uint32_t width, uint32_t height, TorusPath torus);
  ~Scene();
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  // Records the frame at `time` seconds (compute, render pass, copy-out) into `cmd`.
  void record_frame(VkCommandBuffer cmd, float time);

  // The last frame's picture, once its command buffer has completed: width x height RGBA8 pixels,
  // rows top to bottom, tightly packed.
  std::vector<uint8_t> picture() const;

  // The resolved colour image the picture is copied from; it rests in COLOR_ATTACHMENT_OPTIMAL
  // between frames (a presenter blits it from there).
  VkImage picture_image() { return target_.colour().handle(); }

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }

 private:
  uint32_t width_;
  uint32_t height_;
  TorusPath torus_path_;
  bench::RenderTarget target_;
  std::vector<uint32_t> ground_texels_;
  bench::SampledTexture ground_;
  tools::Buffer sparks_;
  bench::ComputeKernel move_sparks_;
  bench::ShaderStorageBuffers spark_buffers_;
  std::unique_ptr<tools::Buffer> terrain_corners_;
  std::unique_ptr<tools::Buffer> crate_mesh_;
  std::unique_ptr<bench::GraphicsPipeline> terrain_;
  std::unique_ptr<bench::GraphicsPipeline> crates_;
  std::unique_ptr<bench::GraphicsPipeline> torus_;
  std::unique_ptr<bench::GraphicsPipeline> sparks_pipeline_;
  PFN_vkCmdDrawMeshTasksEXT draw_mesh_tasks_ = nullptr;
  tools::Buffer picture_;  // host-visible: the resolved picture of the last frame
};

}  // namespace kiln::demo
