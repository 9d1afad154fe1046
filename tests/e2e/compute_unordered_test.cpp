// Dispatches recorded with nothing between them are unordered (pipeline/executor.cpp): Kiln runs
// them as one job on the worker pool, and strict mode runs them in a seeded shuffled order. Every
// dispatch and workgroup must run exactly once either way (dispatch_order.comp: dispatches of 1 to
// 8 workgroups, so the batch's workgroup numbering crosses dispatches of different sizes).
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

class ComputeUnorderedTest : public VulkanTest {};

constexpr uint32_t kDispatches = 24;
uint32_t groups_of(uint32_t id) { return 1 + id % 8; }

// Runs the dispatches on `device`; returns the order they started in, after checking every cell.
std::vector<uint32_t> run_unordered_dispatches(TestDevice& device) {
  const size_t words = 1 + 64 + kDispatches * 8 * 4;
  Buffer buffer = device.create_buffer(words * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = make_set(device, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}, &layout);
  write_buffers(device.handle(), set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{buffer.buffer, 0, VK_WHOLE_SIZE}});
  SetsPipeline pipeline(device, "dispatch_order.comp", {layout}, 4);
  device.run_commands([&](VkCommandBuffer cb) {
    for (uint32_t id = 0; id < kDispatches; ++id) pipeline.record_dispatch(cb, {set}, groups_of(id), &id, 4);
    shader_writes_to_host_barrier(cb);
  });
  const auto* out = reinterpret_cast<const uint32_t*>(buffer.mapped);
  EXPECT_EQ(kDispatches, out[0]) << "dispatches that ran";
  const uint32_t* cells = out + 65;
  for (uint32_t id = 0; id < kDispatches; ++id)
    for (uint32_t g = 0; g < 8; ++g)
      for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t want = g < groups_of(id) ? 1 + id * 1000 + g * 10 + i : 0;
        EXPECT_EQ(want, cells[(id * 8 + g) * 4 + i]) << "dispatch " << id << " workgroup " << g << " invocation " << i;
      }
  std::vector<uint32_t> order(out + 1, out + 1 + kDispatches);
  std::vector<uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint32_t> all(kDispatches);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(all, sorted) << "each dispatch ran once";
  return order;
}

TEST_F(ComputeUnorderedTest, EveryWorkgroupOfUnorderedDispatchesRunsOnce) { run_unordered_dispatches(device()); }

// Strict mode runs them one by one in a shuffled order drawn from KILN_STRICT_SEED: the same seed
// gives the same order, another seed another one.
TEST_F(ComputeUnorderedTest, StrictModeShufflesThemReproducibly) {
  KILN_ONLY();
  auto strict_device = [&](const char* seed) -> TestDevice& {
    setenv("KILN_STRICT", "1", 1);
    setenv("KILN_STRICT_SEED", seed, 1);
    DeviceFeatures enabled;
    enabled.v13.maintenance4 = features().v13.maintenance4;  // glslang's LocalSizeId
    TestDevice* device = create_device(enabled);
    unsetenv("KILN_STRICT");
    unsetenv("KILN_STRICT_SEED");
    if (!device) throw std::runtime_error("no device");
    return *device;
  };
  const std::vector<uint32_t> first = run_unordered_dispatches(strict_device("7"));
  const std::vector<uint32_t> again = run_unordered_dispatches(strict_device("7"));
  const std::vector<uint32_t> other = run_unordered_dispatches(strict_device("8"));
  std::vector<uint32_t> in_order(kDispatches);
  std::iota(in_order.begin(), in_order.end(), 0u);
  EXPECT_NE(in_order, first) << "not shuffled";
  EXPECT_EQ(first, again) << "the same seed must give the same order";
  EXPECT_NE(first, other) << "another seed, another order";
}

}  // namespace
}  // namespace kiln::test
