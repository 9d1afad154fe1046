#include "tools/kiln-demo/scene.h"

#include <cstring>

#include "kiln-demo-shaders/crates.frag.spv.h"
#include "kiln-demo-shaders/crates.vert.spv.h"
#include "kiln-demo-shaders/sparks.comp.spv.h"
#include "kiln-demo-shaders/sparks.frag.spv.h"
#include "kiln-demo-shaders/sparks.geom.spv.h"
#include "kiln-demo-shaders/sparks.vert.spv.h"
#include "kiln-demo-shaders/terrain.frag.spv.h"
#include "kiln-demo-shaders/terrain.tesc.spv.h"
#include "kiln-demo-shaders/terrain.tese.spv.h"
#include "kiln-demo-shaders/terrain.vert.spv.h"
#include "kiln-demo-shaders/torus.frag.spv.h"
#include "kiln-demo-shaders/torus.mesh.spv.h"
#include "kiln-demo-shaders/torus.task.spv.h"
#include "kiln-demo-shaders/torus.vert.spv.h"
#include "tools/kiln-demo/camera.h"
#include "tools/kiln-demo/scene_geometry.h"

namespace kiln::demo {
namespace {

using bench::spirv_code;

constexpr uint32_t kSparks = 1536;           // shaders/sparks.glsl
constexpr uint32_t kSparkBytes = 32;         // struct Spark: two vec4
constexpr uint32_t kSparkWorkgroupSize = 64;  // shaders/sparks.comp
constexpr uint32_t kTorusBands = 64;          // shaders/torus.glsl
constexpr uint32_t kTorusSides = 32;
constexpr uint32_t kBandsPerTaskWorkgroup = 32;  // shaders/torus.task
constexpr uint32_t kMaxTessellationLevel = 24;   // shaders/terrain.tesc

bench::TargetDesc target_desc(uint32_t width, uint32_t height) {
  return {.width = width, .height = height, .depth = true, .samples = VK_SAMPLE_COUNT_4_BIT};
}

bench::VertexInput crate_vertex_input() {
  return {.stride = kCrateVertexFloats * sizeof(float),
          .attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                         {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 3 * sizeof(float)},
                         {2, 0, VK_FORMAT_R32G32_SFLOAT, 6 * sizeof(float)}}};
}

}  // namespace

std::optional<std::string> Scene::unsupported_reason(const tools::VulkanContext& context, uint32_t width,
                                                     uint32_t height, TorusPath torus) {
  if (auto reason = bench::missing_graphics_support(context, {.target = target_desc(width, height),
                                                              .blending = true,
                                                              .linear_texture = true,
                                                              .tessellation_level = kMaxTessellationLevel,
                                                              .geometry_shader = true})) {
    return reason;
  }
  if (torus == TorusPath::Mesh && !(context.mesh_shader_enabled() && context.task_shader_enabled())) {
    return std::string("no task and mesh shaders (VK_EXT_mesh_shader)");
  }
  return std::nullopt;
}

