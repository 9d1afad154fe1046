// Descriptor set layouts, pools, sets, updates (writes, copies, templates) and pipeline layouts
// through the loader: pool capacity and VK_ERROR_OUT_OF_POOL_MEMORY, freeing and resetting,
// updates the validation layer accepts, and — through a compute shader — where written, copied and
// templated buffer descriptors point once bound with dynamic offsets. The record bytes themselves
// are checked by tests/unit/descriptor_memory_test.cpp.
#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr VkDescriptorType kBufferTypes[] = {
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
    VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,   VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
};

VkDescriptorSetLayoutBinding layout_binding(uint32_t binding, VkDescriptorType type, uint32_t count) {
  return {binding, type, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
}

VkDescriptorSetLayoutCreateInfo layout_info(const std::vector<VkDescriptorSetLayoutBinding>& bindings) {
  VkDescriptorSetLayoutCreateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = static_cast<uint32_t>(bindings.size());
  info.pBindings = bindings.data();
  return info;
}

// Objects of one VkDevice (not necessarily the fixture's), destroyed with the TestDevice.
class DescriptorObjects {
 public:
  explicit DescriptorObjects(TestDevice& device) : device_(device) {}

  VkDescriptorSetLayout layout(const std::vector<VkDescriptorSetLayoutBinding>& bindings, const void* chain = nullptr) {
    VkDescriptorSetLayoutCreateInfo info = layout_info(bindings);
    info.pNext = chain;
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorSetLayout(device_.handle(), &info, nullptr, &layout));
    VkDevice d = device_.handle();
    device_.defer_destroy([=] { vkDestroyDescriptorSetLayout(d, layout, nullptr); });
    return layout;
  }

  VkDescriptorPool pool(uint32_t max_sets, const std::vector<VkDescriptorPoolSize>& sizes,
                        VkDescriptorPoolCreateFlags flags = 0) {
    VkDescriptorPoolCreateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.flags = flags;
    info.maxSets = max_sets;
    info.poolSizeCount = static_cast<uint32_t>(sizes.size());
    info.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorPool(device_.handle(), &info, nullptr, &pool));
    VkDevice d = device_.handle();
    device_.defer_destroy([=] { vkDestroyDescriptorPool(d, pool, nullptr); });
    return pool;
  }

  // Allocates one set; VK_NULL_HANDLE (and the result in *result) on failure.
  VkDescriptorSet set(VkDescriptorPool pool, VkDescriptorSetLayout layout, VkResult* result = nullptr,
                      const void* chain = nullptr) {
    VkDescriptorSetAllocateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    info.pNext = chain;
    info.descriptorPool = pool;
    info.descriptorSetCount = 1;
    info.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    const VkResult r = vkAllocateDescriptorSets(device_.handle(), &info, &set);
    if (result) *result = r;
    else EXPECT_EQ(VK_SUCCESS, r);
    return set;
  }

  VkBufferView buffer_view(VkBuffer buffer, VkFormat format, VkDeviceSize offset, VkDeviceSize range) {
    VkBufferViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = buffer;
    info.format = format;
    info.offset = offset;
    info.range = range;
    VkBufferView view = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateBufferView(device_.handle(), &info, nullptr, &view));
    VkDevice d = device_.handle();
    device_.defer_destroy([=] { vkDestroyBufferView(d, view, nullptr); });
    return view;
  }

 private:
  TestDevice& device_;
};

// Buffer contents that name their own address: word i holds kMark + i, so a uint a shader reads
// through a descriptor tells the byte offset the descriptor points at.
constexpr uint32_t kMark = 0xA0000;

void mark_words(const Buffer& buffer) {
  for (uint32_t i = 0; i < buffer.size / 4; ++i) reinterpret_cast<uint32_t*>(buffer.mapped)[i] = kMark + i;
}

VkDeviceSize offset_named_by(uint32_t word) { return VkDeviceSize{word - kMark} * 4; }

// Runs test shader `shader` once for each of `sets` (bound as set 0, laid out by `layout`, with
// `dynamic_offsets`); the shader stores `count` uints read through the set's descriptors into the
// one storage buffer of set 1. Returns, per set, the byte offsets those uints name.
std::vector<std::vector<VkDeviceSize>> read_offsets(TestDevice& device, DescriptorObjects& objects, const char* shader,
                                                    VkDescriptorSetLayout layout, const std::vector<VkDescriptorSet>& sets,
                                                    uint32_t count, const std::vector<uint32_t>& dynamic_offsets) {
  const auto n = static_cast<uint32_t>(sets.size());
  VkDescriptorSetLayout results_layout = objects.layout({layout_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  VkDescriptorPool pool = objects.pool(n, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, n}});
  std::vector<Buffer> results;
  std::vector<VkDescriptorSet> results_sets;
  for (uint32_t i = 0; i < n; ++i) {
    results.push_back(device.create_buffer(count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF));
    results_sets.push_back(objects.set(pool, results_layout));
    write_buffers(device.handle(), results_sets.back(), 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                  {{results.back().buffer, 0, VK_WHOLE_SIZE}});
  }
  SetsPipeline pipeline(device, shader, {layout, results_layout});
  device.run_commands([&](VkCommandBuffer cmd) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    for (uint32_t i = 0; i < n; ++i) {
      const VkDescriptorSet bound[2] = {sets[i], results_sets[i]};
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 2, bound,
                              static_cast<uint32_t>(dynamic_offsets.size()), dynamic_offsets.data());
      vkCmdDispatch(cmd, 1, 1, 1);
    }
    shader_writes_to_host_barrier(cmd);
  });
  std::vector<std::vector<VkDeviceSize>> offsets(n);
  for (uint32_t i = 0; i < n; ++i) {
    const auto* words = reinterpret_cast<const uint32_t*>(results[i].mapped);
    for (uint32_t k = 0; k < count; ++k) offsets[i].push_back(offset_named_by(words[k]));
  }
  return offsets;
}

