// Descriptor-set memory (icd/descriptor_memory.h) and descriptor binding (icd/pipeline_binding.h)
// against hand-computed layouts, records and kernel resource contexts.
#include "icd/descriptor_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "icd/pipeline_binding.h"

namespace kiln::desc {
namespace {

constexpr uint32_t kRecord = abi::kDescriptorRecordSize;

VkDescriptorSetLayoutBinding binding(uint32_t number, VkDescriptorType type, uint32_t count,
                                     const VkSampler* immutable = nullptr) {
  return {number, type, count, VK_SHADER_STAGE_COMPUTE_BIT, immutable};
}

// Sampler "records" in these tests are the handle values themselves.
const void* fake_sampler_record(VkSampler sampler) { return reinterpret_cast<const void*>(sampler); }

SetLayoutDesc make_layout(std::vector<VkDescriptorSetLayoutBinding> bindings, std::vector<VkDescriptorBindingFlags> flags = {}) {
  SetLayoutDesc layout;
  const char* why = build_set_layout(bindings, flags, fake_sampler_record, &layout);
  EXPECT_EQ(nullptr, why) << why;
  return layout;
}

const char* layout_error(std::vector<VkDescriptorSetLayoutBinding> bindings, std::vector<VkDescriptorBindingFlags> flags = {}) {
  SetLayoutDesc layout;
  return build_set_layout(bindings, flags, fake_sampler_record, &layout);
}

// A set's storage as a pool would allocate it: 16-byte aligned records and a side array.
struct TestSet {
  struct alignas(16) Chunk {
    uint8_t bytes[16];
  };
  std::vector<Chunk> records;
  std::vector<DynamicBufferSlot> dynamic;
  SetMemory memory;

  explicit TestSet(const SetLayoutDesc& layout, uint32_t variable_count = 0) {
    variable_count = layout.clamp_variable_count(variable_count);
    records.resize(layout.memory_size_for(variable_count) / 16 + 1);  // +1: never a zero-size vector
    std::memset(records.data(), 0xEE, records.size() * 16);          // initialize_set_memory must clear it
    dynamic.resize(layout.dynamic_count + 1);
    memory.records = records.front().bytes;
    memory.dynamic_buffers = dynamic.data();
    memory.variable_count = variable_count;
    initialize_set_memory(layout, memory);
  }
  template <typename Record>
  Record record_at(uint32_t offset) const {
    Record r;
    std::memcpy(&r, memory.records + offset, sizeof(r));
    return r;
  }
};

struct TestBuffer {
  std::vector<uint8_t> storage;
  mem::Buffer buffer;
  explicit TestBuffer(size_t size) : storage(size) {
    buffer.size = size;
    buffer.data = storage.data();
  }
  uint64_t address(size_t offset) const { return reinterpret_cast<uint64_t>(storage.data() + offset); }
};

DescriptorSource buffer_source(const TestBuffer& b, VkDeviceSize offset, VkDeviceSize range) {
  DescriptorSource s;
  s.buffer = &b.buffer;
  s.offset = offset;
  s.range = range;
  return s;
}

// --- Layouts ----------------------------------------------------------------------------------

TEST(DescriptorSetLayout, BindingsAreSortedAndPlacedAtRecordOffsets) {
  const SetLayoutDesc layout = make_layout({
      binding(8, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 3),
      binding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
      binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
      binding(5, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 20),
      binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2),
      binding(7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1),
      binding(6, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 0),
  });
  ASSERT_EQ(7u, layout.bindings.size());
  const uint32_t expected_order[] = {0, 1, 3, 5, 6, 7, 8};
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(expected_order[i], layout.bindings[i].binding);

  EXPECT_EQ(0u, layout.find(0)->offset);
  EXPECT_EQ(kRecord, layout.find(3)->offset);       // dynamic binding 1 takes no set memory
  EXPECT_EQ(3 * kRecord, layout.find(5)->offset);   // after 2 storage buffer records
  EXPECT_EQ(3 * kRecord + 32, layout.find(6)->offset);  // 20 inline bytes round up to 32
  EXPECT_EQ(3 * kRecord + 32, layout.find(8)->offset);  // the empty binding takes nothing
  EXPECT_EQ(3 * kRecord + 32 + 3 * kRecord, layout.memory_size);
  for (const BindingLayout& b : layout.bindings) EXPECT_EQ(0u, b.offset % abi::kDescriptorRecordAlignment);

