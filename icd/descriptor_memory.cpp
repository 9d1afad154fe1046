#include "icd/descriptor_memory.h"

#include <cstddef>
#include <cstring>

#include "memory/format_table.h"

namespace kiln::desc {

uint32_t type_slot(VkDescriptorType type) {
  if (type >= VK_DESCRIPTOR_TYPE_SAMPLER && type <= VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT) return static_cast<uint32_t>(type);
  if (type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) return kTypeSlotCount - 1;
  return kUnsupportedType;
}

DescriptorCounts& DescriptorCounts::operator+=(const DescriptorCounts& other) {
  for (uint32_t i = 0; i < kTypeSlotCount; ++i) per_type[i] += other.per_type[i];
  sets += other.sets;
  inline_uniform_block_bindings += other.inline_uniform_block_bindings;
  return *this;
}

DescriptorCounts& DescriptorCounts::operator-=(const DescriptorCounts& other) {
  for (uint32_t i = 0; i < kTypeSlotCount; ++i) per_type[i] -= other.per_type[i];
  sets -= other.sets;
  inline_uniform_block_bindings -= other.inline_uniform_block_bindings;
  return *this;
}

bool DescriptorCounts::fits(const DescriptorCounts& extra, const DescriptorCounts& capacity) const {
  for (uint32_t i = 0; i < kTypeSlotCount; ++i)
    if (per_type[i] + extra.per_type[i] > capacity.per_type[i]) return false;
  return sets + extra.sets <= capacity.sets &&
         inline_uniform_block_bindings + extra.inline_uniform_block_bindings <= capacity.inline_uniform_block_bindings;
}

// --- Set layouts ------------------------------------------------------------------------------

namespace {

uint64_t align16(uint64_t v) { return (v + 15) & ~uint64_t{15}; }

// Bytes binding `b` takes in set memory with `elements` array elements.
uint64_t binding_bytes(const BindingLayout& b, uint32_t elements) {
  if (is_dynamic_buffer(b.type)) return 0;
  return align16(uint64_t{elements} * b.element_size());
}

}  // namespace

size_t SetLayoutDesc::index_of(uint32_t binding) const {
  auto it = std::lower_bound(bindings.begin(), bindings.end(), binding,
                             [](const BindingLayout& b, uint32_t number) { return b.binding < number; });
  return it != bindings.end() && it->binding == binding ? size_t(it - bindings.begin()) : bindings.size();
}

const BindingLayout* SetLayoutDesc::find(uint32_t binding) const {
  size_t index = index_of(binding);
  return index < bindings.size() ? &bindings[index] : nullptr;
}

uint32_t SetLayoutDesc::element_count(size_t index, uint32_t variable_count) const {
  if (variable_last_binding && index + 1 == bindings.size()) return variable_count;
  return bindings[index].count;
}

uint32_t SetLayoutDesc::clamp_variable_count(uint32_t requested) const {
  return variable_last_binding ? std::min(requested, bindings.back().count) : 0;
}

uint32_t SetLayoutDesc::memory_size_for(uint32_t variable_count) const {
  if (!variable_last_binding) return memory_size;
  const BindingLayout& last = bindings.back();
  return static_cast<uint32_t>(last.offset + binding_bytes(last, clamp_variable_count(variable_count)));
}

DescriptorCounts SetLayoutDesc::counts_for(uint32_t variable_count) const {
  DescriptorCounts counts;
  counts.sets = 1;
  for (size_t i = 0; i < bindings.size(); ++i) {
    const BindingLayout& b = bindings[i];
    const uint32_t slot = type_slot(b.type);  // build_set_layout admits supported types only
    if (slot != kUnsupportedType) counts.per_type[slot] += element_count(i, clamp_variable_count(variable_count));
    if (is_inline_uniform_block(b.type)) ++counts.inline_uniform_block_bindings;
  }
  return counts;
}

uint32_t SetLayoutDesc::max_variable_count() const {
  if (!variable_last_binding) return 0;
  const BindingLayout& last = bindings.back();
  if (is_inline_uniform_block(last.type)) return kMaxInlineUniformBlockSize;
  uint64_t others = 0;
  for (size_t i = 0; i + 1 < bindings.size(); ++i)
    if (!is_inline_uniform_block(bindings[i].type)) others += bindings[i].count;
  return static_cast<uint32_t>(kMaxDescriptorsPerSet - others);
}

const char* build_set_layout(std::span<const VkDescriptorSetLayoutBinding> bindings,
                             std::span<const VkDescriptorBindingFlags> flags, SamplerRecordFn sampler_record,
                             SetLayoutDesc* out) {
  if (!flags.empty() && flags.size() != bindings.size()) return "binding-flag count differs from the binding count";
  SetLayoutDesc layout;
  layout.bindings.reserve(bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    const VkDescriptorSetLayoutBinding& in = bindings[i];
    if (type_slot(in.descriptorType) == kUnsupportedType) return "unsupported descriptor type";
    BindingLayout b{};
    b.binding = in.binding;
    b.type = in.descriptorType;
    b.count = in.descriptorCount;
    b.stages = in.stageFlags;
    b.flags = flags.empty() ? 0 : flags[i];
    b.first_immutable_sampler = kNoImmutableSamplers;
    if (has_sampler(in.descriptorType) && in.pImmutableSamplers && in.descriptorCount > 0) {
      b.first_immutable_sampler = static_cast<uint32_t>(layout.immutable_samplers.size());
      for (uint32_t s = 0; s < in.descriptorCount; ++s)
        layout.immutable_samplers.push_back(sampler_record(in.pImmutableSamplers[s]));
    }
    layout.bindings.push_back(b);
  }
  std::sort(layout.bindings.begin(), layout.bindings.end(),
            [](const BindingLayout& a, const BindingLayout& b) { return a.binding < b.binding; });

  uint64_t offset = 0, records = 0;
  uint32_t inline_blocks = 0;
  for (size_t i = 0; i < layout.bindings.size(); ++i) {
    BindingLayout& b = layout.bindings[i];
    if (i > 0 && layout.bindings[i - 1].binding == b.binding) return "two bindings have the same number";
    if (b.flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) {
      if (i + 1 != layout.bindings.size()) return "the variable-count binding is not the last binding";
      if (is_dynamic_buffer(b.type)) return "a dynamic buffer binding cannot have a variable count";
      layout.variable_last_binding = true;
    }
    if (is_dynamic_buffer(b.type)) {
      b.dynamic_index = layout.dynamic_count;
      layout.dynamic_count += b.count;
      (b.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ? layout.dynamic_uniform_count : layout.dynamic_storage_count) += b.count;
      if (b.count > kMaxDynamicBuffersPerType || layout.dynamic_uniform_count > kMaxDynamicBuffersPerType ||
          layout.dynamic_storage_count > kMaxDynamicBuffersPerType)
        return "more dynamic buffers of one type than maxDescriptorSet*BuffersDynamic";
      continue;
    }
    if (is_inline_uniform_block(b.type)) {
      if (b.count > kMaxInlineUniformBlockSize || b.count % 4 != 0)
        return "inline uniform block larger than maxInlineUniformBlockSize or not a multiple of 4 bytes";
      if (++inline_blocks > kMaxInlineUniformBlocksPerSet) return "more inline uniform blocks than maxDescriptorSetInlineUniformBlocks";
    } else {
      records += b.count;
      if (records > kMaxDescriptorsPerSet) return "more descriptors than maxPerSetDescriptors";
    }
    b.offset = static_cast<uint32_t>(offset);
    offset += binding_bytes(b, b.count);
  }
  layout.memory_size = static_cast<uint32_t>(offset);
  *out = std::move(layout);
  return nullptr;
}

// --- Set memory -------------------------------------------------------------------------------

uint8_t* element_address(const SetMemory& set, const BindingLayout& binding, uint32_t element) {
  if (is_dynamic_buffer(binding.type)) return reinterpret_cast<uint8_t*>(&set.dynamic_buffers[binding.dynamic_index + element]);
  return set.records + binding.offset + size_t{element} * binding.element_size();
}

namespace {

// Puts the binding's immutable sampler into the record of `element` (which must have a sampler).
void place_immutable_sampler(const SetLayoutDesc& layout, const SetMemory& set, const BindingLayout& binding,
                             uint32_t element) {
  const void* sampler = layout.immutable_samplers[binding.first_immutable_sampler + element];
  std::memcpy(element_address(set, binding, element) + offsetof(abi::ImageSamplerDescriptor, sampler), &sampler,
              sizeof(sampler));
}

}  // namespace

void initialize_set_memory(const SetLayoutDesc& layout, const SetMemory& set) {
  std::memset(set.records, 0, layout.memory_size_for(set.variable_count));
  std::memset(set.dynamic_buffers, 0, sizeof(DynamicBufferSlot) * layout.dynamic_count);
  for (size_t i = 0; i < layout.bindings.size(); ++i) {
    const BindingLayout& b = layout.bindings[i];
    if (b.first_immutable_sampler == kNoImmutableSamplers) continue;
    const uint32_t elements = layout.element_count(i, set.variable_count);
    for (uint32_t e = 0; e < elements; ++e) place_immutable_sampler(layout, set, b, e);
  }
}

// --- Records ----------------------------------------------------------------------------------

namespace {

// The bytes of `buffer` from `offset` that a descriptor may reach: `range` (VK_WHOLE_SIZE = the
// rest), clamped to the buffer so that a bad update cannot point a shader past it.
VkDeviceSize clamped_range(const mem::Buffer& buffer, VkDeviceSize offset, VkDeviceSize range) {
  const VkDeviceSize rest = buffer.size - offset;
  return range == VK_WHOLE_SIZE ? rest : std::min(range, rest);
}

bool usable(const mem::Buffer* buffer, VkDeviceSize offset) {
  return buffer && buffer->data && offset <= buffer->size;
}

template <typename Record>
void put(uint8_t* out, const Record& record) {
  static_assert(sizeof(Record) == abi::kDescriptorRecordSize);
  std::memcpy(out, &record, sizeof(record));
}

}  // namespace

abi::BufferDescriptor buffer_record(const mem::Buffer* buffer, VkDeviceSize offset, VkDeviceSize range) {
  if (!usable(buffer, offset)) return {};
  return {reinterpret_cast<uint64_t>(buffer->data + offset), clamped_range(*buffer, offset, range), {}};
}

DynamicBufferSlot dynamic_buffer_record(const mem::Buffer* buffer, VkDeviceSize offset, VkDeviceSize range) {
  if (!usable(buffer, offset)) return {};
  return {reinterpret_cast<uint64_t>(buffer->data + offset), clamped_range(*buffer, offset, range), buffer->size - offset, 0};
}

abi::TexelBufferDescriptor texel_record(uint64_t address, VkDeviceSize bytes, VkFormat format) {
  const fmt::FormatInfo* info = fmt::format_info(format);
  if (!info || info->block_bytes == 0) return {};
  const VkDeviceSize elements = std::min<VkDeviceSize>(bytes / info->block_bytes, UINT32_MAX);
  return {address, static_cast<uint32_t>(elements), static_cast<uint32_t>(format), info->block_bytes, 0, 0};
}

abi::TexelBufferDescriptor texel_buffer_record(const BufferView* view) {
  if (!view || !usable(view->buffer, view->offset)) return {};
  return texel_record(reinterpret_cast<uint64_t>(view->buffer->data + view->offset),
                      clamped_range(*view->buffer, view->offset, view->range), view->format);
}

bool encode_record(VkDescriptorType type, const DescriptorSource& source, uint8_t out[abi::kDescriptorRecordSize]) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      put(out, buffer_record(source.buffer, source.offset, source.range));
      return true;
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      put(out, dynamic_buffer_record(source.buffer, source.offset, source.range));
      return true;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      put(out, texel_buffer_record(source.texel_view));
      return true;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
      put(out, abi::ImageSamplerDescriptor{nullptr, source.sampler, {}});
      return true;
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
      put(out, abi::ImageSamplerDescriptor{source.image_view, source.sampler, {}});
      return true;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      put(out, abi::ImageSamplerDescriptor{source.image_view, nullptr, {}});
      return true;
    default:
      return false;
  }
}

