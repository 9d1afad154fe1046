// Geometry shader: a point light's cube shadow map in one draw. The scene is a 32x32x32 lattice of
// unit cells around the light, three quarters of them holding a box (box_lattice.*: ~24 600 boxes,
// 12 triangles each, ~295 000 triangles through ~886 000 32-bit indices, one vkCmdDrawIndexed).
// The vertex shader passes world positions on; the geometry shader (shaders/cube_shadow.geom,
// `invocations = 6`) projects each triangle with cube face k's view-projection (90 degrees, the
// spec's cube face orientation) and writes gl_Layer = k, so every triangle goes to all six faces
// and the clipper keeps what each face sees. The target is a cube-compatible 512x512 D32_SFLOAT
// image of six layers (layered_depth_target.*), depth only: no fragment shader. One unit of work
// is an input triangle (each drawn into six faces), in Minput-triangles/s.
//
// Check, on every 4th texel of every 4th row of each face (98 304 texels): the host casts a ray
// from the light through the texel centre (the face's direction for that texel, as a samplerCube
// would look it up) and finds the first box it meets; the depth must be that distance along the
// face's axis through the same projection (within 2e-5), or 1.0 (the clear) when it meets none.
// Texels whose rays 0.01 texel around the centre meet another box or another face of the box
// (silhouettes and edges, where rounding decides) are not checked.
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "tools/kiln-bench/box_lattice.h"
#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/layered_depth_target.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/cube_shadow.geom.spv.h"
#include "kiln-bench-shaders/world_position.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kFaceSize = 512;
constexpr uint32_t kFaces = 6;
constexpr int kCellsPerAxis = 32;
constexpr uint32_t kSceneSeed = 0x5ad0c0deu;
// Near the lattice's central corner but on no cell plane; every box is at least 0.1 away on each
// axis, so no triangle crosses a face's near plane (or the plane through the light).
constexpr std::array<float, 3> kLight = {0.02f, -0.03f, 0.05f};
constexpr float kNear = 0.05f;
constexpr float kFar = 20.0f;  // beyond the lattice (16 cells from the light along any axis)
constexpr uint32_t kCheckedStride = 4;
constexpr double kRayOffset = 0.01;  // texels
constexpr double kDepthTolerance = 2e-5;
constexpr float kPoisonDepth = 0.0f;  // depth 0 is at the near plane, where no box is

// The push constants of shaders/cube_shadow.geom.
struct LightConstants {
  float position[4];
  float near;
  float far;
};

// shaders/cube_shadow.geom's face table: the world axes of s, t and the major axis per face.
using Axis = std::array<double, 3>;
constexpr Axis kFaceS[kFaces] = {{0, 0, -1}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {-1, 0, 0}};
constexpr Axis kFaceT[kFaces] = {{0, -1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}, {0, -1, 0}};
constexpr Axis kFaceMajor[kFaces] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};

// The direction of face `face`'s point at texel coordinates (x, y) (texel centres at +0.5), its
// major component +-1: what the projection maps to that point.
Axis face_direction(uint32_t face, double x, double y) {
  const double s = 2 * x / kFaceSize - 1, t = 2 * y / kFaceSize - 1;
  Axis direction;
  for (int i = 0; i < 3; ++i) direction[i] = kFaceMajor[face][i] + s * kFaceS[face][i] + t * kFaceT[face][i];
  return direction;
}

// The depth the projection gives a point `distance` from the light along the face's axis.
double projected_depth(double distance) { return double(kFar) / (kFar - kNear) * (1 - kNear / distance); }

struct ExpectedDepth {
  uint32_t face, x, y;
  float depth;
};