  EXPECT_EQ(0u, layout.find(1)->dynamic_index);
  EXPECT_EQ(2u, layout.find(7)->dynamic_index);
  EXPECT_EQ(3u, layout.dynamic_count);
  EXPECT_EQ(2u, layout.dynamic_uniform_count);
  EXPECT_EQ(1u, layout.dynamic_storage_count);
  EXPECT_EQ(nullptr, layout.find(2));
  EXPECT_FALSE(layout.variable_last_binding);
}

TEST(DescriptorSetLayout, CountsPerTypeIncludeInlineBytesAndOneSet) {
  const SetLayoutDesc layout = make_layout({
      binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2),
      binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64),
      binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 3),
      binding(3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 5),
  });
  const DescriptorCounts counts = layout.counts_for(0);
  EXPECT_EQ(1u, counts.sets);
  EXPECT_EQ(7u, counts.per_type[type_slot(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)]);
  EXPECT_EQ(64u, counts.per_type[type_slot(VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)]);
  EXPECT_EQ(3u, counts.per_type[type_slot(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)]);
  EXPECT_EQ(0u, counts.per_type[type_slot(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)]);
  EXPECT_EQ(1u, counts.inline_uniform_block_bindings);
}

TEST(DescriptorSetLayout, VariableCountBindingSizesEachSet) {
  const SetLayoutDesc layout =
      make_layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1), binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 100)},
                  {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT});
  EXPECT_TRUE(layout.variable_last_binding);
  EXPECT_EQ(kRecord + 100 * kRecord, layout.memory_size);
  EXPECT_EQ(kRecord + 10 * kRecord, layout.memory_size_for(10));
  EXPECT_EQ(kRecord, layout.memory_size_for(0));
  EXPECT_EQ(100u, layout.clamp_variable_count(1000));
  EXPECT_EQ(10u, layout.counts_for(10).per_type[type_slot(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)]);
  EXPECT_EQ(kMaxDescriptorsPerSet - 1, layout.max_variable_count());

  const SetLayoutDesc fixed = make_layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4)});
  EXPECT_EQ(0u, fixed.clamp_variable_count(7));
  EXPECT_EQ(0u, fixed.max_variable_count());
  EXPECT_EQ(4 * kRecord, fixed.memory_size_for(7));
}

TEST(DescriptorSetLayout, RejectsWhatKilnCannotHold) {
  EXPECT_NE(nullptr, layout_error({binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1), binding(1, VK_DESCRIPTOR_TYPE_SAMPLER, 1)}));
  EXPECT_NE(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4), binding(1, VK_DESCRIPTOR_TYPE_SAMPLER, 1)},
                                  {VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT, 0}));  // variable, not last
  EXPECT_NE(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 4)},
                                  {VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT}));
  EXPECT_NE(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 18)}));  // not a multiple of 4
  EXPECT_NE(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, kMaxInlineUniformBlockSize + 4)}));
  EXPECT_NE(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 10),
                                   binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 7)}));
  EXPECT_NE(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kMaxDescriptorsPerSet),
                                   binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1)}));
  EXPECT_NE(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1)}));
  EXPECT_NE(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_SAMPLER, 1)}, {0, 0}));  // flag count mismatch
  // The limits themselves are fine.
  EXPECT_EQ(nullptr, layout_error({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 16),
                                   binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 16),
                                   binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kMaxDescriptorsPerSet)}));
  EXPECT_EQ(nullptr, layout_error({}));
  std::vector<VkDescriptorSetLayoutBinding> blocks;
  for (uint32_t i = 0; i < kMaxInlineUniformBlocksPerSet; ++i) blocks.push_back(binding(i, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16));
  EXPECT_EQ(nullptr, layout_error(blocks));  // maxDescriptorSetInlineUniformBlocks blocks
  blocks.push_back(binding(kMaxInlineUniformBlocksPerSet, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16));
  EXPECT_NE(nullptr, layout_error(blocks));  // one more
}

// --- Records ----------------------------------------------------------------------------------

