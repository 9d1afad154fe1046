#include "e2e/geometry_fixture.h"

#include <stdexcept>

#include "e2e/draw_scene.h"

namespace kiln::test {

void GeometryTest::SetUp() {
  VulkanTest::SetUp();
  if (HasFatalFailure()) return;
  // Skipped on drivers without the feature; Kiln must have it.
  REQUIRE_ON_KILN(features().core.features.geometryShader, "geometryShader");
}

std::string GeometryTest::missing_feature(const GeometryFeatures& wanted) {
  const VkPhysicalDeviceFeatures& core = features().core.features;
  if (wanted.multi_viewport && !core.multiViewport) return "multiViewport";
  if (wanted.multiview && !(features().v11.multiview && features().v11.multiviewGeometryShader))
    return "multiview and multiviewGeometryShader";
  if (wanted.tessellation && !core.tessellationShader) return "tessellationShader";
  if (wanted.statistics && !core.pipelineStatisticsQuery) return "pipelineStatisticsQuery";
  if (wanted.point_size && !core.shaderTessellationAndGeometryPointSize) return "shaderTessellationAndGeometryPointSize";
  if (wanted.vertex_stores && !core.vertexPipelineStoresAndAtomics) return "vertexPipelineStoresAndAtomics";
  if (wanted.float64 && !core.shaderFloat64) return "shaderFloat64";
  if (wanted.clip_distance && !core.shaderClipDistance) return "shaderClipDistance";
  if (wanted.provoking_vertex_last) {
    VkPhysicalDeviceProvokingVertexFeaturesEXT f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
    if (!query_extension_features(physical_device(), VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME, f) ||
        !f.provokingVertexLast)
      return "VK_EXT_provoking_vertex's provokingVertexLast";
  }
  return "";
}

TestDevice& GeometryTest::geometry_device(const GeometryFeatures& extras) {
  if (device_) return *device_;
  VkPhysicalDeviceFeatures& core = enabled_.core.features;
  core.geometryShader = VK_TRUE;
  core.multiViewport = extras.multi_viewport;
  enabled_.v11.multiview = enabled_.v11.multiviewGeometryShader = extras.multiview;
  core.tessellationShader = extras.tessellation;
  core.pipelineStatisticsQuery = extras.statistics;
  core.shaderTessellationAndGeometryPointSize = extras.point_size;
  core.vertexPipelineStoresAndAtomics = extras.vertex_stores;
  core.shaderFloat64 = extras.float64;
  core.shaderClipDistance = extras.clip_distance;
  std::vector<const char*> extensions;
  if (extras.provoking_vertex_last) {
    provoking_vertex_.provokingVertexLast = VK_TRUE;
    enabled_.v13.pNext = &provoking_vertex_;
    extensions.push_back(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME);
  }
  device_ = create_device(enabled_, extensions);
  if (!device_) throw std::runtime_error("device with geometryShader");
  return *device_;
}

DrawJobOptions colored_geometry_options(const std::string& geometry_shader) {
  DrawJobOptions o = colored_options();
  o.geometry_shader = geometry_shader;
  o.fragment_shader = "draw_flat.frag";
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.width = o.height = kGeometryTargetSize;
  return o;
}

DrawJobOptions vertex_index_geometry_options(const std::string& geometry_shader) {
  DrawJobOptions o;
  o.vertex_shader = "geom_vertex_index.vert";
  o.geometry_shader = geometry_shader;
  o.fragment_shader = "draw_flat.frag";
  o.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.width = o.height = kGeometryTargetSize;
  return o;
}

}  // namespace kiln::test
