// Buffer device addresses (PhysicalStorageBuffer pointers) and variable pointers in compute
// shaders, end to end: linked lists, pointer arithmetic, std430 layout, atomics and per-lane
// pointers through device addresses (GLSL with GL_EXT_buffer_reference), and OpSelect/OpPhi/
// OpPtrAccessChain/OpPtrEqual/OpPtrDiff on StorageBuffer and Workgroup pointers (SPIR-V assembly).
// Every result is checked against a CPU reference; the suite runs at W = 4, 8 and 16.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "e2e/compute_job.h"
#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr VkDescriptorType kStorage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
constexpr VkBufferUsageFlags kStorageUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr VkBufferUsageFlags kAddressUsage = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr uint32_t kUntouched = 0xDEADBEEFu;

class ComputeDeviceAddressTest : public VulkanTest {
 protected:
  // A device with buffer device addresses, variable pointers and 64-bit integers (pointers
  // converted to uint64_t), where the driver has them.
  TestDevice& address_device() {
    if (!device_) {
      const DeviceFeatures& s = features();
      enabled_.core.features.shaderInt64 = s.core.features.shaderInt64;
      enabled_.v11.variablePointersStorageBuffer = s.v11.variablePointersStorageBuffer;
      enabled_.v11.variablePointers = s.v11.variablePointers;
      enabled_.v12.bufferDeviceAddress = s.v12.bufferDeviceAddress;
      enabled_.v13.maintenance4 = s.v13.maintenance4;  // glslang's LocalSizeId
      DeviceOptions options;
      options.create_info_chain = &enabled_.core;
      device_ = create_device(options);
      if (!device_) throw std::runtime_error("vkCreateDevice with bufferDeviceAddress and variablePointers failed");
    }
    return *device_;
  }

  VkDeviceAddress address_of(const Buffer& buffer) {
    VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    info.buffer = buffer.buffer;
    return vkGetBufferDeviceAddress(address_device().handle(), &info);
  }

  void require_device_addresses() {
    REQUIRE_ON_KILN(features().v12.bufferDeviceAddress && features().core.features.shaderInt64,
                    "bufferDeviceAddress and shaderInt64");
  }

 private:
  DeviceFeatures enabled_;
  TestDevice* device_ = nullptr;
};

TEST_F(ComputeDeviceAddressTest, LinkedListsAreWalkedThroughPointersToPointers) {
  require_device_addresses();
  TestDevice& device = address_device();
  const uint32_t count = 100;  // 4 workgroups of 32, the last one partly idle
  auto length_of = [](uint32_t i) { return i % 7u; };
  uint32_t total = 0;
  for (uint32_t i = 0; i < count; ++i) total += length_of(i);
  // Nodes sit at shuffled places, so neighbouring lanes follow scattered addresses.
  std::vector<uint32_t> slot(total);
  std::iota(slot.begin(), slot.end(), 0u);
  std::shuffle(slot.begin(), slot.end(), std::mt19937(7));

  struct Node {
    uint64_t next;
    uint32_t value, weight;
  };
  static_assert(sizeof(Node) == 16);
  Buffer nodes = device.create_buffer(total * sizeof(Node), kAddressUsage);
  Buffer heads = device.create_buffer(128 * 8, kAddressUsage);  // the shader's Heads block holds 128
  Buffer results = device.create_buffer((count + 8) * 8, kStorageUsage, 0xEE);
  const VkDeviceAddress node_base = address_of(nodes);
  auto* node = mapped_as<Node>(nodes);
  std::vector<uint32_t> expected_sum(count, 0);
  uint32_t next_node = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t head = 0;
    // Built back to front: each new node points at the previous head.
    for (uint32_t k = 0; k < length_of(i); ++k) {
      const uint32_t at = slot[next_node++];
      node[at] = {head, i * 3 + k, k + 2};
      expected_sum[i] += (i * 3 + k) * (k + 2);
      head = node_base + at * sizeof(Node);
    }
    mapped_as<uint64_t>(heads)[i] = head;
  }

  struct Push {
    uint64_t heads;
    uint32_t count, pad;
  } push{address_of(heads), count, 0};
  ComputeJob job(device, "device_address_list.comp", {kStorage}, sizeof(Push));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, results);
  job.run(4, 1, 1, &push, sizeof(Push));
  const auto* out = mapped_as<uint32_t>(results);
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(out[2 * i], expected_sum[i]) << "sum of list " << i;
    EXPECT_EQ(out[2 * i + 1], length_of(i)) << "length of list " << i;
  }
  for (uint32_t i = 2 * count; i < 2 * (count + 8); ++i) EXPECT_EQ(out[i], 0xEEEEEEEEu) << "past the end, word " << i;
}

