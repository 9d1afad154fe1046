#include "e2e/transform_feedback_fixture.h"

#include <stdexcept>
#include <vector>

namespace kiln::test {

void TransformFeedbackTest::SetUp() {
  VulkanTest::SetUp();
  if (HasFatalFailure()) return;
  const bool has_extension =
      query_extension_features(physical_device(), VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME, supported_);
  REQUIRE_ON_KILN(has_extension, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
  REQUIRE_ON_KILN(supported_.transformFeedback, "transformFeedback");
  VkPhysicalDeviceProperties2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties_};
  vkGetPhysicalDeviceProperties2(physical_device(), &query);
  properties_.pNext = nullptr;
}

std::string TransformFeedbackTest::missing_feature(const XfbFeatures& wanted) {
  const VkPhysicalDeviceFeatures& core = features().core.features;
  if ((wanted.geometry_shader || wanted.geometry_streams) && !core.geometryShader) return "geometryShader";
  if (wanted.tessellation && !core.tessellationShader) return "tessellationShader";
  if (wanted.geometry_streams && !supported_.geometryStreams) return "geometryStreams";
  if (wanted.geometry_streams && properties_.maxTransformFeedbackStreams < 2) return "two vertex streams";
  if (wanted.queries && !properties_.transformFeedbackQueries) return "transformFeedbackQueries";
  if (wanted.draw && !properties_.transformFeedbackDraw) return "transformFeedbackDraw";
  if ((wanted.rasterization_stream_select || wanted.dynamic_rasterization_stream) &&
      !properties_.transformFeedbackRasterizationStreamSelect)
    return "transformFeedbackRasterizationStreamSelect";
  if (wanted.dynamic_rasterization_stream) {
    VkPhysicalDeviceExtendedDynamicState3FeaturesEXT f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
    if (!query_extension_features(physical_device(), VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, f))
      return VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME;
    if (!f.extendedDynamicState3RasterizationStream) return "extendedDynamicState3RasterizationStream";
  }
  if (properties_.maxTransformFeedbackBuffers < wanted.buffers)
    return std::to_string(wanted.buffers) + " transform feedback buffers";
  if (wanted.statistics && !core.pipelineStatisticsQuery) return "pipelineStatisticsQuery";
  if (wanted.float64 && !core.shaderFloat64) return "shaderFloat64";
  if (wanted.preserves_provoking_vertex || wanted.provoking_vertex_last) {
    VkPhysicalDeviceProvokingVertexFeaturesEXT f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
    if (!query_extension_features(physical_device(), VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME, f))
      return VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME;
    if (wanted.preserves_provoking_vertex && !f.transformFeedbackPreservesProvokingVertex)
      return "transformFeedbackPreservesProvokingVertex";
    if (wanted.provoking_vertex_last && !f.provokingVertexLast) return "provokingVertexLast";
  }
  if (wanted.primitives_generated || wanted.primitives_generated_with_discard ||
      wanted.primitives_generated_non_zero_streams) {
    VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT f{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT};
    if (!query_extension_features(physical_device(), VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME, f))
      return VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME;
    if (!f.primitivesGeneratedQuery) return "primitivesGeneratedQuery";
    if (wanted.primitives_generated_with_discard && !f.primitivesGeneratedQueryWithRasterizerDiscard)
      return "primitivesGeneratedQueryWithRasterizerDiscard";
    if (wanted.primitives_generated_non_zero_streams && !f.primitivesGeneratedQueryWithNonZeroStreams)
      return "primitivesGeneratedQueryWithNonZeroStreams";
  }
  return "";
}

TestDevice& TransformFeedbackTest::xfb_device(const XfbFeatures& wanted) {
  if (device_) return *device_;
  VkPhysicalDeviceFeatures& core = enabled_.core.features;
  core.geometryShader = wanted.geometry_shader || wanted.geometry_streams;
  core.tessellationShader = wanted.tessellation;
  core.pipelineStatisticsQuery = wanted.statistics;
  core.shaderFloat64 = wanted.float64;
  transform_feedback_.transformFeedback = VK_TRUE;
  transform_feedback_.geometryStreams = wanted.geometry_streams;
  std::vector<const char*> extensions{VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};
  // The chain: v13 → transform feedback → [provoking vertex] → [primitives generated] → [dynamic state 3].
  enabled_.v13.pNext = &transform_feedback_;
  void** tail = &transform_feedback_.pNext;
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  const bool preserves = query_extension_features(physical_device(), VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME, provoking) &&
                         provoking.transformFeedbackPreservesProvokingVertex;
  if (preserves || wanted.provoking_vertex_last) {
    provoking_vertex_.transformFeedbackPreservesProvokingVertex = preserves;
    provoking_vertex_.provokingVertexLast = wanted.provoking_vertex_last;
    *tail = &provoking_vertex_;
    tail = &provoking_vertex_.pNext;
    extensions.push_back(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME);
  }
  if (wanted.primitives_generated || wanted.primitives_generated_with_discard ||
      wanted.primitives_generated_non_zero_streams) {
    primitives_generated_.primitivesGeneratedQuery = VK_TRUE;
    primitives_generated_.primitivesGeneratedQueryWithRasterizerDiscard = wanted.primitives_generated_with_discard;
    primitives_generated_.primitivesGeneratedQueryWithNonZeroStreams = wanted.primitives_generated_non_zero_streams;
    *tail = &primitives_generated_;
    tail = &primitives_generated_.pNext;
    extensions.push_back(VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME);
  }
  if (wanted.dynamic_rasterization_stream) {
    dynamic_state3_.extendedDynamicState3RasterizationStream = VK_TRUE;
    *tail = &dynamic_state3_;
    tail = &dynamic_state3_.pNext;
    extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME);
  }
  device_ = create_device(enabled_, extensions);
  if (!device_) throw std::runtime_error("device with VK_EXT_transform_feedback");
  commands_ = std::make_unique<XfbCommands>(device_->handle());
  return *device_;
}

const XfbCommands& TransformFeedbackTest::xfb() const {
  if (!commands_) throw std::runtime_error("xfb() before xfb_device()");
  return *commands_;
}

DrawJobOptions xfb_options(const std::string& vertex_shader, VkPrimitiveTopology topology) {
  DrawJobOptions o;
  o.vertex_shader = vertex_shader;
  o.fragment_shader = "draw_flat.frag";
  o.topology = topology;
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.width = o.height = kXfbTargetSize;
  return o;
}

void record_capture_pass(VkCommandBuffer cb, const XfbCommands& xfb, DrawJob& job, const std::vector<XfbBinding>& bindings,
                         const std::function<void(VkCommandBuffer)>& draw, const std::vector<CounterSlot>& resume,
                         const std::vector<CounterSlot>& save, const VkClearColorValue& clear) {
  job.record_pass(cb, clear, [&](VkCommandBuffer cb) {
    xfb.bind(cb, bindings);
    xfb.begin(cb, resume);
    draw(cb);
    xfb.end(cb, save);
  });
}

void capture_pass(TestDevice& device, const XfbCommands& xfb, DrawJob& job, const std::vector<XfbBinding>& bindings,
                  const std::function<void(VkCommandBuffer)>& draw, const std::vector<CounterSlot>& save,
                  const VkClearColorValue& clear) {
  device.run_commands([&](VkCommandBuffer cb) {
    record_capture_pass(cb, xfb, job, bindings, draw, {}, save, clear);
    xfb_to_host_barrier(cb);
  });
}

}  // namespace kiln::test
