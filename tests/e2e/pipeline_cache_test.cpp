// VkPipelineCache carries compiled kernels across processes: a second process given the data
// creates the pipeline without compiling (Kiln logs the hit at KILN_LOG=info) and it computes
// the same results.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "e2e/compute_job.h"
#include "e2e/child_process.h"
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

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
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
  int status = 0;
  const std::string output = run_this_binary("KILN_TEST_PIPELINE_CACHE_FILE=" + path + " KILN_LOG=info", "PipelineCacheChild.*", &status);
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

// The on-disk cache (KILN_CACHE_DIR): a later process links what an earlier one compiled, a
// damaged file is compiled again, and processes filling one directory at once do not disturb each
// other. The workload is the ComputeTest suite (nine kernels) and a task + mesh pipeline (a task
// kernel once failed to load); each test checks its results.
class DiskCacheTest : public VulkanTest {
 protected:
  static constexpr const char* kWorkload = "ComputeTest.*:MeshShaderTest.TaskPayloadAndEmptyMeshGrids";
  void SetUp() override {
    VulkanTest::SetUp();
    if (!is_kiln()) GTEST_SKIP() << "Kiln's on-disk cache";
    directory_ = std::string(KILN_TEST_OUTPUT_DIR) + "/disk-cache-" + std::to_string(getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::system(("rm -rf " + directory_).c_str());
  }
  void TearDown() override {
    if (!directory_.empty()) std::system(("rm -rf " + directory_).c_str());
    VulkanTest::TearDown();
  }
  // The workload in a child process with the cache in `directory_`; its output (KILN_LOG=info).
  std::string run_workload() {
    int status = 0;
    std::string output = run_this_binary("KILN_CACHE_DIR=" + directory_ + " KILN_LOG=info", kWorkload, &status);
    EXPECT_EQ(status, 0) << output;
    EXPECT_EQ(output.find("FAILED"), std::string::npos) << output;
    return output;
  }
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    FILE* list = popen(("ls " + directory_ + " 2>/dev/null").c_str(), "r");
    char line[512];
    while (list && fgets(line, sizeof line, list)) names.push_back(directory_ + "/" + std::string(line, strcspn(line, "\n")));
    if (list) pclose(list);
    return names;
  }
  std::string directory_;
};

TEST_F(DiskCacheTest, ALaterProcessLinksWhatAnEarlierOneCompiled) {
  const std::string cold = run_workload();
  const size_t compiled = count_of(cold, "compiled in");
  EXPECT_GE(compiled, 5u) << cold;
  EXPECT_EQ(count_of(cold, "linked from the on-disk cache"), 0u) << cold;
  EXPECT_EQ(files().size(), compiled) << "one file per compiled kernel";
  const std::string warm = run_workload();
  EXPECT_EQ(count_of(warm, "compiled in"), 0u) << warm;
  EXPECT_EQ(count_of(warm, "linked from the on-disk cache"), compiled) << warm;
}

TEST_F(DiskCacheTest, DamagedFilesAreCompiledAgainAndReplaced) {
  const size_t compiled = count_of(run_workload(), "compiled in");
  const std::vector<std::string> stored = files();
  ASSERT_FALSE(stored.empty());
  for (size_t i = 0; i < stored.size(); ++i) {
    std::fstream file(stored[i], std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(0, std::ios::end);
    const std::streamoff size = file.tellg();
    file.seekp(i % 2 ? size / 2 : size - 1);  // the middle or the last byte of the object code
    file.put('\x77');
  }
  const std::string repaired = run_workload();
  EXPECT_EQ(count_of(repaired, "is damaged or not for this CPU; removed"), stored.size()) << repaired;
  EXPECT_EQ(count_of(repaired, "compiled in"), compiled) << repaired;
  EXPECT_EQ(count_of(run_workload(), "compiled in"), 0u) << "the replacements are whole";
}

TEST_F(DiskCacheTest, TwoProcessesFillOneDirectoryAtOnce) {
  const std::string command = "KILN_CACHE_DIR=" + directory_ + " KILN_LOG=info /proc/" + std::to_string(getpid()) +
                              "/exe --gtest_filter=" + kWorkload + " 2>&1";
  FILE* first = popen(command.c_str(), "r");
  FILE* second = popen(command.c_str(), "r");
  ASSERT_TRUE(first && second);
  for (FILE* child : {first, second}) {
    std::string output;
    char chunk[4096];
    while (size_t n = fread(chunk, 1, sizeof chunk, child)) output.append(chunk, n);
    EXPECT_EQ(pclose(child), 0) << output;
    EXPECT_EQ(output.find("FAILED"), std::string::npos) << output;
  }
  const std::string warm = run_workload();
  EXPECT_EQ(count_of(warm, "compiled in"), 0u) << warm;
  for (const std::string& name : files()) EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "a temporary left behind: " << name;
}

// VK_EXT_pipeline_creation_feedback: durations, and cache hits only from the application's cache.
TEST_F(PipelineCacheTest, CreationFeedbackReportsDurationsAndApplicationCacheHits) {
  TestDevice& device = this->device();
  VkPipelineCacheCreateInfo cache_info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  VkPipelineCache cache;
  ASSERT_EQ(vkCreatePipelineCache(device.handle(), &cache_info, nullptr, &cache), VK_SUCCESS);
  struct {
    uint32_t width = 8, multiplier = 0xFEED;  // a kernel no other test makes
    VkBool32 add = VK_TRUE;
    float offset = 0.5f;
  } data;
  const VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
  const VkSpecializationInfo spec{4, entries, sizeof data, &data};
  auto create = [&](VkPipelineCache with, VkPipelineCreationFeedback* pipeline, VkPipelineCreationFeedback* stage) {
    *pipeline = *stage = {};
    VkPipelineCreationFeedbackCreateInfo feedback{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO, nullptr, pipeline, 1, stage};
    ComputeJob job(device, "spec_constants.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0, &spec,
                   {.cache = with, .pipeline_next = &feedback});
    EXPECT_EQ(job.pipeline_result(), VK_SUCCESS);
  };
  VkPipelineCreationFeedback pipeline, stage;
  create(VK_NULL_HANDLE, &pipeline, &stage);  // compiled; no cache: never a hit
  if (!(pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT)) {
    EXPECT_FALSE(is_kiln()) << "Kiln always gives feedback";
    GTEST_SKIP() << "the driver gives no feedback";
  }
  EXPECT_FALSE(pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
  EXPECT_GT(pipeline.duration, 0u);
  if (is_kiln()) {
    ASSERT_TRUE(stage.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
    EXPECT_FALSE(stage.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
    EXPECT_GT(stage.duration, 0u);
    EXPECT_LE(stage.duration, pipeline.duration);
  }
  const size_t empty_size = cache_data(device.handle(), cache).size();
  create(cache, &pipeline, &stage);  // the kernel is not in the application's cache yet...
  EXPECT_TRUE(pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
  if (is_kiln()) {
    EXPECT_FALSE(pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
    // ...but it is afterwards, although Kiln had it linked already: the cache's data carries every
    // kernel its pipelines use.
    EXPECT_GT(cache_data(device.handle(), cache).size(), empty_size + 256);
  }
  create(cache, &pipeline, &stage);  // the same pipeline from the same cache: a hit
  if (is_kiln()) {
    EXPECT_TRUE(pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
    EXPECT_TRUE(stage.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
  }
  vkDestroyPipelineCache(device.handle(), cache, nullptr);
}

}  // namespace
}  // namespace kiln::test
