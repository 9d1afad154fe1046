// Mesh shading: the meshlet scene (meshlet_scene.h: 112 tessellated spheres, 1 053 696 triangles
// in 10 752 meshlets of 64 vertices and 98 triangles) drawn with task and mesh shaders, one
// vkCmdDrawMeshTasksEXT of 336 task workgroups. A task invocation per meshlet
// (shaders/meshlet_cull.task) tests the meshlet's bounding sphere against the view frustum and its
// normal cone against the eye (all triangles facing away), compacts the survivors into the
// payload in order (subgroup ballot, then per-subgroup counts in shared memory) and launches a mesh
// workgroup for each: 4 605 of the 10 752 meshlets (57% culled: 30% by the frustum, 39% by the
// cone, some by both). A mesh workgroup of 32 invocations (shaders/meshlet.mesh) fetches its 64
// vertices through the meshlet's vertex indices, transforms them like mesh_indexed_reference's
// vertex shader, and writes its triangles' 8-bit corner indices; same fragment shader, same
// 1024x1024 RGBA8 + D32_SFLOAT target, back faces culled. One unit of work is a scene triangle,
// culled ones included (the work is drawing the scene), in Mtriangles/s, so the two scenarios'
// figures compare directly. Skipped without taskShader, or without subgroup ballots in task
// shaders.
//
// Check, three parts: every pixel away from silhouettes against the host's ray cast
// (MeshletScene::check_pixel, as mesh_indexed_reference); every pixel exactly equal to the
// indexed draw's image on the same device (drawn once during setup): culling drops only meshlets
// whose triangles are all off screen or back-facing, and both pipelines compute positions with the
// same `precise` transform; and the task shader's count of kept meshlets (a global atomicAdd)
// within what the host's float tests give, so the culling really happened.
#include <vector>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/mesh_shading.h"
#include "tools/kiln-bench/meshlet_scene.h"
#include "tools/kiln-bench/meshlet_scene_draw.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/meshlet.mesh.spv.h"
#include "kiln-bench-shaders/meshlet_cull.task.spv.h"

