// VkPipelineCache carries compiled kernels across processes: a second process given the data
// creates the pipeline without compiling (Kiln logs the hit at KILN_LOG=info) and it computes
// the same results.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"
#include "shaders/test_shaders.h"

namespace kiln::test {
namespace {

class PipelineCacheTest : public VulkanTest {};

// Creates the saxpy pipeline with `cache`, runs it over 256 elements and checks the result.
void run_saxpy(TestDevice& device, VkPipelineCache cache) {
  std::vector<uint32_t> words = kiln_test_shader("saxpy.comp");
  VkDevice d = device.handle();
  const VkDescriptorSetLayoutBinding bindings[] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 3, bindings};
  VkDescriptorSetLayout set_layout;
  ASSERT_EQ(vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &set_layout};
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout), VK_SUCCESS);
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, words.size() * 4, words.data()};
  VkShaderModule module;
  ASSERT_EQ(vkCreateShaderModule(d, &module_info, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  info.layout = layout;
  VkPipeline pipeline;
  ASSERT_EQ(vkCreateComputePipelines(d, cache, 1, &info, nullptr, &pipeline), VK_SUCCESS);
  vkDestroyShaderModule(d, module, nullptr);

  Buffer x = device.create_buffer(256 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer y = device.create_buffer(256 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer params = device.create_buffer(8, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  for (uint32_t i = 0; i < 256; ++i) {
    reinterpret_cast<float*>(x.mapped)[i] = static_cast<float>(i);
    reinterpret_cast<float*>(y.mapped)[i] = 1.0f;
  }
  const float a = 2.0f;
  const uint32_t n = 256;
  memcpy(params.mapped, &a, 4);
  memcpy(params.mapped + 4, &n, 4);
  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 2, sizes};
  VkDescriptorPool pool;
  ASSERT_EQ(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool), VK_SUCCESS);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &set_layout};
  VkDescriptorSet set;
  ASSERT_EQ(vkAllocateDescriptorSets(d, &alloc, &set), VK_SUCCESS);
  VkDescriptorBufferInfo infos[] = {{x.buffer, 0, VK_WHOLE_SIZE}, {y.buffer, 0, VK_WHOLE_SIZE}, {params.buffer, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[3];
  for (uint32_t i = 0; i < 3; ++i)
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, i, 0, 1, bindings[i].descriptorType, nullptr, &infos[i]};
  vkUpdateDescriptorSets(d, 3, writes, 0, nullptr);
  device.run_commands([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, 4, 1, 1);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  });
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(reinterpret_cast<float*>(y.mapped)[i], 2.0f * i + 1.0f) << i;
  vkDestroyDescriptorPool(d, pool, nullptr);
  vkDestroyPipeline(d, pipeline, nullptr);
  vkDestroyPipelineLayout(d, layout, nullptr);
  vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
}

std::vector<uint8_t> cache_data(VkDevice device, VkPipelineCache cache) {
  size_t size = 0;
  EXPECT_EQ(vkGetPipelineCacheData(device, cache, &size, nullptr), VK_SUCCESS);
  std::vector<uint8_t> data(size);
  EXPECT_EQ(vkGetPipelineCacheData(device, cache, &size, data.data()), VK_SUCCESS);
  data.resize(size);
  return data;
}

TEST_F(PipelineCacheTest, HeaderIdentifiesTheDevice) {
  TestDevice& device = this->device();
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  VkPipelineCache cache;
  ASSERT_EQ(vkCreatePipelineCache(device.handle(), &info, nullptr, &cache), VK_SUCCESS);
  std::vector<uint8_t> data = cache_data(device.handle(), cache);
  ASSERT_GE(data.size(), sizeof(VkPipelineCacheHeaderVersionOne));
  VkPipelineCacheHeaderVersionOne header;
  memcpy(&header, data.data(), sizeof header);
  EXPECT_EQ(header.headerSize, sizeof header);
  EXPECT_EQ(header.headerVersion, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
  EXPECT_EQ(header.vendorID, device.properties().vendorID);
  EXPECT_EQ(0, memcmp(header.pipelineCacheUUID, device.properties().pipelineCacheUUID, VK_UUID_SIZE));
  // Too small a buffer: VK_INCOMPLETE, never an overflow.
  size_t small = 4;
  uint8_t byte[4];
  EXPECT_EQ(vkGetPipelineCacheData(device.handle(), cache, &small, byte), VK_INCOMPLETE);
  vkDestroyPipelineCache(device.handle(), cache, nullptr);
}

TEST_F(PipelineCacheTest, ASecondProcessCreatesThePipelineFromTheCacheData) {
  TestDevice& device = this->device();
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  VkPipelineCache cache;
  ASSERT_EQ(vkCreatePipelineCache(device.handle(), &info, nullptr, &cache), VK_SUCCESS);
  run_saxpy(device, cache);
  std::vector<uint8_t> data = cache_data(device.handle(), cache);
  vkDestroyPipelineCache(device.handle(), cache, nullptr);
  if (is_kiln()) EXPECT_GT(data.size(), sizeof(VkPipelineCacheHeaderVersionOne) + 256) << "no object code in the data";

  const std::string path = std::string(KILN_TEST_OUTPUT_DIR) + "/pipeline_cache.bin";
  std::system(("mkdir -p " + std::string(KILN_TEST_OUTPUT_DIR)).c_str());
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  const std::string command = "KILN_TEST_PIPELINE_CACHE_FILE=" + path +
                              " KILN_LOG=info /proc/" + std::to_string(getpid()) +
                              "/exe --gtest_filter=PipelineCacheChild.* 2>&1";
  FILE* child = popen(command.c_str(), "r");
  ASSERT_TRUE(child);
  std::string output;
  char chunk[4096];
  while (size_t n = fread(chunk, 1, sizeof chunk, child)) output.append(chunk, n);
  const int status = pclose(child);
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("[  PASSED  ] 1 test"), std::string::npos) << output;
  if (is_kiln()) {
    EXPECT_NE(output.find("linked from VkPipelineCache without compiling"), std::string::npos) << output;
    EXPECT_EQ(output.find("compiled in"), std::string::npos) << output;
  }
}

// Runs only as the child of the test above (it sets the file to load).
class PipelineCacheChild : public VulkanTest {};

TEST_F(PipelineCacheChild, CreatesThePipelineFromTheCacheFile) {
  const char* path = std::getenv("KILN_TEST_PIPELINE_CACHE_FILE");
  if (!path) GTEST_SKIP() << "runs as the child process of PipelineCacheTest";
  std::ifstream file(path, std::ios::binary);
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  TestDevice& device = this->device();
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, nullptr, 0, data.size(), data.data()};
  VkPipelineCache cache;
  ASSERT_EQ(vkCreatePipelineCache(device.handle(), &info, nullptr, &cache), VK_SUCCESS);
  run_saxpy(device, cache);
  vkDestroyPipelineCache(device.handle(), cache, nullptr);
}