Scene::Scene(tools::VulkanContext& context, uint32_t width, uint32_t height, TorusPath torus)
    : width_(width),
      height_(height),
      torus_path_(torus),
      target_(context, target_desc(width, height)),
      ground_texels_(ground_texels()),
      ground_(context, kGroundTextureSize, kGroundTextureSize, ground_texels_.data()),
      sparks_(context, VkDeviceSize(kSparks) * kSparkBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
              tools::Buffer::Access::DeviceOnly),
      move_sparks_(context, spirv_code(sparks_comp_spirv), {&sparks_}, sizeof(SceneConstants)),
      spark_buffers_(context.device(), VK_SHADER_STAGE_VERTEX_BIT, {&sparks_}),
      picture_(context, VkDeviceSize(width) * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
               tools::Buffer::Access::HostMapped) {
  const std::vector<float> corners = terrain_patch_corners();
  terrain_corners_ = bench::make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, corners.data(),
                                               corners.size() * sizeof(float));
  const std::vector<float> crate = crate_vertices();
  crate_mesh_ = bench::make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, crate.data(),
                                          crate.size() * sizeof(float));

  const bench::PassTarget pass = target_.pass_target();
  terrain_ = std::make_unique<bench::GraphicsPipeline>(
      context, pass,
      bench::PipelineDesc{.vertex = spirv_code(terrain_vert_spirv),
                          .fragment = spirv_code(terrain_frag_spirv),
                          .vertex_input = bench::vec2_positions(),
                          .texture = &ground_,
                          .tessellation = bench::TessellationDesc{spirv_code(terrain_tesc_spirv),
                                                                  spirv_code(terrain_tese_spirv)},
                          .push_constant_bytes = sizeof(SceneConstants)});
  crates_ = std::make_unique<bench::GraphicsPipeline>(
      context, pass,
      bench::PipelineDesc{.vertex = spirv_code(crates_vert_spirv),
                          .fragment = spirv_code(crates_frag_spirv),
                          .vertex_input = crate_vertex_input(),
                          .texture = &ground_,
                          .push_constant_bytes = sizeof(SceneConstants)});
  bench::PipelineDesc torus_desc{.fragment = spirv_code(torus_frag_spirv), .push_constant_bytes = sizeof(SceneConstants)};
  if (torus == TorusPath::Mesh) {
    torus_desc.mesh_stages = bench::MeshStagesDesc{spirv_code(torus_task_spirv), spirv_code(torus_mesh_spirv)};
    draw_mesh_tasks_ = bench::device_command<PFN_vkCmdDrawMeshTasksEXT>(context, "vkCmdDrawMeshTasksEXT");
  } else {
    torus_desc.vertex = spirv_code(torus_vert_spirv);
  }
  torus_ = std::make_unique<bench::GraphicsPipeline>(context, pass, torus_desc);
  sparks_pipeline_ = std::make_unique<bench::GraphicsPipeline>(
      context, pass,
      bench::PipelineDesc{.vertex = spirv_code(sparks_vert_spirv),
                          .fragment = spirv_code(sparks_frag_spirv),
                          .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                          .blending = true,
                          .geometry = spirv_code(sparks_geom_spirv),
                          .push_constant_bytes = sizeof(SceneConstants),
                          .storage_buffers = &spark_buffers_});
}

Scene::~Scene() = default;

void Scene::record_frame(VkCommandBuffer cmd, float time) {
  const SceneConstants constants = scene_constants(time, width_, height_);

  move_sparks_.record_dispatch(cmd, {kSparks / kSparkWorkgroupSize, 1, 1}, &constants);
  tools::memory_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);

  target_.begin(cmd, kSkyRgba8);
  terrain_->bind(cmd);
  terrain_->push(cmd, constants);
  bench::bind_vertex_buffer(cmd, *terrain_corners_);
  const uint32_t patches = kTerrainPatchesPerSide * kTerrainPatchesPerSide;
  vkCmdDraw(cmd, patches * bench::kPatchControlPoints, 1, 0, 0);

  crates_->bind(cmd);
  crates_->push(cmd, constants);
  bench::bind_vertex_buffer(cmd, *crate_mesh_);
  vkCmdDraw(cmd, 36, kCrateInstances, 0, 0);

  torus_->bind(cmd);
  torus_->push(cmd, constants);
  if (torus_path_ == TorusPath::Mesh) {
    draw_mesh_tasks_(cmd, kTorusBands / kBandsPerTaskWorkgroup, 1, 1);
  } else {
    vkCmdDraw(cmd, kTorusBands * 2 * kTorusSides * 3, 1, 0, 0);
  }

  sparks_pipeline_->bind(cmd);
  sparks_pipeline_->push(cmd, constants);
  vkCmdDraw(cmd, kSparks, 1, 0, 0);
  target_.end(cmd);

  // Copy the resolved picture out and make it visible to the host.
  const tools::Image& colour = target_.colour().image();
  bench::record_away_from_rest(cmd, colour.handle(), bench::kColourAttachmentRest, tools::colour_subresource_range(),
                               false, [&](VkImageLayout layout) {
                                 const VkBufferImageCopy region = bench::whole_image_region(colour);
                                 vkCmdCopyImageToBuffer(cmd, colour.handle(), layout, picture_.handle(), 1, &region);
                               });
  tools::memory_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                        VK_ACCESS_HOST_READ_BIT);
}

std::vector<uint8_t> Scene::picture() const {
  const auto* bytes = static_cast<const uint8_t*>(picture_.mapped());
  return std::vector<uint8_t>(bytes, bytes + size_t(width_) * height_ * 4);
}

}  // namespace kiln::demo