TEST_F(ComputeDeviceAddressTest, PointerArithmeticReachesStd430StructsAndStoresPointers) {
  require_device_addresses();
  TestDevice& device = address_device();
  const uint32_t count = 64;
  constexpr uint32_t kItemBytes = 80;  // std430: vec3, uint, mat3 (16-byte columns), float[3]
  Buffer items = device.create_buffer(count * kItemBytes, kAddressUsage);
  Buffer values = device.create_buffer(count * 16, kStorageUsage);
  Buffer pointers = device.create_buffer(count * 8, kStorageUsage);
  auto item_float = [&](uint32_t k, uint32_t offset) -> float& {
    return *reinterpret_cast<float*>(items.mapped + k * kItemBytes + offset);
  };
  auto position = [](uint32_t k, uint32_t c) { return c == 0 ? k * 1.5f : c == 1 ? k + 0.25f : -float(k); };
  auto basis = [](uint32_t k, uint32_t column, uint32_t row) { return 10.0f * column + row + k * 0.5f; };
  auto weight = [](uint32_t k, uint32_t w) { return k * 3.0f + w + 0.125f; };
  for (uint32_t k = 0; k < count; ++k) {
    for (uint32_t c = 0; c < 3; ++c) item_float(k, 4 * c) = position(k, c);
    const uint32_t id = 500 + k;
    std::memcpy(items.mapped + k * kItemBytes + 12, &id, 4);
    for (uint32_t column = 0; column < 3; ++column)
      for (uint32_t row = 0; row < 3; ++row) item_float(k, 16 + 16 * column + 4 * row) = basis(k, column, row);
    for (uint32_t w = 0; w < 3; ++w) item_float(k, 64 + 4 * w) = weight(k, w);
  }
  const VkDeviceAddress base = address_of(items);
  struct Push {
    uint64_t items;
    uint32_t count, pad;
  } push{base, count, 0};
  ComputeJob job(device, "device_address_math.comp", {kStorage, kStorage}, sizeof(Push));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, values);
  job.bind_buffer(1, pointers);
  job.run(1, 1, 1, &push, sizeof(Push));
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t k = (i * 7) % count;
    const float* v = mapped_as<float>(values) + 4 * i;
    EXPECT_EQ(v[0], position(k, 1)) << "invocation " << i << ": position.y through uint64 arithmetic";
    EXPECT_EQ(v[1], basis(k, 1, 2)) << "invocation " << i << ": basis[1][2] through uvec2 arithmetic";
    EXPECT_EQ(v[2], weight(k, i % 3)) << "invocation " << i << ": weights[i % 3] through indexing";
    EXPECT_EQ(v[3], float(500 + k)) << "invocation " << i << ": id";
    EXPECT_EQ(mapped_as<uint64_t>(pointers)[i], base + k * kItemBytes) << "pointer stored by invocation " << i;
    EXPECT_EQ(item_float(k, 0), float(i)) << "position.x of item " << k << " stored by invocation " << i;
    EXPECT_EQ(item_float(k, 4), position(k, 1)) << "position.y of item " << k << " must be untouched";
  }
}

