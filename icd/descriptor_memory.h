#pragma once
// Descriptors are memory (ARCHITECTURE.md decision 2; record formats in common/abi/kernel_abi.h).
// This file is the pure part of Kiln's descriptor sets: where each binding lives in a set's
// memory, how a descriptor becomes a record, how updates walk bindings, and what pool capacity a
// set uses. It touches no Vulkan handle and no driver object, so unit tests call it directly; the
// entry points in descriptor_set_layout.cpp, descriptor_pool.cpp and descriptor_update.cpp
// resolve handles and call in here.
//
// A set's memory: bindings in binding-number order, each at a 16-byte aligned offset; one
// kDescriptorRecordSize record per array element, except INLINE_UNIFORM_BLOCK bindings, which hold
// their descriptorCount bytes (rounded up to 16). Dynamic buffers take no set memory: they live in
// the set's side array of DynamicBufferSlot, because their final address is only known when
// vkCmdBindDescriptorSets supplies the dynamic offset (see pipeline_binding.h).
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "icd/buffer_view.h"
#include "memory/resources.h"

namespace kiln::desc {

// Limits Kiln's descriptor sets obey; the physical-device properties report the same numbers.
constexpr uint32_t kMaxDescriptorsPerSet = 1u << 20;   // maxPerSetDescriptors
constexpr uint32_t kMaxDynamicBuffersPerType = 16;     // maxDescriptorSet{Uniform,Storage}BuffersDynamic
constexpr uint32_t kMaxInlineUniformBlockSize = 4096;  // maxInlineUniformBlockSize
constexpr uint32_t kMaxPushDescriptors = 32;         // maxPushDescriptors (VK_KHR_push_descriptor)
constexpr uint32_t kMaxInlineUniformBlocksPerSet = 32;  // maxDescriptorSetInlineUniformBlocks (only set memory size limits it)
static_assert(2 * kMaxDynamicBuffersPerType <= abi::kMaxDynamicBuffers);

// --- Descriptor types -------------------------------------------------------------------------

// Dense index of each descriptor type Kiln supports, for per-type pool accounting.
constexpr uint32_t kTypeSlotCount = 12;  // the 11 core 1.0 types + INLINE_UNIFORM_BLOCK
constexpr uint32_t kUnsupportedType = UINT32_MAX;
uint32_t type_slot(VkDescriptorType type);  // kUnsupportedType for types Kiln does not implement

inline bool is_dynamic_buffer(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}
inline bool is_inline_uniform_block(VkDescriptorType type) { return type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK; }
inline bool has_sampler(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
}

// How many descriptors of each type something holds or may hold: a set (what it takes from its
// pool) or a pool (its capacity). INLINE_UNIFORM_BLOCK counts bytes, as VkDescriptorPoolSize does.
struct DescriptorCounts {
  std::array<uint64_t, kTypeSlotCount> per_type{};
  uint64_t sets = 0;
  uint64_t inline_uniform_block_bindings = 0;

  DescriptorCounts& operator+=(const DescriptorCounts& other);
  DescriptorCounts& operator-=(const DescriptorCounts& other);
  // Whether `extra` more fit when `*this` are in use out of `capacity`.
  bool fits(const DescriptorCounts& extra, const DescriptorCounts& capacity) const;
};

// --- Set layouts ------------------------------------------------------------------------------

constexpr uint32_t kNoImmutableSamplers = UINT32_MAX;

struct BindingLayout {
  uint32_t binding;
  VkDescriptorType type;
  uint32_t count;  // array elements (bytes for inline uniform blocks); the maximum for a variable-count binding
  VkShaderStageFlags stages;
  VkDescriptorBindingFlags flags;
  uint32_t offset;         // byte offset in set memory (0 and unused for dynamic buffers)
  uint32_t dynamic_index;  // dynamic buffers: the first element's index in the set's side array
  uint32_t first_immutable_sampler;  // index in SetLayoutDesc::immutable_samplers, or kNoImmutableSamplers

