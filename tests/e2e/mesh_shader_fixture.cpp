#include "e2e/mesh_shader_fixture.h"

#include <stdexcept>

namespace kiln::test {

void MeshShaderTest::SetUp() {
  VulkanTest::SetUp();
  if (HasFatalFailure()) return;
  if (!query_extension_features(physical_device(), VK_EXT_MESH_SHADER_EXTENSION_NAME, supported_))
    GTEST_SKIP() << properties().deviceName << " does not list VK_EXT_mesh_shader";
  if (!supported_.meshShader) GTEST_SKIP() << properties().deviceName << " lists VK_EXT_mesh_shader without meshShader";
}

std::string MeshShaderTest::missing_feature(const MeshFeatures& wanted) {
  const VkPhysicalDeviceFeatures& core = features().core.features;
  if (wanted.task && !supported_.taskShader) return "taskShader";
  if (wanted.queries && !(supported_.meshShaderQueries && core.pipelineStatisticsQuery))
    return "meshShaderQueries and pipelineStatisticsQuery";
  if (wanted.multiview) {
    if (!(supported_.multiviewMeshShader && features().v11.multiview)) return "multiview and multiviewMeshShader";
    VkPhysicalDeviceMeshShaderPropertiesEXT mesh{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &mesh};
    vkGetPhysicalDeviceProperties2(physical_device(), &properties2);
    if (mesh.maxMeshMultiviewViewCount < 2) return "maxMeshMultiviewViewCount >= 2";
  }
  if (wanted.multi_viewport && !core.multiViewport) return "multiViewport";
  if (wanted.indirect && !(core.multiDrawIndirect && features().v12.drawIndirectCount))
    return "multiDrawIndirect and drawIndirectCount";
  if (wanted.draw_index && !features().v11.shaderDrawParameters) return "shaderDrawParameters";
  if (wanted.fragment_primitive_builtins && !core.geometryShader)
    return "geometryShader (the Geometry capability of gl_PrimitiveID and gl_Layer in fragment shaders)";
  if (wanted.large_points && !(core.largePoints && properties().limits.pointSizeRange[1] >= 5.0f))
    return "largePoints up to size 5";
  if (wanted.task_subgroups) {
    VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p11};
    vkGetPhysicalDeviceProperties2(physical_device(), &properties2);
    const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    if (!(p11.subgroupSupportedStages & VK_SHADER_STAGE_TASK_BIT_EXT) ||
        (p11.subgroupSupportedOperations & needed) != needed)
      return "basic and arithmetic subgroup operations in task shaders";
  }
  return "";
}

TestDevice& MeshShaderTest::mesh_device(const MeshFeatures& extras) {
  if (device_) return *device_;
  mesh_.meshShader = VK_TRUE;
  mesh_.taskShader = extras.task;
  mesh_.multiviewMeshShader = extras.multiview;
  mesh_.meshShaderQueries = extras.queries;
  VkPhysicalDeviceFeatures& core = enabled_.core.features;
  core.pipelineStatisticsQuery = extras.queries;
  core.multiViewport = extras.multi_viewport;
  core.multiDrawIndirect = extras.indirect;
  core.geometryShader = extras.fragment_primitive_builtins;
  core.largePoints = extras.large_points;
  enabled_.v11.multiview = extras.multiview;
  enabled_.v11.shaderDrawParameters = extras.draw_index;
  enabled_.v12.drawIndirectCount = extras.indirect;
  enabled_.v13.pNext = &mesh_;
  device_ = create_device(enabled_, {VK_EXT_MESH_SHADER_EXTENSION_NAME});
  if (!device_) throw std::runtime_error("device with VK_EXT_mesh_shader");
  const VkDevice d = device_->handle();
  commands_.draw = reinterpret_cast<PFN_vkCmdDrawMeshTasksEXT>(vkGetDeviceProcAddr(d, "vkCmdDrawMeshTasksEXT"));
  commands_.draw_indirect =
      reinterpret_cast<PFN_vkCmdDrawMeshTasksIndirectEXT>(vkGetDeviceProcAddr(d, "vkCmdDrawMeshTasksIndirectEXT"));
  commands_.draw_indirect_count = reinterpret_cast<PFN_vkCmdDrawMeshTasksIndirectCountEXT>(
      vkGetDeviceProcAddr(d, "vkCmdDrawMeshTasksIndirectCountEXT"));
  if (!commands_.draw || !commands_.draw_indirect || !commands_.draw_indirect_count)
    throw std::runtime_error("vkGetDeviceProcAddr returned null for a vkCmdDrawMeshTasks*EXT command");
  return *device_;
}

