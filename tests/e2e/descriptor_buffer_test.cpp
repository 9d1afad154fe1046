// VK_EXT_descriptor_buffer: a compute shader reads storage, uniform and uniform texel buffers, a
// combined image sampler and a sampled image whose descriptors vkGetDescriptorEXT wrote into a
// descriptor buffer at the offsets the set layout reports, with two sets at two offsets of one
// buffer and a set of embedded immutable samplers. Kiln only: lavapipe 22.3 lacks the extension.
#include <cstring>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr VkBufferUsageFlags kAddressable = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

class ComputeDescriptorBufferTest : public VulkanTest {
 protected:
  TestDevice* buffer_device() {
    descriptor_buffer_.descriptorBuffer = VK_TRUE;
    enabled_.v12.bufferDeviceAddress = VK_TRUE;
    enabled_.v13.pNext = &descriptor_buffer_;
    return create_device(enabled_, {VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME});
  }

 private:
  DeviceFeatures enabled_;
  VkPhysicalDeviceDescriptorBufferFeaturesEXT descriptor_buffer_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
};

template <typename Pfn>
Pfn proc(TestDevice& device, const char* name) {
  auto pfn = reinterpret_cast<Pfn>(vkGetDeviceProcAddr(device.handle(), name));
  EXPECT_NE(pfn, nullptr) << name;
  return pfn;
}

VkDeviceAddress address_of(TestDevice& device, const Buffer& buffer) {
  VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  info.buffer = buffer.buffer;
  return vkGetBufferDeviceAddress(device.handle(), &info);
}

// A descriptor-buffer set layout of `bindings` (compute stage) with `flags` besides DESCRIPTOR_BUFFER.
VkDescriptorSetLayout make_layout(TestDevice& device, const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                                  VkDescriptorSetLayoutCreateFlags flags = 0) {
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.flags = flags | VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT;
  info.bindingCount = uint32_t(bindings.size());
  info.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDescriptorSetLayout(device.handle(), &info, nullptr, &layout), VK_SUCCESS);
  VkDevice d = device.handle();
  device.defer_destroy([d, layout] { vkDestroyDescriptorSetLayout(d, layout, nullptr); });
  return layout;
}