void store_record(const SetLayoutDesc& layout, const SetMemory& set, const BindingLayout& binding, uint32_t element,
                  const uint8_t record[abi::kDescriptorRecordSize]) {
  std::memcpy(element_address(set, binding, element), record, abi::kDescriptorRecordSize);
  if (binding.first_immutable_sampler != kNoImmutableSamplers) place_immutable_sampler(layout, set, binding, element);
}

// --- Updates ----------------------------------------------------------------------------------

ElementCursor::ElementCursor(const SetLayoutDesc& layout, uint32_t variable_count, uint32_t binding, uint32_t element)
    : layout_(&layout), variable_count_(variable_count), index_(layout.index_of(binding)), element_(element) {
  skip_exhausted_bindings();
}

uint32_t ElementCursor::remaining_in_binding() const {
  return layout_->element_count(index_, variable_count_) - element_;
}

void ElementCursor::advance(uint32_t n) {
  element_ += n;
  skip_exhausted_bindings();
}

void ElementCursor::skip_exhausted_bindings() {
  while (valid() && element_ >= layout_->element_count(index_, variable_count_)) {
    element_ -= layout_->element_count(index_, variable_count_);
    ++index_;
  }
}

const char* describe(UpdateStatus status) {
  switch (status) {
    case UpdateStatus::Done: return "done";
    case UpdateStatus::OutOfRange: return "binding or array element outside the set's layout";
    case UpdateStatus::TypeMismatch: return "descriptor type differs from the binding's type";
  }
  return "?";
}

