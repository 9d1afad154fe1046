// vkCmdCopyBuffer of 256 MiB between two host-visible buffers. Throughput counts the bytes
// copied once (not read + written).
#include <cstring>

#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr VkDeviceSize kSize = 256 * kMebibyte;
constexpr uint32_t kSeed = 0xc0b1;

class CopyBuffer256MiB final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_host_buffer_memory(context, kSize, 2);
  }

  explicit CopyBuffer256MiB(tools::VulkanContext& context)
      : source_(context, kSize, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, tools::Buffer::Access::HostMapped),
        destination_(context, kSize, VK_BUFFER_USAGE_TRANSFER_DST_BIT, tools::Buffer::Access::HostMapped) {
    write_pattern(static_cast<uint32_t*>(source_.mapped()), kSize / 4, kSeed);
  }

  void record_repetition(VkCommandBuffer cmd) override {
    const VkBufferCopy region{0, 0, kSize};
    vkCmdCopyBuffer(cmd, source_.handle(), destination_.handle(), 1, &region);
  }

  double work_per_repetition() const override { return kSize / kBytesPerGigabyte; }

  void poison_output(tools::VulkanContext&) override {
    std::memset(destination_.mapped(), 0xde, kSize);
  }

  std::optional<std::string> verify_output(tools::VulkanContext&) override {
    return find_mismatch(static_cast<const uint32_t*>(destination_.mapped()), kSize / 4,
                         [](size_t i) { return pattern_word(i, kSeed); });
  }

 private:
  tools::Buffer source_;
  tools::Buffer destination_;
};

}  // namespace

KILN_BENCH_SCENARIO(CopyBuffer256MiB, "copy_buffer_256mib", "GB/s",
                    "vkCmdCopyBuffer, 256 MiB, host-visible buffers");

}  // namespace kiln::bench
