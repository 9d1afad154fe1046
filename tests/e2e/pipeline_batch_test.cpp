// vkCreate*Pipelines with several create infos: Kiln creates them at once on its worker pool, and
// the results must still be those of creation in order — every pipeline computes its own
// specialization, and EARLY_RETURN_ON_FAILURE leaves the pipelines after the failed one null.
#include <cstring>

#include "e2e/vk_fixture.h"
#include "shaders/test_shaders.h"

namespace kiln::test {
namespace {

class PipelineBatchTest : public VulkanTest {
 protected:
  struct Specialization {
    uint32_t width = 8, multiplier = 1;
    VkBool32 add = VK_FALSE;
    float offset = 0;
  };

  void SetUp() override {
    VulkanTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    DeviceFeatures enabled;
    enabled.v13.pipelineCreationCacheControl = features().v13.pipelineCreationCacheControl;
    device_ = create_device(enabled);
    VkDevice d = device_->handle();
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
    ASSERT_EQ(vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout_), VK_SUCCESS);
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &set_layout_};
    ASSERT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout_), VK_SUCCESS);
    const std::vector<uint32_t> words = kiln_test_shader("spec_constants.comp");
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, words.size() * 4, words.data()};
    ASSERT_EQ(vkCreateShaderModule(d, &module_info, nullptr, &module_), VK_SUCCESS);
  }
  void TearDown() override {
    if (device_) {
      VkDevice d = device_->handle();
      vkDestroyShaderModule(d, module_, nullptr);
      vkDestroyPipelineLayout(d, layout_, nullptr);
      vkDestroyDescriptorSetLayout(d, set_layout_, nullptr);
    }
    VulkanTest::TearDown();
  }

  // Creates one pipeline per element of `specs` in one call; `flags[i]` for create info i.
  VkResult create(const std::vector<Specialization>& specs, const std::vector<VkPipelineCreateFlags>& flags,
                  std::vector<VkPipeline>* pipelines) {
    static const VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
    std::vector<VkSpecializationInfo> infos(specs.size());
    std::vector<VkComputePipelineCreateInfo> creates(specs.size());
    for (size_t i = 0; i < specs.size(); ++i) {
      infos[i] = {4, entries, sizeof(Specialization), &specs[i]};
      creates[i] = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      creates[i].flags = flags[i];
      creates[i].stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module_,
                          "main", &infos[i]};
      creates[i].layout = layout_;
    }
    pipelines->assign(specs.size(), reinterpret_cast<VkPipeline>(uintptr_t(0xBAD)));
    return vkCreateComputePipelines(device_->handle(), VK_NULL_HANDLE, uint32_t(specs.size()), creates.data(), nullptr,
                                    pipelines->data());
  }

  // Runs `pipeline` over 64 values 0..63 and checks values[i] = i * multiplier + width.
  void expect_computes(VkPipeline pipeline, const Specialization& spec) {
    TestDevice& device = *device_;
    Buffer values = device.create_buffer(64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (uint32_t i = 0; i < 64; ++i) reinterpret_cast<float*>(values.mapped)[i] = float(i);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &size};
    VkDescriptorPool pool;
    ASSERT_EQ(vkCreateDescriptorPool(device.handle(), &pool_info, nullptr, &pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &set_layout_};
    VkDescriptorSet set;
    ASSERT_EQ(vkAllocateDescriptorSets(device.handle(), &alloc, &set), VK_SUCCESS);
    VkDescriptorBufferInfo buffer_info{values.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                               nullptr, &buffer_info};
    vkUpdateDescriptorSets(device.handle(), 1, &write, 0, nullptr);
    device.run_commands([&](VkCommandBuffer cb) {
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
      vkCmdDispatch(cb, 64 / spec.width, 1, 1);
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0,
                           nullptr);
    });
    for (uint32_t i = 0; i < 64; ++i)
      ASSERT_EQ(reinterpret_cast<float*>(values.mapped)[i], float(i) * float(spec.multiplier) + float(spec.width))
          << "element " << i << " of the pipeline with multiplier " << spec.multiplier;
    vkDestroyDescriptorPool(device.handle(), pool, nullptr);
  }

  void destroy(const std::vector<VkPipeline>& pipelines) {
    for (VkPipeline p : pipelines) vkDestroyPipeline(device_->handle(), p, nullptr);
  }

  TestDevice* device_ = nullptr;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