// pipelineCreationCacheControl: FAIL_ON_PIPELINE_COMPILE_REQUIRED creates only pipelines that
// need no compilation. A specialization value no other test uses makes the kernel new to this
// process; once created normally it is linked, and the flag then succeeds on Kiln.
TEST_F(PipelineCacheTest, FailOnCompileRequiredCreatesOnlyWhatNeedsNoCompilation) {
  REQUIRE_ON_KILN(features().v13.pipelineCreationCacheControl, "pipelineCreationCacheControl");
  DeviceFeatures enabled;
  enabled.v13.pipelineCreationCacheControl = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  VkPipelineCacheCreateInfo cache_info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  cache_info.flags = VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT;
  VkPipelineCache cache;
  ASSERT_EQ(vkCreatePipelineCache(device.handle(), &cache_info, nullptr, &cache), VK_SUCCESS);
  struct CacheOwner {
    VkDevice device;
    VkPipelineCache cache;
    ~CacheOwner() { vkDestroyPipelineCache(device, cache, nullptr); }
  } owner{device.handle(), cache};
  struct {
    uint32_t width = 16, multiplier = 0x5EED;
    VkBool32 add = VK_FALSE;
    float offset = 0;
  } data;
  const VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
  const VkSpecializationInfo spec{4, entries, sizeof data, &data};
  const ComputePipelineOptions no_compile{.pipeline_flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT |
                                                            VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT,
                                          .cache = cache};
  {
    ComputeJob refused(device, "spec_constants.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0, &spec, no_compile);
    if (is_kiln()) EXPECT_EQ(refused.pipeline_result(), VK_PIPELINE_COMPILE_REQUIRED);
    else EXPECT_TRUE(refused.pipeline_result() == VK_PIPELINE_COMPILE_REQUIRED || refused.pipeline_result() == VK_SUCCESS);
  }
  {
    ComputeJob compiled(device, "spec_constants.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0, &spec, {.cache = cache});
    ASSERT_EQ(compiled.pipeline_result(), VK_SUCCESS);
  }
  ComputeJob linked(device, "spec_constants.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0, &spec, no_compile);
  if (!is_kiln() && linked.pipeline_result() == VK_PIPELINE_COMPILE_REQUIRED) GTEST_SKIP() << "the driver does not cache pipelines";
  ASSERT_EQ(linked.pipeline_result(), VK_SUCCESS);
  Buffer values = device.create_buffer(64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  for (uint32_t i = 0; i < 64; ++i) mapped_as<float>(values)[i] = static_cast<float>(i);
  linked.bind_buffer(0, values);
  linked.run(64 / data.width);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(mapped_as<float>(values)[i], i * float(0x5EED) + 16.0f) << i;
}

}  // namespace
}  // namespace kiln::test