TEST(DescriptorRecords, BufferRecordAddsOffsetAndResolvesWholeSize) {
  TestBuffer b(256);
  abi::BufferDescriptor r = buffer_record(&b.buffer, 64, VK_WHOLE_SIZE);
  EXPECT_EQ(b.address(64), r.address);
  EXPECT_EQ(192u, r.range);
  EXPECT_EQ(0u, r.reserved[0]);
  r = buffer_record(&b.buffer, 16, 32);
  EXPECT_EQ(b.address(16), r.address);
  EXPECT_EQ(32u, r.range);
  // Bad input is clamped to the buffer or becomes a null descriptor.
  EXPECT_EQ(56u, buffer_record(&b.buffer, 200, 1000).range);
  EXPECT_EQ(0u, buffer_record(&b.buffer, 300, 4).address);
  EXPECT_EQ(0u, buffer_record(nullptr, 0, 4).address);
  mem::Buffer unbound;
  unbound.size = 64;
  EXPECT_EQ(0u, buffer_record(&unbound, 0, 4).address);
}

TEST(DescriptorRecords, DynamicSlotKnowsTheRestOfItsBuffer) {
  TestBuffer b(1000);
  const DynamicBufferSlot slot = dynamic_buffer_record(&b.buffer, 100, 64);
  EXPECT_EQ(b.address(100), slot.address);
  EXPECT_EQ(64u, slot.range);
  EXPECT_EQ(900u, slot.bytes_to_end);
}

TEST(DescriptorRecords, TexelBufferRecordCountsWholeTexels) {
  TestBuffer b(1024);
  BufferView view{&b.buffer, VK_FORMAT_R32G32B32A32_SFLOAT, 32, 100};
  abi::TexelBufferDescriptor r = texel_buffer_record(&view);
  EXPECT_EQ(b.address(32), r.address);
  EXPECT_EQ(6u, r.element_count);  // 100 bytes hold 6 whole 16-byte texels
  EXPECT_EQ(uint32_t(VK_FORMAT_R32G32B32A32_SFLOAT), r.format);
  view.format = VK_FORMAT_R8_UINT;
  view.range = 1024 - 32;
  EXPECT_EQ(992u, texel_buffer_record(&view).element_count);
  EXPECT_EQ(0u, texel_buffer_record(nullptr).address);
}

TEST(DescriptorRecords, ImageTypesStoreViewAndSamplerPointers) {
  DescriptorSource s;
  s.image_view = reinterpret_cast<const void*>(0x1230);
  s.sampler = reinterpret_cast<const void*>(0x4560);
  auto decode = [&](VkDescriptorType type) {
    uint8_t bytes[kRecord];
    EXPECT_TRUE(encode_record(type, s, bytes));
    abi::ImageSamplerDescriptor r;
    std::memcpy(&r, bytes, sizeof(r));
    return r;
  };
  EXPECT_EQ(s.image_view, decode(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER).image_view);
  EXPECT_EQ(s.sampler, decode(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER).sampler);
  EXPECT_EQ(nullptr, decode(VK_DESCRIPTOR_TYPE_SAMPLER).image_view);
  EXPECT_EQ(s.sampler, decode(VK_DESCRIPTOR_TYPE_SAMPLER).sampler);
  EXPECT_EQ(s.image_view, decode(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE).image_view);
  EXPECT_EQ(nullptr, decode(VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE).sampler);
  uint8_t bytes[kRecord];
  EXPECT_FALSE(encode_record(VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, s, bytes));
}

// --- Set memory and updates -------------------------------------------------------------------

TEST(DescriptorSetMemory, NewSetIsNullWithImmutableSamplersInPlace) {
  const VkSampler samplers[2] = {reinterpret_cast<VkSampler>(0x1000), reinterpret_cast<VkSampler>(0x2000)};
  const SetLayoutDesc layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                            binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, samplers),
                                            binding(2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1)});
  TestSet set(layout);
  EXPECT_EQ(0u, set.record_at<abi::BufferDescriptor>(0).address);
  for (uint32_t e = 0; e < 2; ++e) {
    const auto r = set.record_at<abi::ImageSamplerDescriptor>(layout.find(1)->offset + e * kRecord);
    EXPECT_EQ(nullptr, r.image_view);
    EXPECT_EQ(reinterpret_cast<const void*>(samplers[e]), r.sampler);
  }
  EXPECT_EQ(0u, set.dynamic[0].address);
  EXPECT_EQ(0u, set.dynamic[0].range);
}

