#pragma once
// The measuring harness: support check → setup → warm-up → timed repetitions → one more
// repetition on poisoned outputs → verification. Produces one ScenarioResult.
#include <cstdint>
#include <string>

#include "tools/common/vulkan_context.h"
#include "tools/kiln-bench/scenario.h"

namespace kiln::bench {

struct RunSettings {
  double seconds_per_scenario = 1.0;  // target time for the timed repetitions
  bool progress = false;              // narrate each phase on stderr
};

enum class Status { Ok, Skip, Fail };
const char* status_name(Status status);  // "ok", "skip", "fail"

struct ScenarioResult {
  std::string name;
  std::string unit;
  Status status = Status::Fail;
  std::string reason;              // why skipped or failed; empty when ok
  double median_throughput = 0.0;  // unit per second… i.e. in `unit`
  double median_seconds = 0.0;     // per repetition, submit to fence signalled
  uint64_t iterations = 0;         // timed repetitions (the verified one included)
  double setup_seconds = 0.0;
};

ScenarioResult run_scenario(tools::VulkanContext& context, const ScenarioDescriptor& descriptor,
                            const RunSettings& settings);

}  // namespace kiln::bench