UpdateStatus write_inline_uniform_block(const SetLayoutDesc& layout, const SetMemory& set, uint32_t binding,
                                        uint32_t offset, std::span<const uint8_t> bytes) {
  ElementCursor cursor(layout, set.variable_count, binding, offset);
  for (size_t done = 0; done < bytes.size();) {
    if (!cursor.valid()) return UpdateStatus::OutOfRange;
    if (!is_inline_uniform_block(cursor.binding().type)) return UpdateStatus::TypeMismatch;
    const uint32_t n = static_cast<uint32_t>(std::min<size_t>(bytes.size() - done, cursor.remaining_in_binding()));
    std::memcpy(element_address(set, cursor.binding(), cursor.element()), bytes.data() + done, n);
    done += n;
    cursor.advance(n);
  }
  return UpdateStatus::Done;
}

UpdateStatus copy_descriptors(const SetLayoutDesc& src_layout, const SetMemory& src, uint32_t src_binding,
                              uint32_t src_element, const SetLayoutDesc& dst_layout, const SetMemory& dst,
                              uint32_t dst_binding, uint32_t dst_element, uint32_t count) {
  ElementCursor from(src_layout, src.variable_count, src_binding, src_element);
  ElementCursor to(dst_layout, dst.variable_count, dst_binding, dst_element);
  for (uint32_t done = 0; done < count;) {
    if (!from.valid() || !to.valid()) return UpdateStatus::OutOfRange;
    const BindingLayout& a = from.binding();
    const BindingLayout& b = to.binding();
    if (a.type != b.type) return UpdateStatus::TypeMismatch;
    const uint32_t n = std::min({count - done, from.remaining_in_binding(), to.remaining_in_binding()});
    if (is_inline_uniform_block(a.type)) {
      std::memmove(element_address(dst, b, to.element()), element_address(src, a, from.element()), n);
    } else {
      for (uint32_t i = 0; i < n; ++i) {
        alignas(16) uint8_t record[abi::kDescriptorRecordSize];
        std::memcpy(record, element_address(src, a, from.element() + i), sizeof(record));
        store_record(dst_layout, dst, b, to.element() + i, record);
      }
    }
    done += n;
    from.advance(n);
    to.advance(n);
  }
  return UpdateStatus::Done;
}

}  // namespace kiln::desc