TEST(DescriptorSetMemory, WritesOverflowIntoConsecutiveBindings) {
  const SetLayoutDesc layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                                            binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0),  // skipped
                                            binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                            binding(3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)});
  TestSet set(layout);
  TestBuffer b(4096);
  // Four descriptors from binding 0 element 1: 0[1], 2[0], 2[1], 2[2]; descriptor i at offset 64 * (i + 1).
  auto source = [&](uint32_t i) { return buffer_source(b, 64 * (i + 1), 16); };
  EXPECT_EQ(UpdateStatus::Done,
            write_descriptors(layout, set.memory, 0, 1, 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, source));
  EXPECT_EQ(0u, set.record_at<abi::BufferDescriptor>(0).address);  // 0[0] untouched
  for (uint32_t i = 0; i < 4; ++i) {
    const auto r = set.record_at<abi::BufferDescriptor>((i + 1) * kRecord);  // 0[1], then binding 2 from offset 64
    EXPECT_EQ(b.address(64 * (i + 1)), r.address) << i;
    EXPECT_EQ(16u, r.range) << i;
  }
  EXPECT_EQ(0u, set.record_at<abi::BufferDescriptor>(layout.find(3)->offset).address);

  // Running into a binding of another type stops there, after writing what fits.
  TestSet other(layout);
  EXPECT_EQ(UpdateStatus::TypeMismatch,
            write_descriptors(layout, other.memory, 2, 2, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, source));
  EXPECT_EQ(b.address(64), other.record_at<abi::BufferDescriptor>(layout.find(2)->offset + 2 * kRecord).address);
  EXPECT_EQ(0u, other.record_at<abi::BufferDescriptor>(layout.find(3)->offset).address);
  // Past the last binding, or at a binding the layout lacks: out of range, nothing written.
  EXPECT_EQ(UpdateStatus::OutOfRange,
            write_descriptors(layout, other.memory, 3, 0, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, source));
  EXPECT_EQ(b.address(64), other.record_at<abi::BufferDescriptor>(layout.find(3)->offset).address);
  EXPECT_EQ(UpdateStatus::OutOfRange,
            write_descriptors(layout, other.memory, 9, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, source));
  EXPECT_EQ(UpdateStatus::OutOfRange,
            write_descriptors(layout, other.memory, 3, 5, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, source));
}

TEST(DescriptorSetMemory, VariableCountLimitsWrites) {
  const SetLayoutDesc layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1), binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8)},
                                           {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT});
  TestSet set(layout, 3);
  TestBuffer b(256);
  auto source = [&](uint32_t) { return buffer_source(b, 0, 4); };
  EXPECT_EQ(UpdateStatus::Done, write_descriptors(layout, set.memory, 1, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, source));
  EXPECT_EQ(UpdateStatus::OutOfRange, write_descriptors(layout, set.memory, 1, 3, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, source));
}

TEST(DescriptorSetMemory, DynamicBuffersGoToTheSideArray) {
  const SetLayoutDesc layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2),
                                            binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)});
  TestSet set(layout);
  TestBuffer b(512);
  EXPECT_EQ(UpdateStatus::Done, write_descriptors(layout, set.memory, 0, 1, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                                                  [&](uint32_t) { return buffer_source(b, 128, 64); }));
  EXPECT_EQ(0u, set.dynamic[0].address);
  EXPECT_EQ(b.address(128), set.dynamic[1].address);
  EXPECT_EQ(64u, set.dynamic[1].range);
  EXPECT_EQ(384u, set.dynamic[1].bytes_to_end);
  EXPECT_EQ(0u, layout.find(1)->offset);  // set memory holds only binding 1, still null
  EXPECT_EQ(0u, set.record_at<abi::BufferDescriptor>(0).address);
}

TEST(DescriptorSetMemory, WritesKeepImmutableSamplers) {
  const VkSampler immutable[1] = {reinterpret_cast<VkSampler>(0x7000)};
  const SetLayoutDesc layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, immutable)});
  TestSet set(layout);
  DescriptorSource s;
  s.image_view = reinterpret_cast<const void*>(0x5550);
  s.sampler = reinterpret_cast<const void*>(0x9990);
  EXPECT_EQ(UpdateStatus::Done, write_descriptors(layout, set.memory, 0, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                  [&](uint32_t) { return s; }));
  const auto r = set.record_at<abi::ImageSamplerDescriptor>(0);
  EXPECT_EQ(s.image_view, r.image_view);
  EXPECT_EQ(reinterpret_cast<const void*>(0x7000), r.sampler);
}

