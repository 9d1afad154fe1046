// Mesh shading, the reference: the meshlet scene (meshlet_scene.h: 112 tessellated spheres,
// 1 053 696 triangles over 565 152 vertices of 32 bytes, 18 MiB, and 3.2 M 32-bit indices,
// 12 MiB) drawn the classic way, with one vkCmdDrawIndexed (shaders/meshlet_scene.vert +
// meshlet_scene.frag) into a 1024x1024 R8G8B8A8_UNORM + D32_SFLOAT target, back faces culled.
// Every vertex is fetched and transformed and every triangle assembled; the clipper and back-face
// culling then drop what mesh_meshlets_culled's task shader never draws (57% of the meshlets in
// this view). One unit of work is a scene triangle, culled ones included (the work is drawing the
// scene), in Mtriangles/s, the unit of mesh_meshlets_culled.
//
// Check (MeshletScene::check_pixel): every pixel at least half a pixel from a silhouette against
// the host's ray cast on the true spheres: which sphere (red, green) or the clear colour exactly,
// the diffuse lighting (blue) within 4.
#include "tools/kiln-bench/meshlet_scene.h"
#include "tools/kiln-bench/meshlet_scene_draw.h"
#include "tools/kiln-bench/scenario.h"

namespace kiln::bench {
namespace {

class MeshIndexedReference final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_indexed_scene_support(context);
  }

  explicit MeshIndexedReference(tools::VulkanContext& context)
      : scene_(kMeshletSceneTarget.width, kMeshletSceneTarget.height),
        target_(context, kMeshletSceneTarget),
        draw_(context, scene_, target_) {}

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, MeshletScene::kClearColour);
    draw_.record(cmd);
    target_.end(cmd);
  }

  double work_per_repetition() const override { return double(scene_.triangle_count()) * kPerMillion; }

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return target_.colour().verify_each(context, [&](size_t i, uint32_t got) { return scene_.check_pixel(i, got); });
  }

 private:
  const MeshletScene scene_;
  RenderTarget target_;
  IndexedSceneDraw draw_;
};

}  // namespace

KILN_BENCH_SCENARIO(MeshIndexedReference, "mesh_indexed_reference", "Mtriangles/s",
                    "mesh shading reference: the meshlet scene (112 spheres, 1.05 M triangles) in one "
                    "vkCmdDrawIndexed, back faces culled, 1024x1024 RGBA8 + D32");

}  // namespace kiln::bench
