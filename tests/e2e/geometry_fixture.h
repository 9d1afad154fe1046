#pragma once
// The fixture of the geometry shader tests (geometry_*_test.cpp): a device with geometryShader
// and whichever related features a test needs, and the draw options the tests share (their
// shaders are tests/shaders/geom_*). Without geometryShader every test is skipped, on Kiln too
// until it implements geometry shaders.
#include <string>

#include "e2e/draw_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {

// The tests' targets are kGeometryTargetSize² pixels unless they say otherwise.
inline constexpr uint32_t kGeometryTargetSize = 64;

// Features beyond geometryShader a test's device enables.
struct GeometryFeatures {
  bool multi_viewport = false;         // multiViewport
  bool multiview = false;              // multiview + multiviewGeometryShader
  bool tessellation = false;           // tessellationShader
  bool statistics = false;             // pipelineStatisticsQuery
  bool point_size = false;             // shaderTessellationAndGeometryPointSize
  bool vertex_stores = false;          // vertexPipelineStoresAndAtomics
  bool provoking_vertex_last = false;  // VK_EXT_provoking_vertex's provokingVertexLast
  bool float64 = false;                // shaderFloat64
  bool clip_distance = false;          // shaderClipDistance
};

class GeometryTest : public VulkanTest {
 protected:
  void SetUp() override;
  // The first feature of `wanted` the device lacks, "" when it has them all.
  std::string missing_feature(const GeometryFeatures& wanted);
  // A device with geometryShader and `extras` (made on the first call; later calls return it).
  TestDevice& geometry_device(const GeometryFeatures& extras = {});

 private:
  DeviceFeatures enabled_;
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking_vertex_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  TestDevice* device_ = nullptr;
};

// Skips the test when the device lacks a feature of `features` (a GeometryFeatures); on Kiln, which
// has them all for the other stages, a missing one is a failure.
#define REQUIRE_GEOMETRY_FEATURES(features) \
  REQUIRE_ON_KILN(missing_feature(features).empty(), missing_feature(features))

// colored_options() (draw_colored.vert: position and colour attributes) with geometry shader
// `geometry_shader` and draw_flat.frag (the geometry shader's Location 0 output, flat), into a
// kGeometryTargetSize² RGBA32F target.
DrawJobOptions colored_geometry_options(const std::string& geometry_shader);

// geom_vertex_index.vert (no attributes: VertexIndex as a flat int, position (0, 0, 0, 1)) with
// `geometry_shader` and draw_flat.frag into a kGeometryTargetSize² RGBA32F target, point list.
DrawJobOptions vertex_index_geometry_options(const std::string& geometry_shader);

}  // namespace kiln::test