TEST(DescriptorSetMemory, InlineUniformBlockWritesAreBytes) {
  const SetLayoutDesc layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16),
                                            binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 8)});
  TestSet set(layout);
  std::vector<uint8_t> bytes(20);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i + 1);
  // 12 bytes fill binding 0 from byte 4, the other 8 go to binding 1 (at offset 16).
  EXPECT_EQ(UpdateStatus::Done, write_inline_uniform_block(layout, set.memory, 0, 4, bytes));
  const uint8_t* memory = set.memory.records;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(0, memory[i]);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(i + 1, memory[4 + i]) << i;
  EXPECT_EQ(UpdateStatus::OutOfRange, write_inline_uniform_block(layout, set.memory, 1, 4, bytes));
  EXPECT_EQ(UpdateStatus::TypeMismatch,
            write_descriptors(layout, set.memory, 0, 0, 1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK,
                              [](uint32_t) { return DescriptorSource{}; }));
}

TEST(DescriptorSetMemory, CopiesRecordsSideArrayAndBytes) {
  const VkSampler immutable[2] = {reinterpret_cast<VkSampler>(0x1000), reinterpret_cast<VkSampler>(0x2000)};
  const SetLayoutDesc src_layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                                binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2),
                                                binding(2, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 8),
                                                binding(3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1)});
  const SetLayoutDesc dst_layout = make_layout({binding(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                                binding(5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                                                binding(6, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2),
                                                binding(7, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 8),
                                                binding(8, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, immutable)});
  TestSet src(src_layout), dst(dst_layout);
  TestBuffer b(1024);
  ASSERT_EQ(UpdateStatus::Done, write_descriptors(src_layout, src.memory, 0, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                  [&](uint32_t i) { return buffer_source(b, 16 * i, 8); }));
  ASSERT_EQ(UpdateStatus::Done, write_descriptors(src_layout, src.memory, 1, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
                                                  [&](uint32_t i) { return buffer_source(b, 512 + 64 * i, 32); }));
  const uint8_t block[8] = {9, 8, 7, 6, 5, 4, 3, 2};
  ASSERT_EQ(UpdateStatus::Done, write_inline_uniform_block(src_layout, src.memory, 2, 0, block));
  DescriptorSource image;
  image.image_view = reinterpret_cast<const void*>(0xABC0);
  image.sampler = reinterpret_cast<const void*>(0xDEF0);
  ASSERT_EQ(UpdateStatus::Done, write_descriptors(src_layout, src.memory, 3, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                  [&](uint32_t) { return image; }));

  // Three storage buffers into dst bindings 4 and 5 (overflowing), dynamic buffers, bytes, image.
  EXPECT_EQ(UpdateStatus::Done, copy_descriptors(src_layout, src.memory, 0, 0, dst_layout, dst.memory, 4, 0, 3));
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(b.address(16 * i), dst.record_at<abi::BufferDescriptor>(i * kRecord).address) << i;
    EXPECT_EQ(8u, dst.record_at<abi::BufferDescriptor>(i * kRecord).range) << i;
  }
  EXPECT_EQ(UpdateStatus::Done, copy_descriptors(src_layout, src.memory, 1, 1, dst_layout, dst.memory, 6, 0, 1));
  EXPECT_EQ(b.address(576), dst.dynamic[0].address);
  EXPECT_EQ(448u, dst.dynamic[0].bytes_to_end);
  EXPECT_EQ(0u, dst.dynamic[1].address);
  EXPECT_EQ(UpdateStatus::Done, copy_descriptors(src_layout, src.memory, 2, 2, dst_layout, dst.memory, 7, 0, 4));
  EXPECT_EQ(0, std::memcmp(block + 2, dst.memory.records + dst_layout.find(7)->offset, 4));
  EXPECT_EQ(UpdateStatus::Done, copy_descriptors(src_layout, src.memory, 3, 0, dst_layout, dst.memory, 8, 1, 1));
  const auto copied = dst.record_at<abi::ImageSamplerDescriptor>(dst_layout.find(8)->offset + kRecord);
  EXPECT_EQ(image.image_view, copied.image_view);
  EXPECT_EQ(reinterpret_cast<const void*>(0x2000), copied.sampler);  // dst's immutable sampler stays

  EXPECT_EQ(UpdateStatus::TypeMismatch, copy_descriptors(src_layout, src.memory, 0, 0, dst_layout, dst.memory, 6, 0, 1));
  EXPECT_EQ(UpdateStatus::OutOfRange, copy_descriptors(src_layout, src.memory, 3, 0, dst_layout, dst.memory, 8, 0, 2));
  EXPECT_EQ(UpdateStatus::OutOfRange, copy_descriptors(src_layout, src.memory, 9, 0, dst_layout, dst.memory, 4, 0, 1));
}