// Kiln must refuse an allocation beyond the pool's capacity with VK_ERROR_OUT_OF_POOL_MEMORY;
// the spec lets other drivers succeed or report fragmentation instead.
#define EXPECT_POOL_EXHAUSTED(result)                                                            \
  do {                                                                                           \
    const VkResult r_ = (result);                                                                \
    if (is_kiln()) EXPECT_EQ(VK_ERROR_OUT_OF_POOL_MEMORY, r_);                                   \
    else EXPECT_TRUE(r_ == VK_SUCCESS || r_ == VK_ERROR_OUT_OF_POOL_MEMORY || r_ == VK_ERROR_FRAGMENTED_POOL) << r_; \
  } while (0)

class DescriptorTest : public VulkanTest {
 protected:
  DescriptorObjects& objects() {
    if (!objects_) objects_ = std::make_unique<DescriptorObjects>(device());
    return *objects_;
  }
  VkDeviceSize storage_alignment() { return device().properties().limits.minStorageBufferOffsetAlignment; }
  VkDeviceSize uniform_alignment() { return device().properties().limits.minUniformBufferOffsetAlignment; }
  // Whether `format` can back both uniform and storage texel buffers (the spec requires it for
  // R32_UINT).
  bool texel_buffers_supported(VkFormat format) {
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(physical_device(), format, &properties);
    const VkFormatFeatureFlags both =
        VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
    return (properties.bufferFeatures & both) == both;
  }

 private:
  std::unique_ptr<DescriptorObjects> objects_;
};

// --- Layouts ----------------------------------------------------------------------------------

TEST_F(DescriptorTest, LayoutsOfEveryBufferTypeAreSupportedAndCreated) {
  for (VkDescriptorType type : kBufferTypes) {
    const std::vector<VkDescriptorSetLayoutBinding> bindings = {layout_binding(0, type, 4)};
    const VkDescriptorSetLayoutCreateInfo info = layout_info(bindings);
    VkDescriptorSetLayoutSupport support{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
    vkGetDescriptorSetLayoutSupport(device().handle(), &info, &support);
    EXPECT_TRUE(support.supported) << "type " << type;
    EXPECT_NE(VK_NULL_HANDLE, objects().layout(bindings)) << "type " << type;
  }
  // All of them in one layout, with sparse binding numbers, out of order, and an empty binding.
  std::vector<VkDescriptorSetLayoutBinding> mixed;
  uint32_t number = 20;
  for (VkDescriptorType type : kBufferTypes) mixed.push_back(layout_binding(number -= 3, type, 2));
  mixed.push_back(layout_binding(30, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0));
  EXPECT_NE(VK_NULL_HANDLE, objects().layout(mixed));
  EXPECT_NE(VK_NULL_HANDLE, objects().layout({}));
}

TEST_F(DescriptorTest, LayoutSupportFollowsMaxPerSetDescriptors) {
  VkPhysicalDeviceMaintenance3Properties m3{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &m3};
  vkGetPhysicalDeviceProperties2(physical_device(), &properties2);
  ASSERT_GE(m3.maxPerSetDescriptors, 1024u);
  // Within the limit the spec guarantees support.
  std::vector<VkDescriptorSetLayoutBinding> bindings = {
      layout_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, m3.maxPerSetDescriptors / 2),
      layout_binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, m3.maxPerSetDescriptors / 2)};
  VkDescriptorSetLayoutCreateInfo info = layout_info(bindings);
  VkDescriptorSetLayoutSupport support{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
  vkGetDescriptorSetLayoutSupport(device().handle(), &info, &support);
  EXPECT_TRUE(support.supported);
  // Beyond it, other drivers may still say yes; Kiln (descriptor memory is host memory) says no.
  KILN_ONLY();
  bindings[1].descriptorCount = m3.maxPerSetDescriptors / 2 + 1;
  info = layout_info(bindings);
  vkGetDescriptorSetLayoutSupport(device().handle(), &info, &support);
  EXPECT_FALSE(support.supported);
}

// --- Pools ------------------------------------------------------------------------------------

TEST_F(DescriptorTest, PoolHandsOutMaxSetsThenRunsOut) {
  VkDescriptorSetLayout layout = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  VkDescriptorPool pool = objects().pool(3, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 100}});
  std::vector<VkDescriptorSet> sets;
  for (int i = 0; i < 3; ++i) sets.push_back(objects().set(pool, layout));
  for (VkDescriptorSet set : sets) EXPECT_NE(VK_NULL_HANDLE, set);
  VkResult result;
  objects().set(pool, layout, &result);
  EXPECT_POOL_EXHAUSTED(result);
}

