#pragma once
// The fixture of the transform feedback tests (transform_feedback_*_test.cpp): a device with
// VK_EXT_transform_feedback (and VK_EXT_primitives_generated_query, VK_EXT_provoking_vertex where a
// test needs them) with the features each test asks for, and the extension's entry points. Their
// shaders are tests/shaders/xfb_*; the plumbing they share is transform_feedback.h.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/transform_feedback.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {

// The tests' colour targets are kXfbTargetSize² RGBA32F pixels.
inline constexpr uint32_t kXfbTargetSize = 64;

// What a test needs beyond VK_EXT_transform_feedback's transformFeedback.
struct XfbFeatures {
  bool geometry_shader = false;              // geometryShader
  bool tessellation = false;                 // tessellationShader
  bool geometry_streams = false;             // geometryStreams (+ geometryShader, two streams)
  bool queries = false;                      // transformFeedbackQueries (a property)
  bool draw = false;                         // transformFeedbackDraw (a property)
  bool rasterization_stream_select = false;  // transformFeedbackRasterizationStreamSelect (a property)
  // VK_EXT_extended_dynamic_state3's extendedDynamicState3RasterizationStream (and the above).
  bool dynamic_rasterization_stream = false;
  uint32_t buffers = 1;                      // maxTransformFeedbackBuffers at least this
  bool statistics = false;                   // pipelineStatisticsQuery
  bool float64 = false;                      // shaderFloat64
  // VK_EXT_provoking_vertex: transformFeedbackPreservesProvokingVertex, and provokingVertexLast.
  bool preserves_provoking_vertex = false;
  bool provoking_vertex_last = false;
  // VK_EXT_primitives_generated_query: primitivesGeneratedQuery, and the two features beyond it.
  bool primitives_generated = false;
  bool primitives_generated_with_discard = false;
  bool primitives_generated_non_zero_streams = false;
};

class TransformFeedbackTest : public VulkanTest {
 protected:
  // Skips every test when the driver lacks VK_EXT_transform_feedback.
  void SetUp() override;
  // The first of `wanted`'s features the driver lacks, "" when it has them all.
  std::string missing_feature(const XfbFeatures& wanted);
  // A device with VK_EXT_transform_feedback and `wanted` (made on the first call; later calls
  // return it). transformFeedbackPreservesProvokingVertex is enabled whenever the driver has it.
  TestDevice& xfb_device(const XfbFeatures& wanted = {});
  // Whether the device writes every primitive's vertices in the exact order of its topology,
  // provoking vertex first (transformFeedbackPreservesProvokingVertex enabled); otherwise a
  // primitive may start at any of its vertices (put_primitives' exact_order).
  bool exact_vertex_order() const { return provoking_vertex_.transformFeedbackPreservesProvokingVertex; }
  // The extension's commands on xfb_device() (call that first).
  const XfbCommands& xfb() const;
  const VkPhysicalDeviceTransformFeedbackPropertiesEXT& xfb_properties() const { return properties_; }

 private:
  VkPhysicalDeviceTransformFeedbackFeaturesEXT supported_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
  VkPhysicalDeviceTransformFeedbackPropertiesEXT properties_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
  DeviceFeatures enabled_;
  VkPhysicalDeviceTransformFeedbackFeaturesEXT transform_feedback_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking_vertex_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT primitives_generated_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT};
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT dynamic_state3_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  TestDevice* device_ = nullptr;
  std::unique_ptr<XfbCommands> commands_;
};

// `vertex_shader` (and draw_flat.frag: a flat vec4 at Location 0) drawing `topology` into a
// kXfbTargetSize² RGBA32F target.
DrawJobOptions xfb_options(const std::string& vertex_shader, VkPrimitiveTopology topology);

// Inside `cb`: one render pass of `job` (cleared to `clear`) with `bindings` bound and transform
// feedback active around `draw`: begun with `resume` counters, ended saving `save` counters.
void record_capture_pass(VkCommandBuffer cb, const XfbCommands& xfb, DrawJob& job, const std::vector<XfbBinding>& bindings,
                         const std::function<void(VkCommandBuffer)>& draw, const std::vector<CounterSlot>& resume = {},
                         const std::vector<CounterSlot>& save = {}, const VkClearColorValue& clear = kBlack);
// record_capture_pass() (no counters resumed) in a command buffer of its own, the captured bytes
// made visible to the host, waited for.
void capture_pass(TestDevice& device, const XfbCommands& xfb, DrawJob& job, const std::vector<XfbBinding>& bindings,
                  const std::function<void(VkCommandBuffer)>& draw, const std::vector<CounterSlot>& save = {},
                  const VkClearColorValue& clear = kBlack);

// Skips the test when the driver lacks a feature of `features` (an XfbFeatures); on Kiln a
// missing one is a failure.
#define REQUIRE_XFB_FEATURES(features) \
  REQUIRE_ON_KILN(missing_feature(features).empty(), missing_feature(features))

}  // namespace kiln::test