// --- Pool accounting --------------------------------------------------------------------------

TEST(DescriptorCounts, FitsChecksEveryTypeAndTheSetCount) {
  DescriptorCounts capacity;
  capacity.sets = 2;
  capacity.per_type[type_slot(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)] = 3;
  capacity.inline_uniform_block_bindings = 10;
  DescriptorCounts set;
  set.sets = 1;
  set.per_type[type_slot(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)] = 2;
  DescriptorCounts used;
  EXPECT_TRUE(used.fits(set, capacity));
  used += set;
  EXPECT_FALSE(used.fits(set, capacity));  // 4 uniform buffers > 3
  DescriptorCounts one_more_set;
  one_more_set.sets = 1;
  EXPECT_TRUE(used.fits(one_more_set, capacity));
  used += one_more_set;
  EXPECT_FALSE(used.fits(one_more_set, capacity));  // 3 sets > 2
  used -= set;
  EXPECT_TRUE(used.fits(set, capacity));
  DescriptorCounts sampler;
  sampler.per_type[type_slot(VK_DESCRIPTOR_TYPE_SAMPLER)] = 1;
  EXPECT_FALSE(used.fits(sampler, capacity));  // the pool has no samplers at all
}

TEST(DescriptorCounts, InlineUniformBlocksCountBytesAndBindings) {
  const SetLayoutDesc layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64),
                                            binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                            binding(2, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  const DescriptorCounts set = layout.counts_for(0);
  EXPECT_EQ(80u, set.per_type[type_slot(VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)]);
  EXPECT_EQ(2u, set.inline_uniform_block_bindings);
  DescriptorCounts capacity;  // room for two sets' bytes but only three bindings
  capacity.sets = 10;
  capacity.per_type[type_slot(VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)] = 160;
  capacity.per_type[type_slot(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)] = 10;
  capacity.inline_uniform_block_bindings = 3;
  DescriptorCounts used;
  ASSERT_TRUE(used.fits(set, capacity));
  used += set;
  EXPECT_FALSE(used.fits(set, capacity));  // 4 bindings > 3
  capacity.inline_uniform_block_bindings = 4;
  EXPECT_TRUE(used.fits(set, capacity));
  capacity.per_type[type_slot(VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)] = 159;
  EXPECT_FALSE(used.fits(set, capacity));  // 160 bytes > 159
}

TEST(DescriptorCounts, VariableCountBindingTakesItsAllocatedCount) {
  const SetLayoutDesc layout = make_layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2),
                                            binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 100)},
                                           {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT});
  EXPECT_EQ(7u, layout.counts_for(7).per_type[type_slot(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)]);
  EXPECT_EQ(2u, layout.counts_for(7).per_type[type_slot(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)]);
  EXPECT_EQ(100u, layout.counts_for(5000).per_type[type_slot(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)]);  // clamped
  EXPECT_EQ(0u, layout.counts_for(0).per_type[type_slot(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)]);
  EXPECT_EQ(kMaxDescriptorsPerSet - 2, layout.max_variable_count());
}

// --- Pipeline layouts and binding -------------------------------------------------------------

