// The machine's own yardstick, no Vulkan: a STREAM-style triad a[i] = b[i] + s * c[i] over three
// arrays of 128 MiB of doubles, split into one contiguous slice per hardware thread (each thread
// first touched its own slice, so pages sit where it runs). Throughput counts what STREAM counts:
// b and c read, a written = 384 MiB per repetition, in GB/s (1e9 bytes); the write-allocate read
// of a is not counted. Measured in the same kiln-bench run as the bandwidth-bound scenarios,
// bench-compare reports theirs as a fraction of it (machines here move 28-51 GB/s depending on
// the moment, so only a triad of the same run is a fair reference; docs/benchmarks.md).
// Check: every element of a holds b + s * c (exact: small integers).
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr size_t kArrayBytes = 128 * kMebibyte;
constexpr size_t kElements = kArrayBytes / sizeof(double);
constexpr double kScalar = 3.0;

class CpuStreamTriad final : public Scenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext&) { return std::nullopt; }

  explicit CpuStreamTriad(tools::VulkanContext&)
      : threads_(std::max(1u, std::thread::hardware_concurrency())),
        a_(new double[kElements]), b_(new double[kElements]), c_(new double[kElements]) {
    in_parallel([&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        a_[i] = 0;
        b_[i] = double(i & 1023);
        c_[i] = double((i >> 10) & 255);
      }
    });
  }

  double run_repetition(tools::VulkanContext&) override {
    const auto start = std::chrono::steady_clock::now();
    in_parallel([&](size_t begin, size_t end) {
      double* __restrict a = a_.get();
      const double* __restrict b = b_.get();
      const double* __restrict c = c_.get();
      for (size_t i = begin; i < end; ++i) a[i] = b[i] + kScalar * c[i];
    });
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  double work_per_repetition() const override { return 3.0 * kArrayBytes * 1e-9; }

  void poison_output(tools::VulkanContext&) override {
    in_parallel([&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) a_[i] = NAN;
    });
  }

  std::optional<std::string> verify_output(tools::VulkanContext&) override {
    for (size_t i = 0; i < kElements; ++i) {
      const double want = double(i & 1023) + kScalar * double((i >> 10) & 255);
      if (a_[i] != want) return "a[" + std::to_string(i) + "] = " + std::to_string(a_[i]) + ", expected " + std::to_string(want);
    }
    return std::nullopt;
  }

 private:
  // Runs body(begin, end) on one contiguous slice per thread, the same slice for a thread every time.
  template <typename Body>
  void in_parallel(Body&& body) {
    std::vector<std::thread> workers;
    for (unsigned t = 1; t < threads_; ++t)
      workers.emplace_back([&, t] { body(kElements * t / threads_, kElements * (t + 1) / threads_); });
    body(0, kElements / threads_);
    for (std::thread& w : workers) w.join();
  }

  unsigned threads_;
  std::unique_ptr<double[]> a_, b_, c_;
};

}  // namespace

KILN_BENCH_SCENARIO(CpuStreamTriad, "cpu_stream_triad", "GB/s",
                    "no Vulkan: the machine's STREAM triad over 3 x 128 MiB on every hardware thread");

}  // namespace kiln::bench