TEST_F(DescriptorTest, PoolRunsOutOfOneDescriptorType) {
  VkDescriptorSetLayout two_ubos = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2)});
  VkDescriptorSetLayout one_ssbo = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  VkDescriptorPool pool = objects().pool(10, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
                                              {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2}});  // 5 uniform buffers in all
  EXPECT_NE(VK_NULL_HANDLE, objects().set(pool, two_ubos));
  EXPECT_NE(VK_NULL_HANDLE, objects().set(pool, two_ubos));
  VkResult result;
  objects().set(pool, two_ubos, &result);  // 6 > 5
  EXPECT_POOL_EXHAUSTED(result);
  // Storage buffers are counted separately and still available.
  EXPECT_NE(VK_NULL_HANDLE, objects().set(pool, one_ssbo));
  objects().set(pool, one_ssbo, &result);
  EXPECT_POOL_EXHAUSTED(result);
}

TEST_F(DescriptorTest, FailedMultiSetAllocationLeavesNothingAllocated) {
  VkDescriptorSetLayout layout = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1)});
  VkDescriptorPool pool = objects().pool(2, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2}});
  const VkDescriptorSetLayout layouts[3] = {layout, layout, layout};
  VkDescriptorSetAllocateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorPool = pool;
  info.descriptorSetCount = 3;
  info.pSetLayouts = layouts;
  std::array<VkDescriptorSet, 3> sets;
  sets.fill(reinterpret_cast<VkDescriptorSet>(uint64_t{0xBAD}));
  const VkResult result = vkAllocateDescriptorSets(device().handle(), &info, sets.data());
  EXPECT_POOL_EXHAUSTED(result);
  if (result != VK_SUCCESS) {
    for (VkDescriptorSet set : sets) EXPECT_EQ(VK_NULL_HANDLE, set);  // the spec's rule for a failed call
    // The two sets that fitted were released again: both can still be allocated.
    info.descriptorSetCount = 2;
    EXPECT_EQ(VK_SUCCESS, vkAllocateDescriptorSets(device().handle(), &info, sets.data()));
  }
}

TEST_F(DescriptorTest, FreedSetsReturnTheirCapacity) {
  VkDescriptorSetLayout layout = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4)});
  VkDescriptorPool pool = objects().pool(2, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8}},
                                         VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
  VkDescriptorSet a = objects().set(pool, layout);
  VkDescriptorSet b = objects().set(pool, layout);
  VkResult result;
  objects().set(pool, layout, &result);
  EXPECT_POOL_EXHAUSTED(result);
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(VK_SUCCESS, vkFreeDescriptorSets(device().handle(), pool, 1, &a));
    a = objects().set(pool, layout);
    EXPECT_NE(VK_NULL_HANDLE, a);
  }
  const VkDescriptorSet both[] = {a, b, VK_NULL_HANDLE};  // null handles are ignored
  EXPECT_EQ(VK_SUCCESS, vkFreeDescriptorSets(device().handle(), pool, 3, both));
  EXPECT_NE(VK_NULL_HANDLE, objects().set(pool, layout));
  EXPECT_NE(VK_NULL_HANDLE, objects().set(pool, layout));
}

TEST_F(DescriptorTest, ResetFreesEverySet) {
  VkDescriptorSetLayout layout = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 3)});
  VkDescriptorPool pool = objects().pool(2, {{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 6}});
  for (int round = 0; round < 3; ++round) {
    EXPECT_NE(VK_NULL_HANDLE, objects().set(pool, layout)) << "round " << round;
    EXPECT_NE(VK_NULL_HANDLE, objects().set(pool, layout)) << "round " << round;
    VkResult result;
    objects().set(pool, layout, &result);
    EXPECT_POOL_EXHAUSTED(result);
    EXPECT_EQ(VK_SUCCESS, vkResetDescriptorPool(device().handle(), pool, 0));
  }
}

// --- Updates ----------------------------------------------------------------------------------

