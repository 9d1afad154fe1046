// vkCmdFillBuffer of 256 MiB in a host-visible buffer. Throughput counts the bytes written.
#include <cstring>

#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr VkDeviceSize kSize = 256 * kMebibyte;
constexpr uint32_t kFillWord = 0x5eed1e55u;

class FillBuffer256MiB final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    return missing_host_buffer_memory(context, kSize, 1);
  }

  explicit FillBuffer256MiB(tools::VulkanContext& context)
      : buffer_(context, kSize, VK_BUFFER_USAGE_TRANSFER_DST_BIT, tools::Buffer::Access::HostMapped) {}

  void record_repetition(VkCommandBuffer cmd) override {
    vkCmdFillBuffer(cmd, buffer_.handle(), 0, VK_WHOLE_SIZE, kFillWord);
  }

  double work_per_repetition() const override { return kSize / kBytesPerGigabyte; }

  void poison_output(tools::VulkanContext&) override {
    // Different in every word from kFillWord, and in every byte, so partial writes show.
    std::memset(buffer_.mapped(), 0x00, kSize);
  }

  std::optional<std::string> verify_output(tools::VulkanContext&) override {
    return find_mismatch(static_cast<const uint32_t*>(buffer_.mapped()), kSize / 4,
                         [](size_t) { return kFillWord; });
  }

 private:
  tools::Buffer buffer_;
};

}  // namespace

KILN_BENCH_SCENARIO(FillBuffer256MiB, "fill_buffer_256mib", "GB/s",
                    "vkCmdFillBuffer (VK_WHOLE_SIZE), 256 MiB, host-visible buffer");

}  // namespace kiln::bench
