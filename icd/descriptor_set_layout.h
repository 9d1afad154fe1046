#pragma once
// VkDescriptorSetLayout: the layout of a set's memory (descriptor_memory.h does the math).
#include <vulkan/vulkan.h>

#include "icd/descriptor_memory.h"
#include "icd/object.h"
#include "memory/image_view.h"

namespace kiln {

struct DescriptorSetLayout {
  desc::SetLayoutDesc desc;
  VkDescriptorSetLayoutCreateFlags flags = 0;
};

inline DescriptorSetLayout* set_layout_of(VkDescriptorSetLayout handle) { return from_handle<DescriptorSetLayout>(handle); }

// The records image and sampler descriptors point at (abi::ImageSamplerDescriptor): the view's
// abi::ImageViewRecord and the mem::Sampler itself; a null handle gives a null record.
inline const void* image_view_record(VkImageView view) {
  return view ? &from_handle<mem::ImageView>(view)->shader_record : nullptr;
}
inline const void* sampler_record(VkSampler sampler) {
  return sampler ? static_cast<const void*>(from_handle<mem::Sampler>(sampler)) : nullptr;
}

}  // namespace kiln