// Writes and copies of every buffer descriptor type, as descriptor_every_buffer_type.comp sees
// them: each element must point where its write or copy put it, and every element no update
// reached keeps the background descriptor both sets start with.
TEST_F(DescriptorTest, WritesOfEveryBufferTypeAndCopies) {
  const VkDeviceSize ua = uniform_alignment(), sa = storage_alignment();
  const VkFormat texel_format = VK_FORMAT_R32_UINT;
  ASSERT_TRUE(texel_buffers_supported(texel_format));
  Buffer buffer = device().create_buffer(64 * 1024, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                        VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                                                        VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  mark_words(buffer);
  VkBufferView views[2] = {objects().buffer_view(buffer.buffer, texel_format, 0, 256),
                           objects().buffer_view(buffer.buffer, texel_format, 1024, VK_WHOLE_SIZE)};

  // Binding 1 is followed by a binding of the same type, so a write can run from one into the other.
  const std::vector<VkDescriptorSetLayoutBinding> bindings = {layout_binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2),
                                                              layout_binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                                                              layout_binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                                              layout_binding(3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2),
                                                              layout_binding(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2),
                                                              layout_binding(5, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 2),
                                                              layout_binding(6, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 2)};
  VkDescriptorSetLayout layout = objects().layout(bindings);
  std::vector<VkDescriptorPoolSize> sizes;
  for (VkDescriptorType type : kBufferTypes) sizes.push_back({type, 4});
  sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 6});
  VkDescriptorPool pool = objects().pool(2, sizes);
  VkDescriptorSet src = objects().set(pool, layout);
  VkDescriptorSet dst = objects().set(pool, layout);

  // The background: every element of both sets, before the updates under test.
  const VkDeviceSize step = std::max(ua, sa);
  const VkDeviceSize background_offset = 16 * step, background_texel_offset = 12288;
  const VkBufferView background_view = objects().buffer_view(buffer.buffer, texel_format, background_texel_offset, 256);
  for (VkDescriptorSet set : {src, dst})
    for (const VkDescriptorSetLayoutBinding& b : bindings) {
      const std::vector<VkDescriptorBufferInfo> buffer_fill(b.descriptorCount, {buffer.buffer, background_offset, 256});
      const std::vector<VkBufferView> view_fill(b.descriptorCount, background_view);
      VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w.dstSet = set;
      w.dstBinding = b.binding;
      w.descriptorCount = b.descriptorCount;
      w.descriptorType = b.descriptorType;
      w.pBufferInfo = buffer_fill.data();
      w.pTexelBufferView = view_fill.data();
      vkUpdateDescriptorSets(device().handle(), 1, &w, 0, nullptr);
    }

  std::vector<VkDescriptorBufferInfo> infos;
  for (uint32_t i = 0; i < 4; ++i) infos.push_back({buffer.buffer, i * 4 * step, 256});
  const VkDescriptorBufferInfo whole[2] = {{buffer.buffer, 0, VK_WHOLE_SIZE}, {buffer.buffer, 4 * ua, VK_WHOLE_SIZE}};
  std::vector<VkWriteDescriptorSet> writes;
  auto write = [&](uint32_t binding, uint32_t element, uint32_t count, VkDescriptorType type,
                   const VkDescriptorBufferInfo* buffer_infos) {
    VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = src;
    w.dstBinding = binding;
    w.dstArrayElement = element;
    w.descriptorCount = count;
    w.descriptorType = type;
    w.pBufferInfo = buffer_infos;
    w.pTexelBufferView = views;
    writes.push_back(w);
  };
  write(0, 0, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, whole);
  write(1, 1, 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, infos.data());  // 1[1], then 2[0..2]
  write(3, 0, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, infos.data());
  write(4, 1, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, infos.data() + 2);
  write(5, 0, 2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, nullptr);
  write(6, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, nullptr);
  vkUpdateDescriptorSets(device().handle(), static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);

  std::vector<VkCopyDescriptorSet> copies;
  auto copy = [&](uint32_t binding, uint32_t element, uint32_t count, uint32_t dst_element) {
    VkCopyDescriptorSet c{.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
    c.srcSet = src;
    c.srcBinding = binding;
    c.srcArrayElement = element;
    c.dstSet = dst;
    c.dstBinding = binding;
    c.dstArrayElement = dst_element;
    c.descriptorCount = count;
    copies.push_back(c);
  };
  copy(0, 0, 2, 0);
  copy(1, 1, 4, 1);  // across bindings 1 and 2 again
  copy(3, 0, 2, 0);
  copy(4, 1, 1, 0);
  copy(5, 1, 1, 0);
  copy(6, 0, 2, 0);
  vkUpdateDescriptorSets(device().handle(), 0, nullptr, static_cast<uint32_t>(copies.size()), copies.data());
  // Copies within one set work too.
  copy(0, 0, 1, 1);
  copies.back().dstSet = src;
  vkUpdateDescriptorSets(device().handle(), 0, nullptr, 1, &copies.back());

  // Where each element must point, in the shader's order: bindings 0 to 6, element by element.
  const VkDeviceSize bg = background_offset, texel_bg = background_texel_offset;
  const std::vector<VkDeviceSize> want_src = {
      0,        0,                     // 0: whole[0], then whole[0] again by the copy within the set
      bg,       0,                     // 1: not written, infos[0]
      4 * step, 8 * step, 12 * step,   // 2: infos[1..3], the write run on from binding 1
      0,        4 * step,              // 3: infos[0..1]
      bg,       8 * step,              // 4: not written, infos[2]
      0,        1024,                  // 5: views[0..1]
      0,        1024};                 // 6: views[0..1]
  const std::vector<VkDeviceSize> want_dst = {
      0,        4 * ua,                // 0: whole[0..1], copied before the copy within the source
      bg,       0,                     // 1: not copied, source 1[1]
      4 * step, 8 * step, 12 * step,   // 2: source 2[0..2], the copy run on from binding 1
      0,        4 * step,              // 3: source 3[0..1]
      8 * step, bg,                    // 4: source 4[1], not copied
      1024,     texel_bg,              // 5: source 5[1], not copied
      0,        1024};                 // 6: source 6[0..1]
  const std::vector<uint32_t> dynamic_offsets(4, 0);
  const auto got = read_offsets(device(), objects(), "descriptor_every_buffer_type.comp", layout, {src, dst},
                                static_cast<uint32_t>(want_src.size()), dynamic_offsets);
  EXPECT_EQ(want_src, got[0]) << "source set";
  EXPECT_EQ(want_dst, got[1]) << "destination set";
}