TEST_F(ComputeDeviceAddressTest, AtomicsAndDivergentPerLanePointers) {
  require_device_addresses();
  TestDevice& device = address_device();
  const uint32_t count = 200;  // 4 workgroups of 64, the last one partly idle
  Buffer counters = device.create_buffer(15 * 4, kAddressUsage);
  Buffer even = device.create_buffer(128 * 4, kAddressUsage);
  Buffer odd = device.create_buffer(128 * 4, kAddressUsage);
  Buffer olds = device.create_buffer(count * 4, kStorageUsage);
  for (uint32_t j = 0; j < 128; ++j) mapped_as<uint32_t>(even)[j] = mapped_as<uint32_t>(odd)[j] = kUntouched;
  struct Push {
    uint64_t counters, even, odd;
    uint32_t count, pad;
  } push{address_of(counters), address_of(even), address_of(odd), count, 0};
  ComputeJob job(device, "device_address_atomics.comp", {kStorage}, sizeof(Push));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, olds);
  job.run(4, 1, 1, &push, sizeof(Push));

  const auto* c = mapped_as<uint32_t>(counters);
  for (uint32_t b = 0; b < 13; ++b) {
    uint32_t sum = 0;
    for (uint32_t i = b; i < count; i += 13) sum += i;
    EXPECT_EQ(c[b], sum) << "bin " << b;
  }
  EXPECT_EQ(c[13], (count - 1) * 3) << "atomicMax";
  // Every exchange returns the previous value: the old values and the final one are 0..count once each.
  std::vector<uint32_t> seen(mapped_as<uint32_t>(olds), mapped_as<uint32_t>(olds) + count);
  seen.push_back(c[14]);
  std::sort(seen.begin(), seen.end());
  for (uint32_t v = 0; v <= count; ++v) ASSERT_EQ(seen[v], v) << "atomicExchange chain";
  for (uint32_t j = 0; j < 128; ++j) {
    for (uint32_t parity = 0; parity < 2; ++parity) {
      const uint32_t i = 2 * j + parity;
      const uint32_t expected = i < count && i % 3 != 0 ? i * 10 + 1 : kUntouched;
      const uint32_t got = mapped_as<uint32_t>(parity ? odd : even)[j];
      EXPECT_EQ(got, expected) << (parity ? "odd" : "even") << "[" << j << "] (invocation " << i << ")";
    }
  }
}

TEST_F(ComputeDeviceAddressTest, VariablePointersSelectPhiAndWorkgroupPointers) {
  REQUIRE_ON_KILN(features().v11.variablePointers && features().v11.variablePointersStorageBuffer, "variablePointers");
  TestDevice& device = address_device();
  const uint32_t count = 128;  // two workgroups of 64
  Buffer a = device.create_buffer(count * 4, kStorageUsage);
  Buffer b = device.create_buffer(count * 4, kStorageUsage);
  Buffer out = device.create_buffer(count * 8 * 4, kStorageUsage, 0xAB);
  auto a_value = [](uint32_t i) { return 1000 + i * 3; };
  auto b_value = [](uint32_t i) { return 50000 + i * 7; };
  for (uint32_t i = 0; i < count; ++i) {
    mapped_as<uint32_t>(a)[i] = a_value(i);
    mapped_as<uint32_t>(b)[i] = b_value(i);
  }
  ComputeJob job(device, "variable_pointers.spvasm", {kStorage, kStorage, kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, a);
  job.bind_buffer(1, b);
  job.bind_buffer(2, out);
  job.run(count / 64);
  const uint32_t untouched = 0xABABABABu;
  for (uint32_t i = 0; i < count; ++i) {
    const bool is_odd = i & 1;
    const uint32_t l = i % 64, mirror = 63 - l, group_base = i - l;
    const uint32_t expected[8] = {
        is_odd ? a_value(i) : b_value(i),
        (i & 2) ? a_value(i % 5) : b_value(i % 5),
        is_odd ? 1u : 0u,
        i % 5,
        l % 3 == 0 ? group_base + mirror : group_base + mirror + 1000,
        is_odd ? i + 7 : untouched,
        is_odd ? untouched : i + 7,
        is_odd ? a_value(i) : b_value(i),
    };
    static const char* const kWhat[8] = {"load through OpSelect", "load after OpPtrAccessChain in a loop",
                                         "OpPtrEqual", "OpPtrDiff", "load through a Workgroup OpSelect",
                                         "store through OpSelect (odd)", "store through OpSelect (even)",
                                         "pointer kept in a Function variable"};
    for (uint32_t k = 0; k < 8; ++k)
      EXPECT_EQ(mapped_as<uint32_t>(out)[8 * i + k], expected[k]) << "invocation " << i << ": " << kWhat[k];
  }
}

// OpPtrAccessChain steps a Workgroup pointer by the element's own size: the pointer type's
// ArrayStride (8, for 4-byte elements) means nothing without an explicit Workgroup layout.
TEST_F(ComputeDeviceAddressTest, WorkgroupPointerStrideDecorationIsIgnored) {
  REQUIRE_ON_KILN(features().v11.variablePointers, "variablePointers");
  TestDevice& device = address_device();
  const uint32_t count = 64;
  Buffer in = device.create_buffer(count * 4, kStorageUsage);
  Buffer out = device.create_buffer(count * 4, kStorageUsage, 0xAB);
  for (uint32_t i = 0; i < count; ++i) mapped_as<uint32_t>(in)[i] = 100 + i * 3;
  ComputeJob job(device, "workgroup_pointer_stride.spvasm", {kStorage, kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, in);
  job.bind_buffer(1, out);
  job.run(1);
  for (uint32_t i = 0; i < count; ++i)
    EXPECT_EQ(mapped_as<uint32_t>(out)[i], i + 1 < count ? 100 + (i + 1) * 3 : 0u) << "invocation " << i;
}

// A variable pointer that OpSelect picks between two arrays of dynamic storage buffers: odd
// invocations read the first array's element, even ones the second's, each through its own
// descriptor's dynamic offset.
TEST_F(ComputeDeviceAddressTest, OpSelectBetweenDescriptorArrays) {
  REQUIRE_ON_KILN(features().v11.variablePointers, "variablePointers");
  TestDevice& device = address_device();
  constexpr uint32_t kCount = 64, kRegion = 2048, kRange = 1024;
  Buffer data = device.create_buffer(4 * kRegion, kStorageUsage);
  for (uint32_t w = 0; w < 4 * kRegion / 4; ++w) mapped_as<uint32_t>(data)[w] = w + 1;
  Buffer result = device.create_buffer(kCount * 4, kStorageUsage, 0xAB);
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(device,
                                 {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}},
                                 &layout);
  // Descriptor k (binding k / 2, element k % 2) covers region k.
  for (uint32_t binding = 0; binding < 2; ++binding)
    write_buffers(device.handle(), set, binding, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
                  {{data.buffer, (2 * binding) * kRegion, kRange}, {data.buffer, (2 * binding + 1) * kRegion, kRange}});
  write_buffers(device.handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{result.buffer, 0, VK_WHOLE_SIZE}});
  const uint32_t dynamic_offsets[4] = {0, 256, 512, 768};
  const uint32_t element = 1;
  SetsPipeline pipeline(device, "select_descriptor_array.spvasm", {layout}, sizeof element);
  ASSERT_NE(pipeline.pipeline, VK_NULL_HANDLE);
  device.run_commands([&](VkCommandBuffer cmd) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 4, dynamic_offsets);
    vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof element, &element);
    vkCmdDispatch(cmd, 1, 1, 1);
    shader_writes_to_host_barrier(cmd);
  });
  for (uint32_t i = 0; i < kCount; ++i) {
    const uint32_t descriptor = (i % 2 ? 0 : 2) + element;
    const uint32_t byte = descriptor * kRegion + dynamic_offsets[descriptor] + 4 * i;
    EXPECT_EQ(mapped_as<uint32_t>(result)[i], byte / 4 + 1) << "invocation " << i;
  }
}