  // Bytes one array element takes in set memory (1 for inline uniform blocks).
  uint32_t element_size() const { return is_inline_uniform_block(type) ? 1 : abi::kDescriptorRecordSize; }
};

struct SetLayoutDesc {
  std::vector<BindingLayout> bindings;          // sorted by binding number, no duplicates
  std::vector<const void*> immutable_samplers;  // sampler records (see descriptor_set_layout.h)
  uint32_t memory_size = 0;                     // bytes of set memory at every binding's full count
  uint32_t dynamic_count = 0;                   // entries of the side array
  uint32_t dynamic_uniform_count = 0;
  uint32_t dynamic_storage_count = 0;
  // The last binding has VARIABLE_DESCRIPTOR_COUNT: each set chooses its element count at
  // allocation (VkDescriptorSetVariableDescriptorCountAllocateInfo), and its memory ends there.
  bool variable_last_binding = false;

  const BindingLayout* find(uint32_t binding) const;
  // Index of `binding` in `bindings`, or bindings.size().
  size_t index_of(uint32_t binding) const;
  // Array elements binding `index` has in a set allocated with `variable_count`.
  uint32_t element_count(size_t index, uint32_t variable_count) const;
  // A requested variable count, limited to what the layout declares (0 without a variable binding).
  uint32_t clamp_variable_count(uint32_t requested) const;
  uint32_t memory_size_for(uint32_t variable_count) const;
  // What a set allocated with `variable_count` takes from its pool (one set included).
  DescriptorCounts counts_for(uint32_t variable_count) const;
  // The largest variable count a set of this layout can have within Kiln's limits (0 without a
  // variable binding): VkDescriptorSetVariableDescriptorCountLayoutSupport.
  uint32_t max_variable_count() const;
};

// Turns a sampler handle into the record pointer descriptors store.
using SamplerRecordFn = const void* (*)(VkSampler sampler);

// Builds the layout of VkDescriptorSetLayoutCreateInfo's bindings. `flags` is empty or has one
// entry per binding (VkDescriptorSetLayoutBindingFlagsCreateInfo). Returns nullptr on success,
// else why the layout is not supported (sizes beyond Kiln's limits, duplicate bindings, an
// unsupported type, a misplaced variable-count binding).
const char* build_set_layout(std::span<const VkDescriptorSetLayoutBinding> bindings,
                             std::span<const VkDescriptorBindingFlags> flags, SamplerRecordFn sampler_record,
                             SetLayoutDesc* out);

// --- Set memory -------------------------------------------------------------------------------

// A dynamic buffer as written into a set: the record its binding would have without a dynamic
// offset, plus how far the buffer extends, so that binding with an offset can clamp the range.
struct DynamicBufferSlot {
  uint64_t address;       // buffer data + descriptor offset; 0 for a null descriptor
  uint64_t range;         // as written (VK_WHOLE_SIZE resolved)
  uint64_t bytes_to_end;  // bytes from `address` to the end of the buffer
  uint64_t reserved;
};
static_assert(sizeof(DynamicBufferSlot) == abi::kDescriptorRecordSize);

// One set's storage, as its layout describes it.
struct SetMemory {
  uint8_t* records = nullptr;                   // memory_size_for(variable_count) bytes, 16-byte aligned
  DynamicBufferSlot* dynamic_buffers = nullptr;  // dynamic_count slots
  uint32_t variable_count = 0;
};

// A freshly allocated set: every record null (zero), immutable samplers in place.
void initialize_set_memory(const SetLayoutDesc& layout, const SetMemory& set);

// Where array element `element` of `binding` lives: a record in set memory, a byte of an inline
// uniform block, or a dynamic buffer's slot in the side array.
uint8_t* element_address(const SetMemory& set, const BindingLayout& binding, uint32_t element);

// --- Records ----------------------------------------------------------------------------------

// What one descriptor of an update refers to, with its handles already resolved. Which fields
// count depends on the descriptor type (as for VkWriteDescriptorSet).
struct DescriptorSource {
  const mem::Buffer* buffer = nullptr;  // buffers: VkDescriptorBufferInfo, null for a null descriptor
  VkDeviceSize offset = 0;
  VkDeviceSize range = 0;               // may be VK_WHOLE_SIZE
  const BufferView* texel_view = nullptr;  // texel buffers, null for a null descriptor
  const void* image_view = nullptr;        // image types: the view's record
  const void* sampler = nullptr;           // SAMPLER, COMBINED_IMAGE_SAMPLER: the sampler's record
};

abi::BufferDescriptor buffer_record(const mem::Buffer* buffer, VkDeviceSize offset, VkDeviceSize range);
DynamicBufferSlot dynamic_buffer_record(const mem::Buffer* buffer, VkDeviceSize offset, VkDeviceSize range);
abi::TexelBufferDescriptor texel_buffer_record(const BufferView* view);
// The texels of `format` in the `bytes` bytes at `address` (zero for a format without texels).
abi::TexelBufferDescriptor texel_record(uint64_t address, VkDeviceSize bytes, VkFormat format);
// The 32 bytes a descriptor of `type` stores for `source` (a DynamicBufferSlot for dynamic
// buffers). Returns false for types without records (inline uniform blocks, unsupported types).
bool encode_record(VkDescriptorType type, const DescriptorSource& source, uint8_t out[abi::kDescriptorRecordSize]);

// Stores a record at (binding, element), keeping an immutable sampler of the binding in place.
void store_record(const SetLayoutDesc& layout, const SetMemory& set, const BindingLayout& binding, uint32_t element,
                  const uint8_t record[abi::kDescriptorRecordSize]);

// --- Updates ----------------------------------------------------------------------------------

// Walks consecutive array elements from (binding, element) the way descriptor updates do: past
// the end of a binding the walk continues at element 0 of the next binding, skipping bindings
// with no elements (the spec's "consecutive binding updates").
class ElementCursor {
 public:
  ElementCursor(const SetLayoutDesc& layout, uint32_t variable_count, uint32_t binding, uint32_t element);
  // False once the walk has left the layout (or started at a binding it does not have).
  bool valid() const { return index_ < layout_->bindings.size(); }
  const BindingLayout& binding() const { return layout_->bindings[index_]; }
  uint32_t element() const { return element_; }
  uint32_t remaining_in_binding() const;
  void advance(uint32_t n);  // n <= remaining_in_binding()