// An update template reads each descriptor at its entry's offset and stride in the application's
// struct: a shader must find every descriptor of every set where that set's struct said.
TEST_F(DescriptorTest, UpdateTemplatesReadTheApplicationsStruct) {
  ASSERT_TRUE(texel_buffers_supported(VK_FORMAT_R32_UINT));
  Buffer buffer = device().create_buffer(16 * 1024, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                                        VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                                                        VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  mark_words(buffer);
  const VkDeviceSize step = std::max<VkDeviceSize>(storage_alignment(), 256);
  VkDescriptorSetLayout layout = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                                   layout_binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
                                                   layout_binding(2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1)});
  VkDescriptorPool pool = objects().pool(4, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 12},
                                             {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 4},
                                             {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 4}});

  // The application's own record of its resources, laid out as it likes.
  struct Resources {
    uint32_t unrelated;
    struct {
      VkDescriptorBufferInfo info;
      uint64_t padding;  // the template's stride skips it
    } storage[3];
    VkDescriptorBufferInfo dynamic;
    VkBufferView texels;
  };
  const VkDescriptorUpdateTemplateEntry entries[] = {
      {0, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(Resources, storage), sizeof(Resources::storage[0])},
      {1, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, offsetof(Resources, dynamic), 0},
      {2, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, offsetof(Resources, texels), 0},
  };
  VkDescriptorUpdateTemplateCreateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  info.descriptorUpdateEntryCount = static_cast<uint32_t>(std::size(entries));
  info.pDescriptorUpdateEntries = entries;
  info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  info.descriptorSetLayout = layout;
  VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateDescriptorUpdateTemplate(device().handle(), &info, nullptr, &update_template));
  // Set k's resources lie k steps further into the buffer than set 0's, so each set's reads name
  // its own update: storage buffers at steps 1-3, the dynamic uniform buffer at 4, the texels at 5.
  std::vector<VkDescriptorSet> sets;
  std::vector<std::vector<VkDeviceSize>> want;
  for (uint32_t k = 0; k < 4; ++k) {
    sets.push_back(objects().set(pool, layout));
    ASSERT_NE(VK_NULL_HANDLE, sets.back());
    Resources resources{};
    for (uint32_t i = 0; i < 3; ++i) resources.storage[i].info = {buffer.buffer, step * (k + 1 + i), step};
    resources.dynamic = {buffer.buffer, step * (k + 4), 64};
    resources.texels = objects().buffer_view(buffer.buffer, VK_FORMAT_R32_UINT, step * (k + 5), VK_WHOLE_SIZE);
    vkUpdateDescriptorSetWithTemplate(device().handle(), sets.back(), update_template, &resources);
    want.push_back({step * (k + 1), step * (k + 2), step * (k + 3), step * (k + 4), step * (k + 5)});
  }
  vkDestroyDescriptorUpdateTemplate(device().handle(), update_template, nullptr);
  EXPECT_EQ(want, read_offsets(device(), objects(), "descriptor_storage_uniform_texel.comp", layout, sets, 5, {0}));
}

// --- Pipeline layouts -------------------------------------------------------------------------

