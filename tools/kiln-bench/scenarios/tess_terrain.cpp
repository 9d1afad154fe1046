// Tessellation: a displaced terrain. A G x G grid of quad patches (4 control points each, patch
// lists from a vec2 vertex buffer) covers a 1024x1024 R8G8B8A8_UNORM target with a D32_SFLOAT depth
// buffer. The control shader sets every outer and inner level to L (one scenario each: G = 16 at
// L = 16 and 64, and G = 256 at L = 2, many small patches as adaptive level-of-detail makes them),
// the evaluation shader (quads, equal spacing) interpolates the patch's corners bilinearly and
// displaces the point by one textureLod of a procedural 256x256 RGBA8 height map (red = height,
// green/blue = its gradient, for the normal), and the view-projection looks straight down on the
// terrain (orthographic), so a patch is 1024/G pixels wide and every pixel is drawn exactly once. A
// patch becomes 2 L^2 triangles and (L + 1)^2 evaluation invocations: 131 072 triangles per
// repetition at level 16 (quads of 4x4 pixels, two triangles each), 2 097 152 at level 64 (a quad
// per pixel), 524 288 for the 65 536 level-2 patches.
// One unit of work is a tessellated triangle, in Mtriangles/s.
//
// The patches are drawn in runs of G / 2 (half a grid row, one vkCmdDraw each), so no draw produces
// more than 65 536 evaluated points (8 x 65^2 = 33 800 at level 64): lavapipe (Mesa 22.3) goes
// wrong or slows down badly beyond that. Both drivers get the same draws.
//
// Check, every pixel, +-6 per channel (the shaders draw in false colour): red is the height and
// green the diffuse lighting of the normal, both against the host's bilinear filtering (in double)
// of the height map at the pixel centre; blue is the mean of two waves, per axis the parity of the
// point's index along the tessellated edge (0, 1, 0, 1...), interpolated: it depends on where the
// points are, so a driver tessellating at another level or spacing fails (at level 64 every pixel
// centre lies halfway between two points of each axis, so blue is 0.5 everywhere; at any lower
// level it is not). Blue is checked inside each patch's inner grid only: the outermost ring of
// triangles, which joins the outer edges to the inner grid, is stitched differently by each
// tessellator. The drivers interpolate red and green between tessellated points, not at the pixel
// centre: Kiln and lavapipe are within +-4 (green, in those long stitched triangles at level 16),
// +-2 elsewhere.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "kiln-bench-shaders/terrain.frag.spv.h"
#include "kiln-bench-shaders/terrain.tesc.spv.h"
#include "kiln-bench-shaders/terrain.tese.spv.h"
#include "kiln-bench-shaders/terrain.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr TargetDesc kTarget{.width = 1024, .height = 1024, .depth = true};
constexpr uint32_t kMapSize = 256;  // height-map texels per side
constexpr double kPi = 3.14159265358979323846;
constexpr float kHeightScale = 0.1f;    // world height of a height-map value of 1
constexpr float kGradientRange = 9.0f;  // |dh/du|, |dh/dv| <= 8.5 (see terrain_height)
constexpr float kLight[3] = {-0.4f, 0.8f, -0.3f};  // towards the light; normalised below
constexpr uint32_t kClearColour = 0xff000000u;
constexpr uint32_t kTolerance = 6;

// The push constants of shaders/terrain.glsl (std430: 96 bytes).
struct TerrainConstants {
  float view_projection[16];  // column-major
  float light[4];
  float level;
  float height_scale;
  float gradient_range;
  float unused;
};
static_assert(sizeof(TerrainConstants) == 96);

// The terrain's height in [0.1, 0.9] at (u, v) in [0, 1]^2, and its gradient (du, dv).
struct Height {
  double value, du, dv;
};
Height terrain_height(double u, double v) {
  const double a = 2 * kPi * 3 * u + 1, b = 2 * kPi * 2 * v, c = 2 * kPi * (4 * u + 5 * v);
  return {0.5 + 0.25 * std::sin(a) * std::cos(b) + 0.15 * std::sin(c),
          0.25 * 6 * kPi * std::cos(a) * std::cos(b) + 0.15 * 8 * kPi * std::cos(c),
          -0.25 * 4 * kPi * std::sin(a) * std::sin(b) + 0.15 * 10 * kPi * std::cos(c)};
}

uint32_t unorm8(double value) { return uint32_t(std::lround(std::clamp(value, 0.0, 1.0) * 255)); }
double gradient_code(double gradient) { return 0.5 + gradient / (2 * kGradientRange); }