TEST_F(ComputeDescriptorBufferTest, EveryDescriptorKindReadFromADescriptorBuffer) {
  VkPhysicalDeviceDescriptorBufferFeaturesEXT supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME, supported) &&
                      supported.descriptorBuffer && features().v12.bufferDeviceAddress,
                  "VK_EXT_descriptor_buffer and bufferDeviceAddress");
  TestDevice& device = *buffer_device();
  VkDevice d = device.handle();
  VkPhysicalDeviceDescriptorBufferPropertiesEXT sizes{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sizes};
  vkGetPhysicalDeviceProperties2(physical_device(), &properties);

  // The resources: one buffer of storage values, uniform value and texels, a 2 x 2 image, results.
  Buffer data = device.create_buffer(1024, kAddressable | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                               VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  mapped_as<uint32_t>(data)[0] = 101;
  mapped_as<uint32_t>(data)[64] = 202;   // byte 256
  mapped_as<uint32_t>(data)[128] = 303;  // byte 512
  for (uint32_t i = 0; i < 4; ++i) mapped_as<uint32_t>(data)[192 + i] = 400 + i;  // texels at byte 768
  for (uint32_t i = 0; i < 4; ++i) mapped_as<uint32_t>(data)[200 + i] = 10 + i;   // image texels at byte 800
  Buffer results = device.create_buffer(64, kAddressable | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  Image image = device.create_image(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT, {2, 2, 1}, 1, 1, 0,
                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = image.image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = VK_FORMAT_R32_UINT;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateImageView(d, &view_info, nullptr, &view), VK_SUCCESS);
  device.defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
  VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_NEAREST;
  VkSampler nearest = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSampler(d, &sampler_info, nullptr, &nearest), VK_SUCCESS);
  device.defer_destroy([d, nearest] { vkDestroySampler(d, nearest, nullptr); });

  // Set layouts: resources, results, and the embedded immutable sampler.
  const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayout resources = make_layout(device, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, cs, nullptr},
                                                         {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, cs, nullptr},
                                                         {2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, cs, nullptr},
                                                         {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                                                         {4, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, cs, nullptr}});
  VkDescriptorSetLayout outputs = make_layout(device, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr}});
  VkDescriptorSetLayout embedded = make_layout(device, {{0, VK_DESCRIPTOR_TYPE_SAMPLER, 1, cs, &nearest}},
                                               VK_DESCRIPTOR_SET_LAYOUT_CREATE_EMBEDDED_IMMUTABLE_SAMPLERS_BIT_EXT);
  const VkDescriptorSetLayout set_layouts[3] = {resources, outputs, embedded};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 3;
  layout_info.pSetLayouts = set_layouts;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout), VK_SUCCESS);
  device.defer_destroy([d, layout] { vkDestroyPipelineLayout(d, layout, nullptr); });
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.flags = VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT;
  pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                         create_test_shader_module(d, "descriptor_buffer.comp"), "main", nullptr};
  pipeline_info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline), VK_SUCCESS);
  vkDestroyShaderModule(d, pipeline_info.stage.module, nullptr);
  device.defer_destroy([d, pipeline] { vkDestroyPipeline(d, pipeline, nullptr); });

  // The descriptor buffer: set 0 at byte 256, set 1 at byte 2048.
  constexpr VkDeviceSize kSet0 = 256, kSet1 = 2048;
  ASSERT_EQ(kSet0 % sizes.descriptorBufferOffsetAlignment, 0u);
  VkDeviceSize resources_size = 0;
  proc<PFN_vkGetDescriptorSetLayoutSizeEXT>(device, "vkGetDescriptorSetLayoutSizeEXT")(d, resources, &resources_size);
  ASSERT_LE(kSet0 + resources_size, kSet1);
  Buffer descriptors = device.create_buffer(4096, kAddressable | VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT |
                                                      VK_BUFFER_USAGE_SAMPLER_DESCRIPTOR_BUFFER_BIT_EXT);
  auto binding_offset = proc<PFN_vkGetDescriptorSetLayoutBindingOffsetEXT>(device, "vkGetDescriptorSetLayoutBindingOffsetEXT");
  auto get_descriptor = proc<PFN_vkGetDescriptorEXT>(device, "vkGetDescriptorEXT");
  auto write = [&](VkDescriptorSetLayout set_layout, VkDeviceSize set_offset, uint32_t binding, uint32_t element,
                   size_t size, VkDescriptorType type, VkDescriptorDataEXT descriptor_data) {
    VkDeviceSize offset = 0;
    binding_offset(d, set_layout, binding, &offset);
    VkDescriptorGetInfoEXT info{VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT};
    info.type = type;
    info.data = descriptor_data;
    get_descriptor(d, &info, size, descriptors.mapped + set_offset + offset + element * size);
  };
  const VkDeviceAddress base = address_of(device, data);
  const VkDescriptorAddressInfoEXT storage0{VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT, nullptr, base, 4, VK_FORMAT_UNDEFINED};
  const VkDescriptorAddressInfoEXT storage1{VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT, nullptr, base + 256, 4, VK_FORMAT_UNDEFINED};
  const VkDescriptorAddressInfoEXT uniform{VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT, nullptr, base + 512, 16, VK_FORMAT_UNDEFINED};
  const VkDescriptorAddressInfoEXT texels{VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT, nullptr, base + 768, 16, VK_FORMAT_R32_UINT};
  const VkDescriptorAddressInfoEXT output{VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT, nullptr, address_of(device, results), 64,
                                         VK_FORMAT_UNDEFINED};
  const VkDescriptorImageInfo combined{nearest, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  const VkDescriptorImageInfo sampled{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkDescriptorDataEXT dd{};
  dd.pStorageBuffer = &storage0;
  write(resources, kSet0, 0, 0, sizes.storageBufferDescriptorSize, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dd);
  dd.pStorageBuffer = &storage1;
  write(resources, kSet0, 0, 1, sizes.storageBufferDescriptorSize, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dd);
  dd.pUniformBuffer = &uniform;
  write(resources, kSet0, 1, 0, sizes.uniformBufferDescriptorSize, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, dd);
  dd.pUniformTexelBuffer = &texels;
  write(resources, kSet0, 2, 0, sizes.uniformTexelBufferDescriptorSize, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, dd);
  dd.pCombinedImageSampler = &combined;
  write(resources, kSet0, 3, 0, sizes.combinedImageSamplerDescriptorSize, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, dd);
  dd.pSampledImage = &sampled;
  write(resources, kSet0, 4, 0, sizes.sampledImageDescriptorSize, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, dd);
  dd.pStorageBuffer = &output;
  write(outputs, kSet1, 0, 0, sizes.storageBufferDescriptorSize, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dd);

  device.run_commands([&](VkCommandBuffer cb) {
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkBufferImageCopy region{800, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {2, 2, 1}};
    vkCmdCopyBufferToImage(cb, data.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    VkDescriptorBufferBindingInfoEXT binding{VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT};
    binding.address = address_of(device, descriptors);
    binding.usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT | VK_BUFFER_USAGE_SAMPLER_DESCRIPTOR_BUFFER_BIT_EXT;
    proc<PFN_vkCmdBindDescriptorBuffersEXT>(device, "vkCmdBindDescriptorBuffersEXT")(cb, 1, &binding);
    const uint32_t buffer_indices[2] = {0, 0};
    const VkDeviceSize offsets[2] = {kSet0, kSet1};
    proc<PFN_vkCmdSetDescriptorBufferOffsetsEXT>(device, "vkCmdSetDescriptorBufferOffsetsEXT")(
        cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, buffer_indices, offsets);
    proc<PFN_vkCmdBindDescriptorBufferEmbeddedSamplersEXT>(device, "vkCmdBindDescriptorBufferEmbeddedSamplersEXT")(
        cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 2);
    vkCmdDispatch(cb, 1, 1, 1);
    shader_writes_to_host_barrier(cb);
  });
  const uint32_t expected[6] = {101, 202, 303, 401, 11, 12};
  const char* what[6] = {"storage[0]", "storage[1]", "uniform", "texel buffer", "combined image sampler",
                         "sampled image with the embedded sampler"};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(mapped_as<uint32_t>(results)[i], expected[i]) << what[i];
}

}  // namespace
}  // namespace kiln::test