// Set layouts may be destroyed once the pipeline layouts and sets made from them exist: a
// pipeline created afterwards from the pipeline layout must still see every descriptor of sets
// written before, with the dynamic offsets in set, binding and element order, and the push
// constants of its stage's range.
TEST_F(DescriptorTest, PipelineLayoutsOutliveTheirSetLayouts) {
  const VkPhysicalDeviceLimits& limits = device().properties().limits;
  ASSERT_GE(limits.maxBoundDescriptorSets, 4u);
  if (is_kiln()) {
    EXPECT_EQ(8u, limits.maxBoundDescriptorSets);  // common/abi/kernel_abi.h: kMaxBoundDescriptorSets
    EXPECT_EQ(256u, limits.maxPushConstantsSize);  // kMaxPushConstantBytes
    EXPECT_EQ(32u, limits.maxDescriptorSetUniformBuffersDynamic + limits.maxDescriptorSetStorageBuffersDynamic);
  }
  // Half the spec's minimum of each (8 and 4) per set: descriptor_outlived_layouts.comp's arrays.
  constexpr uint32_t uniform_dynamic = 4, storage_dynamic = 2;
  ASSERT_GE(limits.maxDescriptorSetUniformBuffersDynamic, 2 * uniform_dynamic);
  ASSERT_GE(limits.maxDescriptorSetStorageBuffersDynamic, 2 * storage_dynamic);
  ASSERT_TRUE(texel_buffers_supported(VK_FORMAT_R32_UINT));
  VkDevice d = device().handle();
  auto make_layout = [&](const std::vector<VkDescriptorSetLayoutBinding>& bindings) {
    const VkDescriptorSetLayoutCreateInfo info = layout_info(bindings);
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorSetLayout(d, &info, nullptr, &layout));
    return layout;
  };
  // Dynamic buffers in sets 0 and 2 (both kinds), none in set 1.
  VkDescriptorSetLayout set_layouts[3] = {
      make_layout({layout_binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, uniform_dynamic),
                   layout_binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2)}),
      make_layout({layout_binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1)}),
      make_layout({layout_binding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, storage_dynamic),
                   layout_binding(4, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, uniform_dynamic)}),
  };
  const VkPushConstantRange push[] = {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 64},
                                      {VK_SHADER_STAGE_VERTEX_BIT, 64, limits.maxPushConstantsSize - 64}};
  VkPipelineLayoutCreateInfo info{.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 3;
  info.pSetLayouts = set_layouts;
  info.pushConstantRangeCount = 2;
  info.pPushConstantRanges = push;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreatePipelineLayout(d, &info, nullptr, &pipeline_layout));
  device().defer_destroy([=] { vkDestroyPipelineLayout(d, pipeline_layout, nullptr); });
  VkPipelineLayout empty_layout = VK_NULL_HANDLE;
  VkPipelineLayoutCreateInfo empty_info{.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  ASSERT_EQ(VK_SUCCESS, vkCreatePipelineLayout(d, &empty_info, nullptr, &empty_layout));
  vkDestroyPipelineLayout(d, empty_layout, nullptr);

  VkDescriptorPool pool = objects().pool(
      3, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2 * uniform_dynamic}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2},
          {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, storage_dynamic}},
      VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
  VkDescriptorSetAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate.descriptorPool = pool;
  allocate.descriptorSetCount = 3;
  allocate.pSetLayouts = set_layouts;
  VkDescriptorSet sets[3];
  ASSERT_EQ(VK_SUCCESS, vkAllocateDescriptorSets(d, &allocate, sets));

  // Descriptor k of the shader's reads (descriptor_outlived_layouts.comp's order) points at step
  // k + 1 of a buffer whose words name their offsets; dynamic ones move on by their offsets.
  const VkDeviceSize step = 256;  // a multiple of every offset alignment the suite meets
  ASSERT_EQ(0u, step % std::max({uniform_alignment(), storage_alignment(), limits.minTexelBufferOffsetAlignment}));
  Buffer data = device().create_buffer(64 * step, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                      VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  mark_words(data);
  Buffer results = device().create_buffer(13 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  auto at_steps = [&](uint32_t first, uint32_t count) {
    std::vector<VkDescriptorBufferInfo> infos;
    for (uint32_t i = 0; i < count; ++i) infos.push_back({data.buffer, (first + i) * step, 16});
    return infos;
  };
  write_buffers(d, sets[0], 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, at_steps(1, uniform_dynamic));
  write_buffers(d, sets[0], 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                {at_steps(5, 1)[0], {results.buffer, 0, VK_WHOLE_SIZE}});
  const VkBufferView texels = objects().buffer_view(data.buffer, VK_FORMAT_R32_UINT, 6 * step, step);
  VkWriteDescriptorSet texel_write{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  texel_write.dstSet = sets[1];
  texel_write.descriptorCount = 1;
  texel_write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  texel_write.pTexelBufferView = &texels;
  vkUpdateDescriptorSets(d, 1, &texel_write, 0, nullptr);
  write_buffers(d, sets[2], 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, at_steps(7, storage_dynamic));
  write_buffers(d, sets[2], 4, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, at_steps(9, uniform_dynamic));

  // Only now do the set layouts go, before the pipeline is even created.
  for (VkDescriptorSetLayout layout : set_layouts) vkDestroyDescriptorSetLayout(d, layout, nullptr);
  const VkPipeline pipeline = create_compute_pipeline(device(), "descriptor_outlived_layouts.comp", pipeline_layout);
  // Dynamic offsets: set 0's four uniform buffers, then set 2's two storage and four uniform buffers.
  std::vector<uint32_t> dynamic_offsets;
  for (uint32_t i = 0; i < 2 * uniform_dynamic + storage_dynamic; ++i) dynamic_offsets.push_back((20 + i) * step);
  const uint32_t push_value = 0xC0FFEE;
  device().run_commands([&](VkCommandBuffer cmd) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 3, sets,
                            static_cast<uint32_t>(dynamic_offsets.size()), dynamic_offsets.data());
    vkCmdPushConstants(cmd, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &push_value);
    vkCmdDispatch(cmd, 1, 1, 1);
    shader_writes_to_host_barrier(cmd);
  });
  const auto* words = reinterpret_cast<const uint32_t*>(results.mapped);
  std::vector<VkDeviceSize> want, got;
  for (uint32_t k = 0; k < 12; ++k) {
    const bool dynamic = k < 4 || k >= 6;  // all but the storage buffer (4) and the texel buffer (5)
    want.push_back((k + 1) * step + (dynamic ? dynamic_offsets[k < 4 ? k : k - 2] : 0));
    got.push_back(offset_named_by(words[k]));
  }
  EXPECT_EQ(want, got) << "byte offsets read through descriptors 0-3 (set 0), 4-5 (sets 0, 1), 6-11 (set 2)";
  EXPECT_EQ(push_value, words[12]) << "push constant";

  // Sets outlive their layouts too: they can still be freed, and the pool reset.
  EXPECT_EQ(VK_SUCCESS, vkFreeDescriptorSets(d, pool, 1, &sets[1]));
  EXPECT_EQ(VK_SUCCESS, vkResetDescriptorPool(d, pool, 0));
}

// --- Contents, as a shader sees them ----------------------------------------------------------