// Texel (i, j) of the height map: the terrain at its centre.
std::vector<uint32_t> height_map() {
  std::vector<uint32_t> texels;
  texels.reserve(kMapSize * kMapSize);
  for (uint32_t j = 0; j < kMapSize; ++j) {
    for (uint32_t i = 0; i < kMapSize; ++i) {
      const Height h = terrain_height((i + 0.5) / kMapSize, (j + 0.5) / kMapSize);
      texels.push_back(0xff000000u | unorm8(gradient_code(h.dv)) << 16 | unorm8(gradient_code(h.du)) << 8 |
                       unorm8(h.value));
    }
  }
  return texels;
}

// The corners of a grid x grid patches, in the order terrain.tese expects: patch p = row * grid + column.
std::vector<float> patch_corners(uint32_t grid) {
  std::vector<float> corners;
  corners.reserve(size_t(grid) * grid * kPatchControlPoints * 2);
  for (uint32_t row = 0; row < grid; ++row) {
    for (uint32_t column = 0; column < grid; ++column) {
      const float u0 = float(column) / grid, u1 = float(column + 1) / grid;
      const float v0 = float(row) / grid, v1 = float(row + 1) / grid;
      corners.insert(corners.end(), {u0, v0, u1, v0, u0, v1, u1, v1});
    }
  }
  return corners;
}

TerrainConstants terrain_constants(uint32_t level) {
  // Orthographic, looking straight down: (u, v) -> (2u - 1, 2v - 1), so the terrain fills the
  // target; depth 0.5 - world height (higher is nearer).
  TerrainConstants constants{.view_projection = {2, 0, 0, 0, 0, 0, -1, 0, 0, 2, 0, 0, -1, -1, 0.5f, 1},
                             .level = float(level),
                             .height_scale = kHeightScale,
                             .gradient_range = kGradientRange};
  const float length = std::sqrt(kLight[0] * kLight[0] + kLight[1] * kLight[1] + kLight[2] * kLight[2]);
  for (int i = 0; i < 3; ++i) constants.light[i] = kLight[i] / length;
  return constants;
}

// The height map's channels (0..1) filtered bilinearly at (u, v), clamp to edge.
struct Filtered {
  double channel[3];
};
Filtered filter_height_map(const std::vector<uint32_t>& texels, double u, double v) {
  const auto tap = [](double coordinate, uint32_t& first, uint32_t& second) {
    const double s = coordinate * kMapSize - 0.5, floor_s = std::floor(s);
    const auto clamp = [](double i) { return uint32_t(std::clamp(i, 0.0, double(kMapSize - 1))); };
    first = clamp(floor_s);
    second = clamp(floor_s + 1);
    return s - floor_s;
  };
  uint32_t i0, i1, j0, j1;
  const double wu = tap(u, i0, i1), wv = tap(v, j0, j1);
  Filtered result{};
  for (int c = 0; c < 3; ++c) {
    const auto code = [&](uint32_t i, uint32_t j) { return double((texels[j * kMapSize + i] >> (8 * c)) & 0xff) / 255; };
    const double near = code(i0, j0) * (1 - wu) + code(i1, j0) * wu;
    const double far = code(i0, j1) * (1 - wu) + code(i1, j1) * wu;
    result.channel[c] = near * (1 - wv) + far * wv;
  }
  return result;
}

// The interpolated parity wave at `s` points along a tessellated edge (points at integers).
double parity_wave(double s) {
  const double k = std::floor(s);
  const double parity = std::fmod(k, 2.0);
  return parity + (1 - 2 * parity) * (s - k);
}

