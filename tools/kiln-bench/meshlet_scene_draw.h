#pragma once
// The GPU side that both mesh shading scenarios share (scenarios/mesh_indexed_reference.cpp and
// mesh_meshlets_culled.cpp): their render target, and the scene drawn with one vkCmdDrawIndexed
// (the reference the meshlet draw is measured and checked against).
#include <memory>
#include <optional>
#include <string>

#include "tools/common/vulkan_context.h"
#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/meshlet_scene.h"

namespace kiln::bench {

inline constexpr TargetDesc kMeshletSceneTarget{.width = 1024, .height = 1024, .depth = true};

// Why this device cannot draw the scene indexed into kMeshletSceneTarget, or nullopt.
std::optional<std::string> missing_indexed_scene_support(const tools::VulkanContext& context);

// The scene's vertices and indices as vertex and index buffers (host-mapped) and the pipeline that
// draws them: shaders/meshlet_scene.vert + meshlet_scene.frag, back faces culled, depth tested.
class IndexedSceneDraw {
 public:
  IndexedSceneDraw(tools::VulkanContext& context, const MeshletScene& scene, const RenderTarget& target);

  // Binds, pushes the camera and draws every triangle; inside the target's render pass.
  void record(VkCommandBuffer cmd) const;

 private:
  const SceneCamera camera_;
  const uint32_t index_count_;
  GraphicsPipeline pipeline_;
  std::unique_ptr<tools::Buffer> vertices_;
  std::unique_ptr<tools::Buffer> indices_;
};

// The scene's fragment shader, which both pipelines share.
SpirvCode meshlet_scene_fragment_shader();

}  // namespace kiln::bench