TEST_F(DescriptorTest, ShaderReadsThroughWrittenCopiedAndTemplatedDescriptors) {
  TestDevice& dev = device();
  VkDevice d = dev.handle();
  Buffer data = dev.create_buffer(4096, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  mark_words(data);
  Buffer results = dev.create_buffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xFF);
  const VkDeviceSize step = 256;  // a multiple of every offset alignment the suite meets
  ASSERT_EQ(0u, step % std::max(uniform_alignment(), storage_alignment()));

  VkDescriptorSetLayout set0_layout = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
                                                        layout_binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                                                        layout_binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2)});
  VkDescriptorSetLayout set1_layout = objects().layout({layout_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1),
                                                        layout_binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  SetsPipeline gather(dev, "descriptor_gather.comp", {set0_layout, set1_layout});
  VkDescriptorPool pool = objects().pool(3, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1},
                                             {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 6},
                                             {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2}});
  VkDescriptorSet set0 = objects().set(pool, set0_layout);
  VkDescriptorSet set1 = objects().set(pool, set1_layout);
  VkDescriptorSet staging = objects().set(pool, set1_layout);

  // Set 0, binding 0: through an update template.
  const VkDescriptorBufferInfo uniform_info{data.buffer, 1 * step, 16};
  const VkDescriptorUpdateTemplateEntry entry{0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 0, 0};
  VkDescriptorUpdateTemplateCreateInfo template_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  template_info.descriptorUpdateEntryCount = 1;
  template_info.pDescriptorUpdateEntries = &entry;
  template_info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  template_info.descriptorSetLayout = set0_layout;
  VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateDescriptorUpdateTemplate(d, &template_info, nullptr, &update_template));
  vkUpdateDescriptorSetWithTemplate(d, set0, update_template, &uniform_info);
  vkDestroyDescriptorUpdateTemplate(d, update_template, nullptr);

  // Set 0, bindings 1 and 2: element 1[0] alone, then one write of three from 1[1] into 2[0..1].
  const VkDescriptorBufferInfo storage_infos[4] = {
      {data.buffer, 8 * step, 4}, {data.buffer, 4 * step, 4}, {data.buffer, 5 * step, VK_WHOLE_SIZE}, {data.buffer, 6 * step, 4}};
  VkWriteDescriptorSet writes[3] = {};
  for (VkWriteDescriptorSet& w : writes) {
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  }
  writes[0].dstSet = set0, writes[0].dstBinding = 1, writes[0].descriptorCount = 1, writes[0].pBufferInfo = storage_infos;
  writes[1].dstSet = set0, writes[1].dstBinding = 1, writes[1].dstArrayElement = 1, writes[1].descriptorCount = 3;
  writes[1].pBufferInfo = storage_infos + 1;
  // Set 1: written into `staging`, then copied; the results buffer is written directly.
  const VkDescriptorBufferInfo dynamic_storage_info{data.buffer, 12 * step, 4};
  const VkDescriptorBufferInfo results_info{results.buffer, 0, VK_WHOLE_SIZE};
  writes[2].dstSet = staging, writes[2].dstBinding = 0, writes[2].descriptorCount = 1;
  writes[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, writes[2].pBufferInfo = &dynamic_storage_info;
  vkUpdateDescriptorSets(d, 3, writes, 0, nullptr);
  VkCopyDescriptorSet copy{.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
  copy.srcSet = staging;
  copy.dstSet = set1;
  copy.descriptorCount = 1;
  VkWriteDescriptorSet results_write{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  results_write.dstSet = set1;
  results_write.dstBinding = 1;
  results_write.descriptorCount = 1;
  results_write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  results_write.pBufferInfo = &results_info;
  vkUpdateDescriptorSets(d, 1, &results_write, 1, &copy);

  const VkDescriptorSet sets[2] = {set0, set1};
  const uint32_t dynamic_offsets[2] = {2 * step, 1 * step};  // set 0's uniform buffer, then set 1's storage buffer
  dev.run_commands([&](VkCommandBuffer cmd) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, gather.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, gather.layout, 0, 2, sets, 2, dynamic_offsets);
    vkCmdDispatch(cmd, 1, 1, 1);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0,
                         nullptr);
  });
  auto offset_read = [&](uint32_t index) { return offset_named_by(reinterpret_cast<const uint32_t*>(results.mapped)[index]); };
  EXPECT_EQ(3 * step, offset_read(0)) << "dynamic uniform buffer: template offset + dynamic offset";
  EXPECT_EQ(8 * step, offset_read(1)) << "binding 1[0]";
  EXPECT_EQ(4 * step, offset_read(2)) << "binding 1[1]";
  EXPECT_EQ(5 * step, offset_read(3)) << "binding 2[0], reached by overflowing binding 1";
  EXPECT_EQ(6 * step, offset_read(4)) << "binding 2[1]";
  EXPECT_EQ(13 * step, offset_read(5)) << "copied dynamic storage buffer + its dynamic offset";
}

// --- Kiln-only paths the validation layer would reject ----------------------------------------

// A set's variable descriptor count decides what it takes from its pool (Kiln only: other drivers
// may also succeed or report fragmentation where Kiln runs out).
TEST_F(DescriptorTest, VariableCountSetsTakeOnlyTheirCountFromThePool) {
  KILN_ONLY();
  ASSERT_TRUE(features().v12.descriptorBindingVariableDescriptorCount);
  DeviceFeatures enabled;
  enabled.v12.descriptorBindingVariableDescriptorCount = VK_TRUE;
  DeviceOptions options;
  options.create_info_chain = &enabled.core;
  TestDevice* device = create_device(options);
  ASSERT_NE(nullptr, device);
  DescriptorObjects objects(*device);

  const VkDescriptorBindingFlags flags[] = {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT};
  VkDescriptorSetLayoutBindingFlagsCreateInfo flag_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
  flag_info.bindingCount = 2;
  flag_info.pBindingFlags = flags;
  const std::vector<VkDescriptorSetLayoutBinding> bindings = {layout_binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
                                                              layout_binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8)};
  VkDescriptorSetLayoutCreateInfo info = layout_info(bindings);
  info.pNext = &flag_info;
  VkDescriptorSetVariableDescriptorCountLayoutSupport variable_support{
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT};
  VkDescriptorSetLayoutSupport support{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT, .pNext = &variable_support};
  vkGetDescriptorSetLayoutSupport(device->handle(), &info, &support);
  EXPECT_TRUE(support.supported);
  EXPECT_GE(variable_support.maxVariableDescriptorCount, 8u);

  VkDescriptorSetLayout layout = objects.layout(bindings, &flag_info);
  VkDescriptorPool pool = objects.pool(10, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 10}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 10}});
  auto allocate = [&](uint32_t count) {
    VkDescriptorSetVariableDescriptorCountAllocateInfo variable{
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO};
    variable.descriptorSetCount = 1;
    variable.pDescriptorCounts = &count;
    VkResult result;
    objects.set(pool, layout, &result, &variable);
    return result;
  };
  EXPECT_EQ(VK_SUCCESS, allocate(6));
  EXPECT_EQ(VK_ERROR_OUT_OF_POOL_MEMORY, allocate(6));  // 12 > 10 storage buffers
  EXPECT_EQ(VK_SUCCESS, allocate(4));
  EXPECT_EQ(VK_ERROR_OUT_OF_POOL_MEMORY, allocate(1));
  VkResult result;
  objects.set(pool, layout, &result);  // no variable count given: zero storage buffers
  EXPECT_EQ(VK_SUCCESS, result);
}

