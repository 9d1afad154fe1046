#pragma once
// The fixture of the mesh shader tests (mesh_shader_*_test.cpp, shaders tests/shaders/mesh_*):
// a device with VK_EXT_mesh_shader's meshShader and whichever related features a test needs, the
// draw options the tests share, query helpers and comparisons of a mesh draw with the same scene
// drawn by a vertex shader. Without VK_EXT_mesh_shader (or its meshShader feature) every test is
// skipped, on every driver: lavapipe of Mesa 22.3 has none, nor had Kiln when these were written.
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/reference_image.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {

// The tests' targets are kMeshTargetSize² RGBA32F pixels unless they say otherwise.
inline constexpr uint32_t kMeshTargetSize = 32;

// Features beyond meshShader a test's device enables; the test skips when one is missing.
struct MeshFeatures {
  bool task = false;            // taskShader
  bool queries = false;         // meshShaderQueries + pipelineStatisticsQuery
  bool multiview = false;       // multiview + multiviewMeshShader, maxMeshMultiviewViewCount >= 2
  bool multi_viewport = false;  // multiViewport
  bool indirect = false;        // multiDrawIndirect + drawIndirectCount
  bool draw_index = false;      // shaderDrawParameters: glslang gives gl_DrawID the DrawParameters capability
  // geometryShader: glslang declares the Geometry capability for a fragment shader reading
  // gl_PrimitiveID or gl_Layer, and Vulkan ties that capability to the feature.
  bool fragment_primitive_builtins = false;
  bool large_points = false;    // largePoints, and point sizes up to 5 in pointSizeRange
  bool task_subgroups = false;  // basic and arithmetic subgroup operations in task shaders (nothing to enable)
};

// VK_EXT_mesh_shader's drawing commands (extension commands: the loader does not export them).
struct MeshCommands {
  PFN_vkCmdDrawMeshTasksEXT draw = nullptr;
  PFN_vkCmdDrawMeshTasksIndirectEXT draw_indirect = nullptr;
  PFN_vkCmdDrawMeshTasksIndirectCountEXT draw_indirect_count = nullptr;
};

class MeshShaderTest : public VulkanTest {
 protected:
  // Skips the test unless the device lists VK_EXT_mesh_shader with meshShader.
  void SetUp() override;
  // The first feature of `wanted` the device lacks, "" when it has them all.
  std::string missing_feature(const MeshFeatures& wanted);
  // A device with VK_EXT_mesh_shader, meshShader and `extras` (made on the first call; later
  // calls return it).
  TestDevice& mesh_device(const MeshFeatures& extras = {});
  // The drawing commands of mesh_device().
  const MeshCommands& mesh_commands() {
    mesh_device();
    return commands_;
  }

  // A query pool on mesh_device() and the 64-bit results (`values` per query) of its queries
  // [0, count), waited for.
  VkQueryPool create_query_pool(VkQueryType type, uint32_t count, VkQueryPipelineStatisticFlags statistics = 0);
  std::vector<uint64_t> query_results(VkQueryPool pool, uint32_t count, uint32_t values = 1);

 private:
  DeviceFeatures enabled_;
  VkPhysicalDeviceMeshShaderFeaturesEXT supported_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT};
  VkPhysicalDeviceMeshShaderFeaturesEXT mesh_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT};
  TestDevice* device_ = nullptr;
  MeshCommands commands_;
};

// Skips the test when the device lacks a feature of `features` (a MeshFeatures).
#define REQUIRE_MESH_FEATURES(features)                                                  \
  do {                                                                                   \
    const std::string missing_ = missing_feature(features);                              \
    if (!missing_.empty()) GTEST_SKIP() << properties().deviceName << " lacks " << missing_; \
  } while (0)

// Mesh shader `mesh_shader` (and task shader `task_shader` when not empty) with
// `fragment_shader` into a kMeshTargetSize² RGBA32F target.
DrawJobOptions mesh_options(const std::string& mesh_shader, const std::string& fragment_shader,
                            const std::string& task_shader = "");

// A buffer of `usage` holding `data`.
template <typename T>
Buffer buffer_with(TestDevice& device, const std::vector<T>& data, VkBufferUsageFlags usage) {
  Buffer buffer = device.create_buffer(sizeof(T) * data.size(), usage);
  std::memcpy(buffer.mapped, data.data(), sizeof(T) * data.size());
  return buffer;
}

// The classic pipeline's half of a comparison: `vertices` and 32-bit `indices` as vertex and
// index buffers drawn with one vkCmdDrawIndexed through `o` (a colored_options() variant: its
// vertex shader, topology, blending) into a target cleared to black; returns read_rgba32f.
std::vector<float> draw_indexed(TestDevice& device, const DrawJobOptions& o, const std::vector<ColoredVertex>& vertices,
                                const std::vector<uint32_t>& indices);

// colored_options() (vertex shader `vertex_shader`, fragment shader `fragment_shader`) into the
// same kMeshTargetSize² RGBA32F target as mesh_options().
DrawJobOptions classic_options(const std::string& vertex_shader, const std::string& fragment_shader);

// Clip-space coordinate of pixel coordinate `pixel` of a kMeshTargetSize-wide target.
inline float mesh_clip(float pixel) { return clip_coordinate(pixel, kMeshTargetSize); }

// The cell grids most tests draw on (mesh_cells.glsl has the shaders' half): cell c of a grid of
// 8 x 8-pixel cells, `columns` cells a row, holds a quad with corners k = 0 .. 3 at (x, y),
// (x + 6, y), (x + 6, y + 5), (x, y + 5) pixels, x = 8 (c % columns) + 1, y = 8 (c / columns) + 1,
// made of two triangles: t = 0 with corners (0, 1, 3) and t = 1 with corners (2, 3, 1). Their
// edges miss every pixel centre, so each covers exactly the pixels ReferenceImage gives it.
inline constexpr uint32_t kCellColumns = kMeshTargetSize / 8;
inline constexpr uint32_t kCellTriangleCorners[2][3] = {{0, 1, 3}, {2, 3, 1}};
PixelPoint cell_corner(uint32_t cell, uint32_t corner, uint32_t columns = kCellColumns);
void fill_cell_triangle(ReferenceImage& image, uint32_t cell, uint32_t triangle, const Rgba& color,
                        uint32_t columns = kCellColumns);

// The number of pixels of `image` (read_rgba32f) that differ from `clear`.
uint32_t covered_pixels(const std::vector<float>& image, const Rgba& clear = {0, 0, 0, 0});

// Compares two images (read_rgba32f) of width x height pixels exactly, channel by channel, with
// failures grouped under `what`; for a mesh draw against the same scene drawn by a vertex shader.
void expect_same_pixels(const std::vector<float>& got, const std::vector<float>& want, const std::string& what,
                        uint32_t width = kMeshTargetSize, uint32_t height = kMeshTargetSize);

}  // namespace kiln::test
