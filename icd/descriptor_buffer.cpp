// VK_EXT_descriptor_buffer. Kiln's descriptors are already memory (common/abi/kernel_abi.h): a
// set is records at the offsets its layout assigns, and kernels read the set's memory through
// ResourceContext::descriptor_sets when they run. A descriptor buffer is the same records in the
// application's buffer: vkGetDescriptorEXT writes the record a descriptor set would hold,
// vkGetDescriptorSetLayout{Size,BindingOffset}EXT report the layout's offsets, and
// vkCmdSetDescriptorBufferOffsetsEXT points a set at buffer address + offset (a device address is
// a host address in Kiln). Embedded immutable samplers get set memory of their own in the command
// list. Capture and replay and push descriptors without a push buffer are not offered.
#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "icd/command_buffer.h"
#include "icd/descriptor_memory.h"
#include "icd/descriptor_set_layout.h"
#include "icd/pipeline_layout.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// The record of a buffer given by address (null: a null descriptor).
abi::BufferDescriptor buffer_record(const VkDescriptorAddressInfoEXT* info) {
  if (!info || !info->address) return {};
  return {info->address, info->range, {}};
}

abi::TexelBufferDescriptor texel_buffer_record(const VkDescriptorAddressInfoEXT* info) {
  if (!info || !info->address) return {};
  return desc::texel_record(info->address, info->range, info->format);
}

template <typename Record>
void put(const Record& record, size_t size, void* out) {
  std::memcpy(out, &record, std::min(size, sizeof record));
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDescriptorSetLayoutSizeEXT(VkDevice, VkDescriptorSetLayout layout,
                                                                        VkDeviceSize* pLayoutSizeInBytes) {
  *pLayoutSizeInBytes = set_layout_of(layout)->desc.memory_size;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDescriptorSetLayoutBindingOffsetEXT(VkDevice, VkDescriptorSetLayout layout,
                                                                                 uint32_t binding, VkDeviceSize* pOffset) {
  const desc::BindingLayout* found = set_layout_of(layout)->desc.find(binding);
  *pOffset = found ? found->offset : 0;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDescriptorEXT(VkDevice, const VkDescriptorGetInfoEXT* pDescriptorInfo,
                                                           size_t dataSize, void* pDescriptor) {
  const VkDescriptorDataEXT& data = pDescriptorInfo->data;
  switch (pDescriptorInfo->type) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
      put(abi::ImageSamplerDescriptor{nullptr, sampler_record(data.pSampler ? *data.pSampler : VK_NULL_HANDLE), {}},
          dataSize, pDescriptor);
      return;
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: {
      const VkDescriptorImageInfo* info = data.pCombinedImageSampler;
      put(abi::ImageSamplerDescriptor{info ? image_view_record(info->imageView) : nullptr,
                                      info ? sampler_record(info->sampler) : nullptr, {}},
          dataSize, pDescriptor);
      return;
    }
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
      // The three share the union's first member's place (pointers to a VkDescriptorImageInfo).
      const VkDescriptorImageInfo* info = data.pSampledImage;
      put(abi::ImageSamplerDescriptor{info ? image_view_record(info->imageView) : nullptr, nullptr, {}}, dataSize,
          pDescriptor);
      return;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      put(buffer_record(data.pUniformBuffer), dataSize, pDescriptor);
      return;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      put(texel_buffer_record(data.pUniformTexelBuffer), dataSize, pDescriptor);
      return;
    default:
      KILN_LOG_ONCE(LogLevel::Error, "vkGetDescriptorEXT: descriptor type %d has no descriptor-buffer record; zeros written",
                    int(pDescriptorInfo->type));
      std::memset(pDescriptor, 0, dataSize);
      return;
  }
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindDescriptorBuffersEXT(VkCommandBuffer commandBuffer, uint32_t bufferCount,
                                                                      const VkDescriptorBufferBindingInfoEXT* pBindingInfos) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  const uint32_t count = std::min<uint32_t>(bufferCount, cb->descriptor_buffers.size());
  if (count < bufferCount)
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdBindDescriptorBuffersEXT: %u buffers, Kiln binds %zu; the rest are ignored",
                  bufferCount, cb->descriptor_buffers.size());
  for (uint32_t i = 0; i < count; ++i) cb->descriptor_buffers[i] = pBindingInfos[i].address;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdSetDescriptorBufferOffsetsEXT(VkCommandBuffer commandBuffer,
                                                                           VkPipelineBindPoint pipelineBindPoint,
                                                                           VkPipelineLayout layout, uint32_t firstSet,
                                                                           uint32_t setCount, const uint32_t* pBufferIndices,
                                                                           const VkDeviceSize* pOffsets) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  CommandBuffer::BindPointState* point = cb->bind_point(pipelineBindPoint);
  if (!point) return;
  const desc::PipelineLayoutDesc& sets = pipeline_layout_of(layout)->desc;
  for (uint32_t i = 0; i < setCount; ++i) {
    const uint32_t set = firstSet + i;
    if (set >= sets.sets.size() || pBufferIndices[i] >= cb->descriptor_buffers.size()) {
      KILN_LOG_ONCE(LogLevel::Error, "vkCmdSetDescriptorBufferOffsetsEXT: set %u or buffer index %u out of range; unbound",
                    set, pBufferIndices[i]);
      if (set < abi::kMaxBoundDescriptorSets) point->resources.descriptor_sets[set] = nullptr;
      continue;
    }
    const VkDeviceAddress base = cb->descriptor_buffers[pBufferIndices[i]];
    point->resources.descriptor_sets[set] = base ? reinterpret_cast<const uint8_t*>(base + pOffsets[i]) : nullptr;
    // A variable-count binding in a descriptor buffer has its layout's full count.
    point->resources.variable_counts[set] = sets.sets[set].max_variable_count();
  }
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdBindDescriptorBufferEmbeddedSamplersEXT(VkCommandBuffer commandBuffer,
                                                                                     VkPipelineBindPoint pipelineBindPoint,
                                                                                     VkPipelineLayout layout, uint32_t set) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  CommandBuffer::BindPointState* point = cb->bind_point(pipelineBindPoint);
  const desc::PipelineLayoutDesc& sets = pipeline_layout_of(layout)->desc;
  if (!point || set >= sets.sets.size()) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdBindDescriptorBufferEmbeddedSamplersEXT: set %u is not in the layout; skipped", set);
    return;
  }
  // The set's memory holds nothing but its immutable samplers: made in the command list, so the
  // commands recorded now keep it.
  const desc::SetLayoutDesc& set_layout = sets.sets[set];
  uint8_t* memory = command_list_set_memory(cb, set_layout.memory_size);
  desc::DynamicBufferSlot no_dynamic_buffers[1];
  desc::initialize_set_memory(set_layout, {memory, no_dynamic_buffers, 0});
  point->resources.descriptor_sets[set] = memory;
  point->resources.variable_counts[set] = 0;
}