// ERROR PATH (unvalidated instance): updates outside the layout are skipped, not written past the
// set's memory (a crash or a heap check would show that), and a write or copy that runs into bad
// input keeps the elements before it (icd/descriptor_update.h). Kiln only: the spec calls this
// undefined behaviour.
TEST_F(DescriptorTest, OutOfRangeUpdatesAreSkipped) {
  KILN_ONLY();
  UnvalidatedContext context = create_unvalidated_context();
  ASSERT_NE(VK_NULL_HANDLE, context.physical_device);
  std::unique_ptr<TestDevice> device;
  ASSERT_EQ(VK_SUCCESS, TestDevice::create(context.physical_device, {}, &device));
  DescriptorObjects objects(*device);
  Buffer buffer = device->create_buffer(8192, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                                  VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  mark_words(buffer);
  VkDescriptorSetLayout layout = objects.layout({layout_binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                                 layout_binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
                                                 layout_binding(2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1)});
  VkDescriptorPool pool = objects.pool(2, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 6},
                                           {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2},
                                           {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 2}});
  VkDescriptorSet a = objects.set(pool, layout), b = objects.set(pool, layout);

  // Before the bad updates, the five descriptors of set s point at steps 5s+1 to 5s+5.
  constexpr VkDeviceSize kStep = 256;
  auto steps = [](uint32_t first) {
    std::vector<VkDeviceSize> offsets;
    for (uint32_t i = 0; i < 5; ++i) offsets.push_back(kStep * (first + i));
    return offsets;
  };
  const VkDescriptorSet sets[2] = {a, b};
  for (uint32_t s = 0; s < 2; ++s) {
    const std::vector<VkDeviceSize> at = steps(5 * s + 1);
    write_buffers(device->handle(), sets[s], 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                  {{buffer.buffer, at[0], kStep}, {buffer.buffer, at[1], kStep}, {buffer.buffer, at[2], kStep}});
    write_buffers(device->handle(), sets[s], 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {{buffer.buffer, at[3], kStep}});
    const VkBufferView view = objects.buffer_view(buffer.buffer, VK_FORMAT_R32_UINT, at[4], kStep);
    VkWriteDescriptorSet texel{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    texel.dstSet = sets[s], texel.dstBinding = 2, texel.descriptorCount = 1;
    texel.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, texel.pTexelBufferView = &view;
    vkUpdateDescriptorSets(device->handle(), 1, &texel, 0, nullptr);
  }

  std::vector<VkDescriptorBufferInfo> infos(1000, VkDescriptorBufferInfo{buffer.buffer, 0, VK_WHOLE_SIZE});
  VkWriteDescriptorSet writes[4] = {};
  for (VkWriteDescriptorSet& w : writes) {
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = a;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = infos.data();
  }
  writes[0].dstBinding = 7, writes[0].descriptorCount = 1;                               // no such binding
  writes[1].dstBinding = 0, writes[1].dstArrayElement = 100000, writes[1].descriptorCount = 1;  // element far away
  writes[2].dstBinding = 0, writes[2].descriptorCount = 1000;  // fills binding 0, stops at binding 1's type
  writes[3].dstBinding = 1, writes[3].descriptorCount = 1;     // wrong type
  VkCopyDescriptorSet copy{.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
  copy.srcSet = a;
  copy.dstSet = b;
  copy.descriptorCount = 500;  // runs off the end of both sets
  vkUpdateDescriptorSets(device->handle(), 4, writes, 1, &copy);

  const auto got = read_offsets(*device, objects, "descriptor_storage_uniform_texel.comp", layout, {a, b}, 5, {});
  std::vector<VkDeviceSize> want_a = steps(1);
  std::fill_n(want_a.begin(), 3, 0);  // the storage buffers of writes[2]
  EXPECT_EQ(want_a, got[0]) << "set a";
  // b's storage buffers are a's; what the copy does past them (bindings of another type) is left open.
  EXPECT_EQ(std::vector<VkDeviceSize>(3, 0), std::vector<VkDeviceSize>(got[1].begin(), got[1].begin() + 3)) << "set b";
  // Still a working device and pool afterwards.
  EXPECT_EQ(VK_SUCCESS, vkResetDescriptorPool(device->handle(), pool, 0));
  EXPECT_NE(VK_NULL_HANDLE, objects.set(pool, layout));
}

}  // namespace
}  // namespace kiln::test
