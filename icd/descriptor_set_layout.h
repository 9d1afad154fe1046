#pragma once
// VkDescriptorSetLayout: the layout of a set's memory (descriptor_memory.h does the math).
#include <vulkan/vulkan.h>

#include "icd/descriptor_memory.h"
#include "icd/object.h"

namespace kiln {

struct DescriptorSetLayout {
  desc::SetLayoutDesc desc;
  VkDescriptorSetLayoutCreateFlags flags = 0;
};

inline DescriptorSetLayout* set_layout_of(VkDescriptorSetLayout handle) { return from_handle<DescriptorSetLayout>(handle); }

// The records image and sampler descriptors point at (abi::ImageSamplerDescriptor). VkImageView
// and VkSampler objects do not exist in Kiln yet, so for now a descriptor stores the handle value
// itself; when they arrive, these two functions return the objects' ImageViewRecord /
// SamplerRecord and nothing else in the descriptor code changes. Until then no shader may
// dereference these pointers.
inline const void* image_view_record(VkImageView view) { return reinterpret_cast<const void*>(view); }
inline const void* sampler_record(VkSampler sampler) { return reinterpret_cast<const void*>(sampler); }

}  // namespace kiln