// kLevel: every tessellation level; kGridSize: patches per row and per column.
template <uint32_t kLevel, uint32_t kGridSize>
class TessTerrain final : public CommandScenario {
  static constexpr uint32_t kPatches = kGridSize * kGridSize;
  static constexpr uint32_t kPatchesPerDraw = kGridSize / 2;
  static_assert(kPatchesPerDraw * (kLevel + 1) * (kLevel + 1) <= 65536, "lavapipe's points per draw");

 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_graphics_support(context, {.target = kTarget, .linear_texture = true, .tessellation_level = kLevel});
  }

  explicit TessTerrain(tools::VulkanContext& context)
      : texels_(height_map()),
        target_(context, kTarget),
        texture_(context, kMapSize, kMapSize, texels_.data(), VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT),
        pipeline_(context, target_,
                  {.vertex = spirv_code(terrain_vert_spirv),
                   .fragment = spirv_code(terrain_frag_spirv),
                   .vertex_input = vec2_positions(),
                   .texture = &texture_,
                   .tessellation = TessellationDesc{spirv_code(terrain_tesc_spirv), spirv_code(terrain_tese_spirv)},
                   .push_constant_bytes = sizeof(TerrainConstants)}),
        constants_(terrain_constants(kLevel)) {
    const std::vector<float> corners = patch_corners(kGridSize);
    corners_ = make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, corners.data(),
                                  corners.size() * sizeof(float));
    expected_.reserve(size_t(kTarget.width) * kTarget.height);
    for (uint32_t y = 0; y < kTarget.height; ++y) {
      for (uint32_t x = 0; x < kTarget.width; ++x) expected_.push_back(expected_pixel(x, y));
    }
  }

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    pipeline_.push(cmd, constants_);
    bind_vertex_buffer(cmd, *corners_);
    for (uint32_t first = 0; first < kPatches; first += kPatchesPerDraw) {
      vkCmdDraw(cmd, kPatchesPerDraw * kPatchControlPoints, 1, first * kPatchControlPoints, 0);
    }
    target_.end(cmd);
  }

  double work_per_repetition() const override { return double(kPatches) * 2 * kLevel * kLevel * kPerMillion; }

  void poison_output(tools::VulkanContext& context) override { target_.colour().poison(context); }

  std::optional<std::string> verify_output(tools::VulkanContext& context) override {
    return target_.colour().verify_each(context, [&](size_t i, uint32_t got) -> std::optional<std::string> {
      const Expected& want = expected_[i];
      constexpr uint32_t kBlue = 0x00ff0000u;
      const uint32_t checked = want.blue_checked ? want.colour : (want.colour & ~kBlue) | (got & kBlue);
      return rgba8_mismatch(i, got, checked, kTolerance);
    });
  }

 private:
  struct Expected {
    uint32_t colour;
    bool blue_checked;  // inside the inner grid of its patch
  };

  Expected expected_pixel(uint32_t x, uint32_t y) const {
    const double u = (x + 0.5) / kTarget.width, v = (y + 0.5) / kTarget.height;
    const Filtered map = filter_height_map(texels_, u, v);
    const double slope_scale = double(kGradientRange) * kHeightScale;
    const double normal[3] = {-(map.channel[1] * 2 - 1) * slope_scale, 1, -(map.channel[2] * 2 - 1) * slope_scale};
    const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    double diffuse = 0;
    for (int i = 0; i < 3; ++i) diffuse += normal[i] / length * constants_.light[i];
    // Points along a patch edge are 1 / kLevel of the patch apart; the inner grid spans points
    // 1 .. kLevel - 1 of each axis.
    const double s = u * kGridSize * kLevel, t = v * kGridSize * kLevel;
    const auto inner = [](double along) {
      const double local = std::fmod(along, double(kLevel));
      return local > 1 && local < kLevel - 1;
    };
    const double blue = 0.5 * (parity_wave(s) + parity_wave(t));
    return {0xff000000u | unorm8(blue) << 16 | unorm8(std::max(diffuse, 0.0)) << 8 | unorm8(map.channel[0]),
            inner(s) && inner(t)};
  }

  const std::vector<uint32_t> texels_;
  RenderTarget target_;
  SampledTexture texture_;
  GraphicsPipeline pipeline_;
  const TerrainConstants constants_;
  std::unique_ptr<tools::Buffer> corners_;
  std::vector<Expected> expected_;
};

using TessTerrain2 = TessTerrain<2, 256>;
using TessTerrain16 = TessTerrain<16, 16>;
using TessTerrain64 = TessTerrain<64, 16>;

}  // namespace

KILN_BENCH_SCENARIO(TessTerrain2, "tess_terrain_2", "Mtriangles/s",
                    "graphics: 256x256 quad patches at tessellation level 2, displaced by a height map in the "
                    "evaluation shader (524 K triangles), 1024x1024 + depth");
KILN_BENCH_SCENARIO(TessTerrain16, "tess_terrain_16", "Mtriangles/s",
                    "graphics: 16x16 quad patches at tessellation level 16, displaced by a height map in the "
                    "evaluation shader (131 K triangles), 1024x1024 + depth");
KILN_BENCH_SCENARIO(TessTerrain64, "tess_terrain_64", "Mtriangles/s",
                    "graphics: 16x16 quad patches at tessellation level 64, displaced by a height map in the "
                    "evaluation shader (2.1 M triangles), 1024x1024 + depth");

}  // namespace kiln::bench
