// Compute pipelines end to end: GLSL test shaders (tests/shaders) run through the loader with the
// validation layer on, results checked against a CPU reference.
#include <cmath>
#include <cstring>
#include <numeric>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"
#include "shaders/test_shaders.h"

namespace kiln::test {
namespace {

constexpr VkDescriptorType kStorage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
constexpr VkDescriptorType kUniform = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
constexpr VkBufferUsageFlags kStorageUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

class ComputeTest : public VulkanTest {};

TEST_F(ComputeTest, SaxpyMatchesTheCpuWithAPartialLastWorkgroup) {
  TestDevice& device = this->device();
  const uint32_t n = 1000;  // 16 groups of 64, the last one partly idle
  Buffer x = device.create_buffer(n * 4, kStorageUsage);
  Buffer y = device.create_buffer((n + 24) * 4, kStorageUsage);  // room past n that must stay untouched
  Buffer params = device.create_buffer(8, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  for (uint32_t i = 0; i < n + 24; ++i) {
    if (i < n) mapped_as<float>(x)[i] = static_cast<float>(i) * 0.5f;
    mapped_as<float>(y)[i] = 1000.0f + i;
  }
  const float a = 3.0f;
  memcpy(params.mapped, &a, 4);
  memcpy(params.mapped + 4, &n, 4);
  ComputeJob job(device, "saxpy.comp", {kStorage, kStorage, kUniform});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, x);
  job.bind_buffer(1, y);
  job.bind_buffer(2, params);
  job.run((n + 63) / 64);
  for (uint32_t i = 0; i < n + 24; ++i) {
    const float expected = i < n ? a * (static_cast<float>(i) * 0.5f) + (1000.0f + i) : 1000.0f + i;
    ASSERT_EQ(mapped_as<float>(y)[i], expected) << "element " << i;
  }
}

TEST_F(ComputeTest, DivergentLoopsAndEarlyReturnsMatchTheCpu) {
  TestDevice& device = this->device();
  const uint32_t n = 96;
  Buffer counts = device.create_buffer(n * 4, kStorageUsage);
  Buffer results = device.create_buffer(n * 4, kStorageUsage);
  for (uint32_t i = 0; i < n; ++i) mapped_as<uint32_t>(counts)[i] = (i * 37) % 90;
  ComputeJob job(device, "loop_control.comp", {kStorage, kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, counts);
  job.bind_buffer(1, results);
  job.run(n / 32);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t count = (i * 37) % 90;
    uint32_t sum = 0;
    for (uint32_t j = 0; j < count; ++j) {
      if (j % 3 == 0) continue;
      if (sum > 1000) break;
      sum += j;
    }
    if ((i & 1u) == 0) {
      sum *= 2;
    } else {
      uint32_t first = 64;
      for (uint32_t j = 0; j < 64; ++j)
        if (j * j > count) {
          first = j;
          break;
        }
      sum += first;
    }
    ASSERT_EQ(mapped_as<uint32_t>(results)[i], sum) << "invocation " << i;
  }
}

// Phis of a loop header that read each other (a swap, a rotation) take their inputs at once: the
// translator once wrote each phi's slot before reading the next one's input, so b got a's new
// value (CTS robustness.non_robust_buffer_access.unexecuted_oob_*).
TEST_F(ComputeTest, LoopVariablesThatTradePlacesMatchTheCpu) {
  TestDevice& device = this->device();
  const uint32_t n = 64;
  Buffer counts = device.create_buffer(n * 4, kStorageUsage);
  Buffer results = device.create_buffer(n * 5 * 4, kStorageUsage);
  for (uint32_t i = 0; i < n; ++i) mapped_as<uint32_t>(counts)[i] = (i * 7) % 13;
  ComputeJob job(device, "loop_swap.comp", {kStorage, kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, counts);
  job.bind_buffer(1, results);
  job.run(n / 32);
  for (uint32_t i = 0; i < n; ++i) {
    int32_t a = 1, b = 2, x = 10, y = 20, z = 30;
    for (uint32_t k = 0; k < (i * 7) % 13; ++k) {
      const int32_t t = a, u = x;
      a = b;
      b = t + int32_t(k);
      x = y;
      y = z;
      z = u;
    }
    const int32_t want[5] = {a, b, x, y, z};
    for (uint32_t w = 0; w < 5; ++w) EXPECT_EQ(mapped_as<int32_t>(results)[i * 5 + w], want[w]) << "invocation " << i << " word " << w;
  }
}

// Decoration groups (OpDecorationGroup, OpGroupDecorate, OpGroupMemberDecorate) give the
// buffers their set and the members their Offsets (CTS spirv_assembly.*.decoration_group.*).
TEST_F(ComputeTest, DecorationGroupsDecorateVariablesAndMembers) {
  TestDevice& device = this->device();
  const uint32_t n = 128;
  Buffer in = device.create_buffer(n * 8, kStorageUsage);
  Buffer out = device.create_buffer(n * 8, kStorageUsage);
  for (uint32_t i = 0; i < 2 * n; ++i) mapped_as<uint32_t>(in)[i] = i * 3 + 1;
  ComputeJob job(device, "decoration_groups.spvasm", {kStorage, kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, in);
  job.bind_buffer(1, out);
  job.run(n / 64);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t first = (2 * i) * 3 + 1, second = (2 * i + 1) * 3 + 1;
    EXPECT_EQ(mapped_as<uint32_t>(out)[2 * i], second) << "element " << i;
    EXPECT_EQ(mapped_as<uint32_t>(out)[2 * i + 1], first + second) << "element " << i;
  }
}

TEST_F(ComputeTest, SharedMemoryReductionWithBarriersInALoop) {
  TestDevice& device = this->device();
  const uint32_t groups = 6;
  Buffer values = device.create_buffer(groups * 128 * 4, kStorageUsage);
  Buffer sums = device.create_buffer(groups * 4, kStorageUsage);
  for (uint32_t i = 0; i < groups * 128; ++i) mapped_as<float>(values)[i] = static_cast<float>(i % 17);
  ComputeJob job(device, "shared_reduction.comp", {kStorage, kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, values);
  job.bind_buffer(1, sums);
  job.run(groups);
  for (uint32_t g = 0; g < groups; ++g) {
    float expected = 0;
    for (uint32_t i = 0; i < 128; ++i) expected += static_cast<float>((g * 128 + i) % 17);
    EXPECT_EQ(mapped_as<float>(sums)[g], expected) << "workgroup " << g;
  }
}

TEST_F(ComputeTest, AtomicHistogramUnderContention) {
  TestDevice& device = this->device();
  const uint32_t words = 64 * 40;
  Buffer input = device.create_buffer(words * 4, kStorageUsage);
  Buffer bins = device.create_buffer(256 * 4, kStorageUsage);
  std::vector<uint32_t> expected(256, 0);
  for (uint32_t i = 0; i < words; ++i) {
    // Skewed towards a few bins so many invocations hit the same counters.
    const uint32_t w = (i % 7 == 0) ? 0x01010101u * (i % 256) : 0x05050505u;
    mapped_as<uint32_t>(input)[i] = w;
    for (int k = 0; k < 4; ++k) expected[(w >> (8 * k)) & 0xFF]++;
  }
  ComputeJob job(device, "histogram.comp", {kStorage, kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, input);
  job.bind_buffer(1, bins);
  job.run(words / 64);
  for (uint32_t b = 0; b < 256; ++b) ASSERT_EQ(mapped_as<uint32_t>(bins)[b], expected[b]) << "bin " << b;
}

TEST_F(ComputeTest, PushConstantsReachTheShader) {
  TestDevice& device = this->device();
  Buffer src = device.create_buffer(300 * 4, kStorageUsage);
  Buffer dst = device.create_buffer(256 * 4, kStorageUsage, 0xFF);
  for (uint32_t i = 0; i < 300; ++i) mapped_as<float>(src)[i] = static_cast<float>(i);
  struct {
    uint32_t first, count;
    float scale, pad;
    float bias[4];
  } push{10, 200, 2.0f, 0, {0.25f, 0.5f, 0.75f, 1.0f}};
  ComputeJob job(device, "push_constants.comp", {kStorage, kStorage}, sizeof push);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, src);
  job.bind_buffer(1, dst);
  job.run(4, 1, 1, &push, sizeof push);
  for (uint32_t i = 0; i < 200; ++i) ASSERT_EQ(mapped_as<float>(dst)[i], (10.0f + i) * 2.0f + push.bias[i % 4]) << i;
  uint32_t untouched;
  memcpy(&untouched, dst.mapped + 200 * 4, 4);
  EXPECT_EQ(untouched, 0xFFFFFFFFu);  // invocations past `count` returned early
}

// gl_DeviceIndex (SPV_KHR_device_group, core in Vulkan 1.1) is 0 on a one-device group.
TEST_F(ComputeTest, DeviceIndexIsZero) {
  TestDevice& device = this->device();
  Buffer out = device.create_buffer(256 * 4, kStorageUsage, 0xFF);
  ComputeJob job(device, "device_index.comp", {kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, out);
  job.run(4);
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(mapped_as<uint32_t>(out)[i], 100u + i) << i;
}

// The Vulkan 1.1 device-group commands exist (the CTS calls vkCmdSetDeviceMask unconditionally)
// and a mask of device 0 leaves the commands recorded around it working.
TEST_F(ComputeTest, DeviceMaskOfTheOnlyDeviceKeepsCommandsWorking) {
  TestDevice& device = this->device();
  auto set_device_mask =
      reinterpret_cast<PFN_vkCmdSetDeviceMask>(vkGetDeviceProcAddr(device.handle(), "vkCmdSetDeviceMask"));
  ASSERT_NE(set_device_mask, nullptr);
  ASSERT_NE(vkGetDeviceProcAddr(device.handle(), "vkGetDeviceGroupPeerMemoryFeatures"), nullptr);
  Buffer out = device.create_buffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0);
  device.run_commands([&](VkCommandBuffer cb) {
    set_device_mask(cb, 1);
    vkCmdFillBuffer(cb, out.buffer, 0, 64, 0x01020304u);
  });
  for (uint32_t i = 0; i < 16; ++i) ASSERT_EQ(mapped_as<uint32_t>(out)[i], 0x01020304u) << i;
}

TEST_F(ComputeTest, SpecializationConstantsChangeTheKernel) {
  TestDevice& device = this->device();
  const uint32_t width = 16, multiplier = 5;
  const VkBool32 add_offset = VK_TRUE;
  const float offset = 0.25f;
  struct {
    uint32_t width, multiplier;
    VkBool32 add;
    float offset;
  } data{width, multiplier, add_offset, offset};
  const VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}};
  VkSpecializationInfo spec{4, entries, sizeof data, &data};
  Buffer values = device.create_buffer(64 * 4, kStorageUsage);
  for (uint32_t i = 0; i < 64; ++i) mapped_as<float>(values)[i] = static_cast<float>(i);
  ComputeJob job(device, "spec_constants.comp", {kStorage}, 0, &spec);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, values);
  job.run(64 / width);
  for (uint32_t i = 0; i < 64; ++i)
    ASSERT_EQ(mapped_as<float>(values)[i], i * 5.0f + 16.0f + 0.25f * 6.0f) << i;
}

TEST_F(ComputeTest, InvalidSpirvFailsPipelineCreationWithoutCrashing) {
  // No validation layer: handing the driver an invalid module is the point of this test.
  UnvalidatedContext context = create_unvalidated_context();
  std::unique_ptr<TestDevice> owned;
  ASSERT_EQ(TestDevice::create(context.physical_device, DeviceOptions{}, &owned), VK_SUCCESS);
  TestDevice& device = *owned;
  std::vector<uint32_t> words = kiln_test_shader("saxpy.comp");
  ASSERT_GT(words.size(), 20u);
  words.resize(words.size() / 2);  // truncated in the middle of the code
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * 4;
  module_info.pCode = words.data();
  VkShaderModule module;
  ASSERT_EQ(vkCreateShaderModule(device.handle(), &module_info, nullptr, &module), VK_SUCCESS);
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(device.handle(), &layout_info, nullptr, &layout), VK_SUCCESS);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult result = vkCreateComputePipelines(device.handle(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  // Kiln reports code its compiler rejects as VK_ERROR_UNKNOWN (core, unlike VK_ERROR_INVALID_SHADER_NV);
  // invalid SPIR-V is undefined behaviour, so other drivers need only fail.
  if (is_kiln()) EXPECT_EQ(result, VK_ERROR_UNKNOWN);
  else EXPECT_NE(result, VK_SUCCESS);
  EXPECT_EQ(pipeline, VK_NULL_HANDLE);
  vkDestroyPipelineLayout(device.handle(), layout, nullptr);
  vkDestroyShaderModule(device.handle(), module, nullptr);
}

}  // namespace
}  // namespace kiln::test