// The depths to check: texels whose rays near the centre all agree, as projected_depth of the first
// box's distance (t along a direction of major component 1), or 1.0 where no box is met.
std::vector<ExpectedDepth> expected_depths(const BoxLattice& lattice) {
  const Axis light = {kLight[0], kLight[1], kLight[2]};
  const auto same = [](const std::optional<BoxHit>& a, const std::optional<BoxHit>& b) {
    return a.has_value() == b.has_value() && (!a || (a->box == b->box && a->entry_axis == b->entry_axis));
  };
  std::vector<ExpectedDepth> expected;
  size_t sampled = 0;
  for (uint32_t face = 0; face < kFaces; ++face) {
    for (uint32_t y = kCheckedStride / 2; y < kFaceSize; y += kCheckedStride) {
      for (uint32_t x = kCheckedStride / 2; x < kFaceSize; x += kCheckedStride) {
        ++sampled;
        const double cx = x + 0.5, cy = y + 0.5;
        const std::optional<BoxHit> hit = lattice.first_hit(light, face_direction(face, cx, cy));
        const double offsets[4][2] = {{-kRayOffset, 0}, {kRayOffset, 0}, {0, -kRayOffset}, {0, kRayOffset}};
        bool robust = true;
        for (const auto& offset : offsets) {
          robust = robust && same(hit, lattice.first_hit(light, face_direction(face, cx + offset[0], cy + offset[1])));
        }
        if (!robust) continue;
        expected.push_back({face, x, y, hit ? float(projected_depth(hit->t)) : 1.0f});
      }
    }
  }
  // Edges are under 1% of the texels (0.3% here); far fewer checked would mean a broken check.
  if (expected.size() * 2 < sampled) throw std::logic_error("gs_cubemap_shadow: too few texels to check");
  return expected;
}

class GsCubemapShadow final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_geometry_shader(context)) return reason;
    return missing_layered_depth_support(context, kFaceSize, kFaces);
  }

  explicit GsCubemapShadow(tools::VulkanContext& context)
      : lattice_(kCellsPerAxis, kSceneSeed),
        target_(context, kFaceSize, kFaces),
        pipeline_(context, target_.pass_target(),
                  {.vertex = spirv_code(world_position_vert_spirv),
                   .vertex_input = VertexInput{uint32_t(3 * sizeof(float)), {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}}},
                   .geometry = spirv_code(cube_shadow_geom_spirv),
                   .push_constant_bytes = sizeof(LightConstants)}),
        expected_(expected_depths(lattice_)) {
    const std::vector<float> positions = lattice_.corner_positions();
    vertices_ = make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, positions.data(),
                                   positions.size() * sizeof(float));
    const std::vector<uint32_t> indices = lattice_.triangle_indices();
    indices_ = make_filled_buffer(context, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, indices.data(),
                                  indices.size() * sizeof(uint32_t));
  }

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd);
    pipeline_.bind(cmd);
    pipeline_.push(cmd, LightConstants{{kLight[0], kLight[1], kLight[2], 1}, kNear, kFar});
    bind_vertex_buffer(cmd, *vertices_);
    vkCmdBindIndexBuffer(cmd, indices_->handle(), 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, uint32_t(lattice_.triangle_count() * 3), 1, 0, 0, 0);
    target_.end(cmd);
  }

  double work_per_repetition() const override { return double(lattice_.triangle_count()) * kPerMillion; }

  void poison_output(tools::VulkanContext& context) override { target_.poison(context, kPoisonDepth); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    const std::vector<float> depths = target_.read_back(context);
    for (const ExpectedDepth& want : expected_) {
      const float got = depths[(size_t(want.face) * kFaceSize + want.y) * kFaceSize + want.x];
      if (std::abs(double(got) - want.depth) <= kDepthTolerance) continue;
      char text[128];
      std::snprintf(text, sizeof text, "face %u texel (%u, %u): depth %.7f, expected %.7f (+-%.0e)", want.face,
                    want.x, want.y, got, want.depth, kDepthTolerance);
      return std::string(text);
    }
    return std::nullopt;
  }

 private:
  const BoxLattice lattice_;
  LayeredDepthTarget target_;
  GraphicsPipeline pipeline_;
  const std::vector<ExpectedDepth> expected_;
  std::unique_ptr<tools::Buffer> vertices_;
  std::unique_ptr<tools::Buffer> indices_;
};

}  // namespace

KILN_BENCH_SCENARIO(GsCubemapShadow, "gs_cubemap_shadow", "Minput-triangles/s",
                    "geometry shader: ~295 K box triangles into all six faces of a 512x512 cube shadow map "
                    "(D32_SFLOAT, 6 layers, gl_Layer from 6 invocations) in one draw, depth only");

}  // namespace kiln::bench