namespace kiln::bench {
namespace {

static_assert(kSceneMeshlets % kMeshletsPerTaskWorkgroup == 0);
constexpr uint32_t kTaskWorkgroups = kSceneMeshlets / kMeshletsPerTaskWorkgroup;

template <typename T>
std::unique_ptr<tools::Buffer> storage_buffer_of(tools::VulkanContext& context, const std::vector<T>& data) {
  return make_filled_buffer(context, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, data.data(), data.size() * sizeof(T));
}

class MeshMeshletsCulled final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_mesh_shader_support(
            context, {.task_shader = true,
                      .task_subgroup_operations = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT})) {
      return reason;
    }
    // The indexed draw (the check's reference) has the largest buffers: the vertices, which the
    // mesh shader reads too.
    return missing_indexed_scene_support(context);
  }

  explicit MeshMeshletsCulled(tools::VulkanContext& context)
      : scene_(kMeshletSceneTarget.width, kMeshletSceneTarget.height),
        commands_(context),
        target_(context, kMeshletSceneTarget),
        meshlets_(storage_buffer_of(context, scene_.meshlets())),
        meshlet_vertices_(storage_buffer_of(context, scene_.meshlet_vertices())),
        meshlet_triangles_(storage_buffer_of(context, scene_.meshlet_triangles())),
        vertices_(storage_buffer_of(context, scene_.vertices())),
        kept_count_(context, sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    tools::Buffer::Access::HostMapped),
        buffers_(context.device(), VK_SHADER_STAGE_TASK_BIT_EXT | VK_SHADER_STAGE_MESH_BIT_EXT,
                 {meshlets_.get(), meshlet_vertices_.get(), meshlet_triangles_.get(), vertices_.get(), &kept_count_}),
        pipeline_(context, target_,
                  {.fragment = meshlet_scene_fragment_shader(),
                   .mesh_stages = MeshStagesDesc{.task = spirv_code(meshlet_cull_task_spirv),
                                                 .mesh = spirv_code(meshlet_mesh_spirv)},
                   .push_constant_bytes = sizeof(SceneCamera),
                   .cull_mode = VK_CULL_MODE_BACK_BIT,
                   .storage_buffers = &buffers_}),
        expected_kept_(scene_.kept_meshlets()),
        indexed_image_(draw_indexed_image(context)) {}

  void record_repetition(VkCommandBuffer cmd) override {
    vkCmdFillBuffer(cmd, kept_count_.handle(), 0, sizeof(uint32_t), 0);
    tools::memory_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_TASK_SHADER_BIT_EXT,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    target_.begin(cmd, MeshletScene::kClearColour);
    pipeline_.bind(cmd);
    pipeline_.push(cmd, scene_.camera());
    commands_.draw(cmd, kTaskWorkgroups, 1, 1);
    target_.end(cmd);
  }

  double work_per_repetition() const override { return double(scene_.triangle_count()) * kPerMillion; }

  void poison_output(tools::VulkanContext& context) override {
    target_.colour().poison(context);
    *static_cast<uint32_t*>(kept_count_.mapped()) = kPoisonWord;
  }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    const std::vector<uint32_t> pixels = target_.colour().read_pixels(context);
    for (size_t i = 0; i < pixels.size(); ++i) {
      if (auto wrong = scene_.check_pixel(i, pixels[i])) return wrong;
    }
    size_t different = 0, first = 0;
    for (size_t i = pixels.size(); i-- > 0;) {
      if (pixels[i] == indexed_image_[i]) continue;
      ++different;
      first = i;
    }
    if (different > 0) {
      return std::to_string(different) + " pixels differ from the indexed draw's, first " +
             describe_mismatch(first, pixels[first], indexed_image_[first]);
    }
    const uint32_t kept = *static_cast<const uint32_t*>(kept_count_.mapped());
    if (kept < expected_kept_.certain || kept > expected_kept_.certain + expected_kept_.borderline) {
      return "the task shader kept " + std::to_string(kept) + " meshlets, the host " +
             std::to_string(expected_kept_.certain) + " (+ up to " + std::to_string(expected_kept_.borderline) +
             " borderline)";
    }
    return std::nullopt;
  }

 private:
  // The scene drawn by the indexed pipeline into this scenario's target, read back (setup only).
  std::vector<uint32_t> draw_indexed_image(tools::VulkanContext& context) {
    const IndexedSceneDraw indexed(context, scene_, target_);
    context.run_commands([&](VkCommandBuffer cmd) {
      target_.begin(cmd, MeshletScene::kClearColour);
      indexed.record(cmd);
      target_.end(cmd);
    });
    return target_.colour().read_pixels(context);
  }

  const MeshletScene scene_;
  const MeshShaderCommands commands_;
  RenderTarget target_;
  std::unique_ptr<tools::Buffer> meshlets_;
  std::unique_ptr<tools::Buffer> meshlet_vertices_;
  std::unique_ptr<tools::Buffer> meshlet_triangles_;
  std::unique_ptr<tools::Buffer> vertices_;
  tools::Buffer kept_count_;
  ShaderStorageBuffers buffers_;
  GraphicsPipeline pipeline_;
  const MeshletScene::KeptMeshlets expected_kept_;
  const std::vector<uint32_t> indexed_image_;
};

}  // namespace

KILN_BENCH_SCENARIO(MeshMeshletsCulled, "mesh_meshlets_culled", "Mtriangles/s",
                    "mesh shading: the meshlet scene (1.05 M triangles, 10 752 meshlets of 64 vertices / 98 "
                    "triangles), task shader culls by frustum and normal cone (57%), 1024x1024 RGBA8 + D32; needs "
                    "taskShader");

}  // namespace kiln::bench