 private:
  void skip_exhausted_bindings();
  const SetLayoutDesc* layout_;
  uint32_t variable_count_;
  size_t index_;
  uint32_t element_;
};

// Why an update stopped early; the elements before that point were written.
enum class UpdateStatus {
  Done,
  OutOfRange,    // ran past the last binding, or the binding does not exist
  TypeMismatch,  // reached a binding of another descriptor type
};
const char* describe(UpdateStatus status);

// Writes `count` descriptors of `type` starting at (binding, element); source(i) gives the i-th.
template <typename SourceFn>
UpdateStatus write_descriptors(const SetLayoutDesc& layout, const SetMemory& set, uint32_t binding, uint32_t element,
                               uint32_t count, VkDescriptorType type, SourceFn&& source) {
  ElementCursor cursor(layout, set.variable_count, binding, element);
  for (uint32_t done = 0; done < count;) {
    if (!cursor.valid()) return UpdateStatus::OutOfRange;
    const BindingLayout& target = cursor.binding();
    if (target.type != type || is_inline_uniform_block(type)) return UpdateStatus::TypeMismatch;
    const uint32_t n = std::min(count - done, cursor.remaining_in_binding());
    for (uint32_t i = 0; i < n; ++i) {
      alignas(16) uint8_t record[abi::kDescriptorRecordSize];
      if (!encode_record(type, source(done + i), record)) return UpdateStatus::TypeMismatch;
      store_record(layout, set, target, cursor.element() + i, record);
    }
    done += n;
    cursor.advance(n);
  }
  return UpdateStatus::Done;
}

// Writes bytes into inline uniform blocks from byte `offset` of `binding`
// (VkWriteDescriptorSetInlineUniformBlock: dstArrayElement and descriptorCount count bytes).
UpdateStatus write_inline_uniform_block(const SetLayoutDesc& layout, const SetMemory& set, uint32_t binding,
                                        uint32_t offset, std::span<const uint8_t> bytes);

// VkCopyDescriptorSet: copies `count` descriptors (bytes for inline uniform blocks), records and
// dynamic slots alike. The destination keeps its immutable samplers.
UpdateStatus copy_descriptors(const SetLayoutDesc& src_layout, const SetMemory& src, uint32_t src_binding,
                              uint32_t src_element, const SetLayoutDesc& dst_layout, const SetMemory& dst,
                              uint32_t dst_binding, uint32_t dst_element, uint32_t count);

}  // namespace kiln::desc