VkQueryPool MeshShaderTest::create_query_pool(VkQueryType type, uint32_t count, VkQueryPipelineStatisticFlags statistics) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = type;
  info.queryCount = count;
  info.pipelineStatistics = statistics;
  TestDevice& device = mesh_device();
  VkQueryPool pool = VK_NULL_HANDLE;
  require(vkCreateQueryPool(device.handle(), &info, nullptr, &pool), "vkCreateQueryPool");
  const VkDevice handle = device.handle();
  device.defer_destroy([handle, pool] { vkDestroyQueryPool(handle, pool, nullptr); });
  return pool;
}

std::vector<uint64_t> MeshShaderTest::query_results(VkQueryPool pool, uint32_t count, uint32_t values) {
  std::vector<uint64_t> results(size_t{count} * values, 0xDEADBEEFull);
  EXPECT_EQ(VK_SUCCESS, vkGetQueryPoolResults(mesh_device().handle(), pool, 0, count, results.size() * 8, results.data(),
                                              values * 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  return results;
}

DrawJobOptions mesh_options(const std::string& mesh_shader, const std::string& fragment_shader,
                            const std::string& task_shader) {
  DrawJobOptions o;
  o.task_shader = task_shader;
  o.mesh_shader = mesh_shader;
  o.fragment_shader = fragment_shader;
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.width = o.height = kMeshTargetSize;
  return o;
}

DrawJobOptions classic_options(const std::string& vertex_shader, const std::string& fragment_shader) {
  DrawJobOptions o = colored_options();
  o.vertex_shader = vertex_shader;
  o.fragment_shader = fragment_shader;
  o.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
  o.width = o.height = kMeshTargetSize;
  return o;
}

std::vector<float> draw_indexed(TestDevice& device, const DrawJobOptions& o, const std::vector<ColoredVertex>& vertices,
                                const std::vector<uint32_t>& indices) {
  DrawJob job(device, o);
  require(job.pipeline_result(), "vkCreateGraphicsPipelines (the classic reference pipeline)");
  const Buffer vb = buffer_with(device, vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  const Buffer ib = buffer_with(device, indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cb, uint32_t(indices.size()), 1, 0, 0, 0);
  });
  return read_rgba32f(job);
}

PixelPoint cell_corner(uint32_t cell, uint32_t corner, uint32_t columns) {
  constexpr float kOffsets[4][2] = {{0, 0}, {6, 0}, {6, 5}, {0, 5}};
  return {float(8 * (cell % columns) + 1) + kOffsets[corner][0], float(8 * (cell / columns) + 1) + kOffsets[corner][1]};
}

void fill_cell_triangle(ReferenceImage& image, uint32_t cell, uint32_t triangle, const Rgba& color, uint32_t columns) {
  const uint32_t* corners = kCellTriangleCorners[triangle];
  image.fill_triangle({cell_corner(cell, corners[0], columns), cell_corner(cell, corners[1], columns),
                       cell_corner(cell, corners[2], columns)},
                      color);
}

uint32_t covered_pixels(const std::vector<float>& image, const Rgba& clear) {
  uint32_t covered = 0;
  for (size_t i = 0; i + 4 <= image.size(); i += 4)
    if (image[i] != clear[0] || image[i + 1] != clear[1] || image[i + 2] != clear[2] || image[i + 3] != clear[3])
      ++covered;
  return covered;
}

void expect_same_pixels(const std::vector<float>& got, const std::vector<float>& want, const std::string& what,
                        uint32_t width, uint32_t height) {
  const size_t pixels = size_t{width} * height;
  ASSERT_EQ(got.size(), pixels * 4) << what << ": mesh image size";
  ASSERT_EQ(want.size(), pixels * 4) << what << ": reference image size";
  static const char* const kChannels[4] = {"red", "green", "blue", "alpha"};
  PixelCheck failures(width, height);
  for (size_t i = 0; i < pixels; ++i)
    for (int c = 0; c < 4; ++c) failures.expect_eq(i, got[i * 4 + c], want[i * 4 + c], what + " " + kChannels[c]);
}

}  // namespace kiln::test