TEST(PipelineBinding, DynamicSlotsFollowSetOrder) {
  const SetLayoutDesc a = make_layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
                                       binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                       binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  const SetLayoutDesc c = make_layout({binding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2)});
  const SetLayoutDesc* sets[] = {&a, nullptr, &c};
  const VkPushConstantRange push[] = {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16}, {VK_SHADER_STAGE_VERTEX_BIT, 240, 16}};
  PipelineLayoutDesc layout;
  ASSERT_EQ(nullptr, build_pipeline_layout(sets, push, false, &layout));
  ASSERT_EQ(3u, layout.sets.size());
  EXPECT_EQ(0u, layout.first_dynamic_slot[0]);
  EXPECT_EQ(1u, layout.first_dynamic_slot[1]);
  EXPECT_EQ(1u, layout.first_dynamic_slot[2]);
  EXPECT_EQ(3u, layout.dynamic_count);
  EXPECT_EQ(2u, layout.dynamic_slot(2, *layout.sets[2].find(3), 1));
  EXPECT_EQ(2u, layout.push_constant_ranges.size());
  EXPECT_EQ(0u, layout.sets[1].bindings.size());
  EXPECT_EQ(kRecord, layout.sets[0].find(2)->offset);  // a copy: usable after the set layout is gone
}

TEST(PipelineBinding, RejectsLayoutsBeyondTheResourceContext) {
  PipelineLayoutDesc layout;
  const SetLayoutDesc empty;
  std::vector<const SetLayoutDesc*> nine(abi::kMaxBoundDescriptorSets + 1, &empty);
  EXPECT_NE(nullptr, build_pipeline_layout(nine, {}, false, &layout));
  const SetLayoutDesc ten = make_layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 10)});
  const SetLayoutDesc* twenty[] = {&ten, &ten};
  EXPECT_NE(nullptr, build_pipeline_layout(twenty, {}, false, &layout));
  const VkPushConstantRange too_far[] = {{VK_SHADER_STAGE_COMPUTE_BIT, 252, 8}};
  EXPECT_NE(nullptr, build_pipeline_layout({}, too_far, false, &layout));
  const VkPushConstantRange whole[] = {{VK_SHADER_STAGE_COMPUTE_BIT, 0, abi::kMaxPushConstantBytes}};
  EXPECT_EQ(nullptr, build_pipeline_layout({}, whole, false, &layout));
}

// Independent sets: set 1's dynamic buffers sit in the same slots whether set 0 is in the layout
// (with its own dynamic buffers) or left out, as pipeline libraries' partial layouts do.
TEST(PipelineBinding, IndependentSetsKeepEachSetsDynamicSlots) {
  const SetLayoutDesc a = make_layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 3)});
  const SetLayoutDesc b = make_layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2)});
  const SetLayoutDesc* full[] = {&a, &b};
  const SetLayoutDesc* partial[] = {nullptr, &b};
  PipelineLayoutDesc with_a, without_a, compact;
  ASSERT_EQ(nullptr, build_pipeline_layout(full, {}, true, &with_a));
  ASSERT_EQ(nullptr, build_pipeline_layout(partial, {}, true, &without_a));
  const BindingLayout& b0 = *with_a.sets[1].find(0);
  EXPECT_EQ(with_a.dynamic_slot(1, b0, 1), without_a.dynamic_slot(1, *without_a.sets[1].find(0), 1));
  EXPECT_EQ(kIndependentSetSlots + 1, with_a.dynamic_slot(1, b0, 1));
  EXPECT_EQ(kIndependentSetSlots + 2, with_a.dynamic_count);
  // Without the flag the slots are consecutive: set 1 follows set 0's three.
  ASSERT_EQ(nullptr, build_pipeline_layout(full, {}, false, &compact));
  EXPECT_EQ(4u, compact.dynamic_slot(1, *compact.sets[1].find(0), 1));
}

struct BindFixture {
  SetLayoutDesc a = make_layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1), binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  SetLayoutDesc b = make_layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2)});
  PipelineLayoutDesc layout;
  TestSet set_a{a}, set_b{b};
  TestBuffer buffer{1024};
  abi::ResourceContext context{};

  BindFixture() {
    const SetLayoutDesc* sets[] = {&a, &b};
    EXPECT_EQ(nullptr, build_pipeline_layout(sets, {}, false, &layout));
    write_descriptors(a, set_a.memory, 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                      [&](uint32_t) { return buffer_source(buffer, 0, 64); });
    write_descriptors(b, set_b.memory, 0, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
                      [&](uint32_t i) { return buffer_source(buffer, 512 * i, 256); });
  }
  BoundSet bound(const TestSet& s, const SetLayoutDesc& l) { return {s.memory.records, s.memory.dynamic_buffers, l.dynamic_count}; }
};