// Capture and replay (descriptorBufferCaptureReplay) is FALSE: the application may not call these;
// they write nothing (every capture data size is 0).
static VkResult no_capture_data(const char* command) {
  KILN_LOG_ONCE(LogLevel::Error, "%s: descriptorBufferCaptureReplay is not supported; no data", command);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetBufferOpaqueCaptureDescriptorDataEXT(VkDevice, const VkBufferCaptureDescriptorDataInfoEXT*, void*) {
  return no_capture_data("vkGetBufferOpaqueCaptureDescriptorDataEXT");
}
extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetImageOpaqueCaptureDescriptorDataEXT(VkDevice, const VkImageCaptureDescriptorDataInfoEXT*, void*) {
  return no_capture_data("vkGetImageOpaqueCaptureDescriptorDataEXT");
}
extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetImageViewOpaqueCaptureDescriptorDataEXT(VkDevice,
                                                                                         const VkImageViewCaptureDescriptorDataInfoEXT*, void*) {
  return no_capture_data("vkGetImageViewOpaqueCaptureDescriptorDataEXT");
}
extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetSamplerOpaqueCaptureDescriptorDataEXT(VkDevice,
                                                                                       const VkSamplerCaptureDescriptorDataInfoEXT*, void*) {
  return no_capture_data("vkGetSamplerOpaqueCaptureDescriptorDataEXT");
}
