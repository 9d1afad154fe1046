#pragma once
// kiln-bench's output: a text table on stdout and the --json file (format in docs/benchmarks.md).
#include <string>
#include <vector>

#include "tools/kiln-bench/run_scenario.h"

namespace kiln::bench {

struct RunInfo {
  std::string driver_name;
  std::string device_name;
  double seconds_per_scenario = 1.0;
};

void print_table(const RunInfo& info, const std::vector<ScenarioResult>& results);

// Returns false when the file cannot be written.
bool write_json(const std::string& path, const RunInfo& info, const std::vector<ScenarioResult>& results);

}  // namespace kiln::bench