TEST(PipelineBinding, BindAppliesDynamicOffsetsInSetOrder) {
  BindFixture f;
  const BoundSet sets[] = {f.bound(f.set_a, f.a), f.bound(f.set_b, f.b)};
  const uint32_t offsets[] = {32, 64, 256};
  EXPECT_TRUE(bind_sets(f.layout, 0, sets, offsets, &f.context));
  EXPECT_EQ(f.set_a.memory.records, f.context.descriptor_sets[0]);
  EXPECT_EQ(f.set_b.memory.records, f.context.descriptor_sets[1]);
  EXPECT_EQ(nullptr, f.context.descriptor_sets[2]);
  EXPECT_EQ(f.buffer.address(32), f.context.dynamic_buffers[0].address);
  EXPECT_EQ(64u, f.context.dynamic_buffers[0].range);
  EXPECT_EQ(f.buffer.address(64), f.context.dynamic_buffers[1].address);
  EXPECT_EQ(256u, f.context.dynamic_buffers[1].range);
  EXPECT_EQ(f.buffer.address(512 + 256), f.context.dynamic_buffers[2].address);
  EXPECT_EQ(256u, f.context.dynamic_buffers[2].range);  // exactly to the end of the buffer

  // Rebinding only set 1 leaves set 0 and its dynamic buffer alone.
  const BoundSet only_b[] = {f.bound(f.set_b, f.b)};
  const uint32_t zero[] = {0, 0};
  EXPECT_TRUE(bind_sets(f.layout, 1, only_b, zero, &f.context));
  EXPECT_EQ(f.buffer.address(32), f.context.dynamic_buffers[0].address);
  EXPECT_EQ(f.buffer.address(0), f.context.dynamic_buffers[1].address);
  EXPECT_EQ(f.buffer.address(512), f.context.dynamic_buffers[2].address);
}

TEST(PipelineBinding, BadBindInputBecomesNullOrClamped) {
  BindFixture f;
  const BoundSet sets[] = {f.bound(f.set_a, f.a), f.bound(f.set_b, f.b)};
  // An offset that leaves only 100 bytes of the buffer clamps the range; one past the end is null.
  const uint32_t offsets[] = {0, 924, 600};
  EXPECT_FALSE(bind_sets(f.layout, 0, sets, offsets, &f.context));
  EXPECT_EQ(f.buffer.address(924), f.context.dynamic_buffers[1].address);
  EXPECT_EQ(100u, f.context.dynamic_buffers[1].range);
  EXPECT_EQ(0u, f.context.dynamic_buffers[2].address);
  EXPECT_EQ(0u, f.context.dynamic_buffers[2].range);
  // Too few offsets: the missing ones bind null.
  const uint32_t one[] = {16};
  EXPECT_FALSE(bind_sets(f.layout, 0, sets, one, &f.context));
  EXPECT_EQ(f.buffer.address(16), f.context.dynamic_buffers[0].address);
  EXPECT_EQ(0u, f.context.dynamic_buffers[1].address);
  // Sets beyond the pipeline layout are not bound.
  EXPECT_FALSE(bind_sets(f.layout, 1, sets, offsets, &f.context));
  EXPECT_EQ(nullptr, f.context.descriptor_sets[2]);
}

TEST(PipelineBinding, BindGivesEachSetsVariableCount) {
  const SetLayoutDesc variable = make_layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64)},
                                             {VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT});
  const SetLayoutDesc* sets[] = {&variable, &variable};
  PipelineLayoutDesc layout;
  ASSERT_EQ(nullptr, build_pipeline_layout(sets, {}, false, &layout));
  TestSet five(variable, 5), forty(variable, 40);
  abi::ResourceContext context{};
  const BoundSet bound[] = {{five.memory.records, nullptr, 0, 5}, {forty.memory.records, nullptr, 0, 40}};
  EXPECT_TRUE(bind_sets(layout, 0, bound, {}, &context));
  EXPECT_EQ(5u, context.variable_counts[0]);
  EXPECT_EQ(40u, context.variable_counts[1]);
  const BoundSet unbound[] = {{}};  // a VK_NULL_HANDLE set has no elements
  EXPECT_TRUE(bind_sets(layout, 1, unbound, {}, &context));
  EXPECT_EQ(0u, context.variable_counts[1]);
}

}  // namespace
}  // namespace kiln::desc
