#include "tools/kiln-bench/meshlet_scene_draw.h"

#include <cstddef>

#include "kiln-bench-shaders/meshlet_scene.frag.spv.h"
#include "kiln-bench-shaders/meshlet_scene.vert.spv.h"

namespace kiln::bench {

std::optional<std::string> missing_indexed_scene_support(const tools::VulkanContext& context) {
  // Two host-mapped buffers, the vertex buffer being the larger.
  if (auto reason = missing_host_buffer_memory(context, VkDeviceSize(kSceneVertices) * sizeof(SceneVertex), 2)) {
    return reason;
  }
  return missing_graphics_support(context, {.target = kMeshletSceneTarget, .max_draw_index = kSceneVertices - 1});
}

SpirvCode meshlet_scene_fragment_shader() { return spirv_code(meshlet_scene_frag_spirv); }

IndexedSceneDraw::IndexedSceneDraw(tools::VulkanContext& context, const MeshletScene& scene, const RenderTarget& target)
    : camera_(scene.camera()),
      index_count_(uint32_t(scene.indices().size())),
      pipeline_(context, target,
                {.vertex = spirv_code(meshlet_scene_vert_spirv),
                 .fragment = meshlet_scene_fragment_shader(),
                 .vertex_input = VertexInput{uint32_t(sizeof(SceneVertex)),
                                             {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(SceneVertex, position)},
                                              {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(SceneVertex, normal)},
                                              {2, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(SceneVertex, rgba8)}}},
                 .push_constant_bytes = sizeof(SceneCamera),
                 .cull_mode = VK_CULL_MODE_BACK_BIT}),
      vertices_(make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, scene.vertices().data(),
                                   scene.vertices().size() * sizeof(SceneVertex))),
      indices_(make_filled_buffer(context, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, scene.indices().data(),
                                  scene.indices().size() * sizeof(uint32_t))) {}

void IndexedSceneDraw::record(VkCommandBuffer cmd) const {
  pipeline_.bind(cmd);
  pipeline_.push(cmd, camera_);
  bind_vertex_buffer(cmd, *vertices_);
  vkCmdBindIndexBuffer(cmd, indices_->handle(), 0, VK_INDEX_TYPE_UINT32);
  vkCmdDrawIndexed(cmd, index_count_, 1, 0, 0, 0);
}

}  // namespace kiln::bench