TEST_F(PipelineBatchTest, EveryPipelineOfOneCallComputesItsOwnSpecialization) {
  std::vector<Specialization> specs;
  for (uint32_t i = 0; i < 8; ++i) specs.push_back({i % 2 ? 8u : 16u, 0x7100 + i});  // kernels no other test makes
  std::vector<VkPipeline> pipelines;
  ASSERT_EQ(create(specs, std::vector<VkPipelineCreateFlags>(specs.size(), 0), &pipelines), VK_SUCCESS);
  for (size_t i = 0; i < specs.size(); ++i) {
    ASSERT_NE(pipelines[i], VK_NULL_HANDLE) << i;
    expect_computes(pipelines[i], specs[i]);
  }
  destroy(pipelines);
}

TEST_F(PipelineBatchTest, EarlyReturnLeavesTheLaterPipelinesNull) {
  REQUIRE_ON_KILN(features().v13.pipelineCreationCacheControl, "pipelineCreationCacheControl");
  const VkPipelineCreateFlags refuse =
      VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT | VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
  // Create info 1 needs a compile it may not do; 0 is before it, 2 and 3 after it.
  const std::vector<Specialization> specs = {{8, 0x7200}, {8, 0x7201}, {16, 0x7202}, {8, 0x7203}};
  std::vector<VkPipeline> pipelines;
  const VkResult result = create(specs, {0, refuse, 0, 0}, &pipelines);
  if (result == VK_SUCCESS) {
    EXPECT_FALSE(is_kiln()) << "Kiln has not compiled create info 1's kernel before";
    destroy(pipelines);
    GTEST_SKIP() << "the driver created the pipeline without a compile";
  }
  ASSERT_EQ(result, VK_PIPELINE_COMPILE_REQUIRED);
  EXPECT_EQ(pipelines[1], VK_NULL_HANDLE);
  EXPECT_EQ(pipelines[2], VK_NULL_HANDLE) << "after an early return";
  EXPECT_EQ(pipelines[3], VK_NULL_HANDLE) << "after an early return";
  ASSERT_NE(pipelines[0], VK_NULL_HANDLE);
  expect_computes(pipelines[0], specs[0]);
  destroy(pipelines);

  // Without EARLY_RETURN the others are created and work.
  const std::vector<Specialization> more = {{8, 0x7300}, {8, 0x7301}, {16, 0x7302}};
  ASSERT_EQ(create(more, {0, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, 0}, &pipelines),
            VK_PIPELINE_COMPILE_REQUIRED);
  EXPECT_EQ(pipelines[1], VK_NULL_HANDLE);
  ASSERT_NE(pipelines[0], VK_NULL_HANDLE);
  ASSERT_NE(pipelines[2], VK_NULL_HANDLE);
  expect_computes(pipelines[0], more[0]);
  expect_computes(pipelines[2], more[2]);
  destroy(pipelines);
}

// In order, the third create info may use the kernel the second compiles: created at once, Kiln
// must still give it its pipeline (CTS creation_cache_control.*.duplicate_batch_pipelines_*).
TEST_F(PipelineBatchTest, ALaterCreateInfoMayUseWhatAnEarlierOneCompiled) {
  REQUIRE_ON_KILN(features().v13.pipelineCreationCacheControl, "pipelineCreationCacheControl");
  const Specialization spec{8, 0x7400};
  const VkPipelineCreateFlags no_compile = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
  std::vector<VkPipeline> pipelines;
  const VkResult result = create({spec, spec, spec}, {no_compile, 0, no_compile}, &pipelines);
  ASSERT_NE(pipelines[1], VK_NULL_HANDLE);
  if (is_kiln()) {
    EXPECT_EQ(result, VK_PIPELINE_COMPILE_REQUIRED);
    EXPECT_EQ(pipelines[0], VK_NULL_HANDLE) << "nothing had compiled it yet";
    ASSERT_NE(pipelines[2], VK_NULL_HANDLE) << "create info 1 compiled it";
  }
  for (VkPipeline p : pipelines)
    if (p != VK_NULL_HANDLE) expect_computes(p, spec);
  destroy(pipelines);
}

}  // namespace
}  // namespace kiln::test