// A struct with a matrix member, stored to Workgroup memory and loaded back through a pointer kept
// in a Private variable (CTS variable_init.private.struct_from_workgroup).
TEST_F(ComputeDeviceAddressTest, WorkgroupStructLoadedThroughPrivatePointer) {
  REQUIRE_ON_KILN(features().v11.variablePointers, "variablePointers");
  TestDevice& device = address_device();
  const uint32_t count = 8;
  Buffer out = device.create_buffer(count * 64, kStorageUsage, 0xAB);
  ComputeJob job(device, "workgroup_struct_through_pointer.spvasm", {kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, out);
  job.run(count);
  const float expected[16] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4};
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t k = 0; k < 16; ++k)
      EXPECT_EQ(mapped_as<float>(out)[16 * i + k], expected[k]) << "element " << i << ", float " << k;
}

// Kiln's robustness promise extended to variable pointers: a null or undefined logical pointer
// reads 0 and drops stores (the spec leaves both undefined, so this is a Kiln-only check).
TEST_F(ComputeDeviceAddressTest, NullAndUndefinedVariablePointersTouchNoMemory) {
  KILN_ONLY();
  REQUIRE_ON_KILN(features().v11.variablePointers, "variablePointers");
  TestDevice& device = address_device();
  const uint32_t count = 128, guard = 16;
  Buffer out = device.create_buffer((count + guard) * 4, kStorageUsage);
  for (uint32_t i = 0; i < count + guard; ++i) mapped_as<uint32_t>(out)[i] = 100 + i;
  ComputeJob job(device, "null_pointers.spvasm", {kStorage});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, out, 0, count * 4);
  job.run(count / 64);
  for (uint32_t i = 0; i < count + guard; ++i) {
    const uint32_t expected = i < count && i % 3 == 0 ? 101 + i : 100 + i;
    EXPECT_EQ(mapped_as<uint32_t>(out)[i], expected) << "element " << i << (i % 3 == 1 ? " (null lane)" : i % 3 == 2 ? " (undefined lane)" : "");
  }
}

}  // namespace
}  // namespace kiln::test
