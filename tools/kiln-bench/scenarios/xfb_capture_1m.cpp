// Transform feedback: 1 Mi (1 048 576) vertices of a point list (vec4 positions, 16 MiB) go
// through a vertex shader (shaders/xfb_capture.vert) that transforms them by a matrix and derives
// one vec4 attribute; both are captured into a 32 MiB buffer (xfb_stride 32: clip position at
// offset 0, attribute at 16) with rasterizer discard on, so nothing reaches a fragment. One
// vkCmdDraw between vkCmdBegin/EndTransformFeedbackEXT. One unit of work is a captured vertex, in
// Mvertices/s. Skipped without VK_EXT_transform_feedback.
//
// Check, every captured vertex (exact): positions are small integers and the matrix's entries
// too, so every product and sum is exact in float whatever order or fusing the driver uses, and
// the host computes the same numbers. The attribute's w is the vertex index, so vertices captured
// out of order or twice show.
#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

#include "tools/kiln-bench/graphics_helpers.h"
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/transform_feedback.h"
#include "kiln-bench-shaders/xfb_capture.vert.spv.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kVertices = 1u << 20;
constexpr uint32_t kCapturedFloats = 8;  // per vertex: gl_Position, attributes
constexpr uint32_t kStride = kCapturedFloats * sizeof(float);
constexpr VkDeviceSize kCapturedBytes = VkDeviceSize(kVertices) * kStride;
constexpr uint32_t kSeed = 0x0f0b5e7u;
// Only for its render pass: rasterizer discard leaves it untouched.
constexpr TargetDesc kTarget{.width = 16, .height = 16};
constexpr uint32_t kClearColour = 0xff000000u;

// The vertex shader's matrix (push constants), column-major: small integers.
constexpr std::array<float, 16> kMatrix = {2, 0, 1, 0, 0, 3, 0, 1, 1, 0, -2, 0, 5, -7, 11, 1};

using Vec4 = std::array<float, 4>;

// Vertex i's position: x, y, z integers in [-64, 63], w = 1.
Vec4 position(uint32_t index) {
  const uint32_t word = pattern_word(index, kSeed);
  const auto coordinate = [&](int shift) { return float(int((word >> shift) & 0x7f) - 64); };
  return {coordinate(0), coordinate(8), coordinate(16), 1};
}

// What xfb_capture.vert writes for vertex `index`: matrix * position, then the attribute.
std::array<float, kCapturedFloats> captured(uint32_t index) {
  const Vec4 p = position(index);
  std::array<float, kCapturedFloats> values{};
  for (int row = 0; row < 4; ++row) {
    for (int column = 0; column < 4; ++column) values[row] += kMatrix[column * 4 + row] * p[column];
  }
  values[4] = p[2] * 2 - 1;
  values[5] = p[0] * 2 - 1;
  values[6] = p[1] * 2 - 1;
  values[7] = float(index);
  return values;
}

class XfbCapture1M final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    if (auto reason = missing_transform_feedback_support(context, kCapturedBytes, kStride)) return reason;
    // The captured buffer is the larger of the two host-mapped buffers.
    if (auto reason = missing_host_buffer_memory(context, kCapturedBytes, 2)) return reason;
    return missing_graphics_support(context, {.target = kTarget});
  }

  explicit XfbCapture1M(tools::VulkanContext& context)
      : commands_(context),
        target_(context, kTarget),
        pipeline_(context, target_,
                  {.vertex = spirv_code(xfb_capture_vert_spirv),
                   .vertex_input = VertexInput{uint32_t(sizeof(Vec4)), {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}}},
                   .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                   .rasterizer_discard = true,
                   .push_constant_bytes = sizeof(kMatrix)}),
        captured_(context, kCapturedBytes, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT,
                  tools::Buffer::Access::HostMapped) {
    std::vector<Vec4> positions(kVertices);
    for (uint32_t i = 0; i < kVertices; ++i) positions[i] = position(i);
    positions_ = make_filled_buffer(context, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, positions.data(),
                                    positions.size() * sizeof(Vec4));
  }

  void record_repetition(VkCommandBuffer cmd) override {
    target_.begin(cmd, kClearColour);
    pipeline_.bind(cmd);
    pipeline_.push(cmd, kMatrix);
    bind_vertex_buffer(cmd, *positions_);
    const VkBuffer capture_buffer = captured_.handle();
    const VkDeviceSize capture_offset = 0, capture_size = kCapturedBytes;
    commands_.bind_buffers(cmd, 0, 1, &capture_buffer, &capture_offset, &capture_size);
    commands_.begin(cmd, 0, 0, nullptr, nullptr);  // no counter buffers: capture starts at offset 0
    vkCmdDraw(cmd, kVertices, 1, 0, 0);
    commands_.end(cmd, 0, 0, nullptr, nullptr);
    target_.end(cmd);
  }

  double work_per_repetition() const override { return double(kVertices) * kPerMillion; }

  void poison_output(tools::VulkanContext& /*context*/) override {
    std::fill_n(static_cast<uint32_t*>(captured_.mapped()), kCapturedBytes / 4, kPoisonWord);  // -6.3e18
  }

  std::optional<std::string> verify_output(tools::VulkanContext& /*context*/) override {
    const float* values = static_cast<const float*>(captured_.mapped());
    for (uint32_t vertex = 0; vertex < kVertices; ++vertex) {
      const std::array<float, kCapturedFloats> want = captured(vertex);
      for (uint32_t i = 0; i < kCapturedFloats; ++i) {
        const float got = values[size_t(vertex) * kCapturedFloats + i];
        if (got == want[i]) continue;  // == so that -0 and +0 (sums in another order) agree
        char text[128];
        std::snprintf(text, sizeof text, "vertex %u float %u: got %g, expected %g", vertex, i, got, want[i]);
        return std::string(text);
      }
    }
    return std::nullopt;
  }

 private:
  const TransformFeedbackCommands commands_;
  RenderTarget target_;
  GraphicsPipeline pipeline_;
  tools::Buffer captured_;
  std::unique_ptr<tools::Buffer> positions_;
};

}  // namespace

KILN_BENCH_SCENARIO(XfbCapture1M, "xfb_capture_1m", "Mvertices/s",
                    "transform feedback: 1 Mi points' clip position + one vec4 (stride 32) captured from the vertex "
                    "shader, rasterizer discard; needs VK_EXT_transform_feedback");

}  // namespace kiln::bench
