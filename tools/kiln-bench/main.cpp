// kiln-bench: runs named benchmark scenarios on whichever Vulkan driver the loader gives
// (VK_ICD_FILENAMES picks Kiln or lavapipe) and reports median throughput. Every scenario checks
// its output: a fast wrong answer is a failure. scripts/bench-compare.py runs it on Kiln and
// lavapipe side by side. See docs/benchmarks.md.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"
#include "tools/kiln-bench/options.h"
#include "tools/kiln-bench/report.h"
#include "tools/kiln-bench/run_scenario.h"
#include "tools/kiln-bench/scenario.h"

namespace kiln::bench {
namespace {

void print_scenario_list() {
  for (const ScenarioDescriptor* scenario : registered_scenarios()) {
    std::printf("%-32s %-6s %s\n", scenario->name.c_str(), scenario->unit.c_str(),
                scenario->description.c_str());
  }
}

// The scenarios named on the command line (all when none are); nullopt and a message on stderr
// when a name is unknown.
std::optional<std::vector<const ScenarioDescriptor*>> select_scenarios(const Options& options) {
  const std::vector<const ScenarioDescriptor*> all = registered_scenarios();
  if (options.scenarios.empty()) return all;
  std::vector<const ScenarioDescriptor*> selected;
  for (const std::string& name : options.scenarios) {
    const ScenarioDescriptor* found = nullptr;
    for (const ScenarioDescriptor* scenario : all) {
      if (scenario->name == name) found = scenario;
    }
    if (!found) {
      std::fprintf(stderr, "kiln-bench: unknown scenario '%s' (see --list)\n", name.c_str());
      return std::nullopt;
    }
    selected.push_back(found);
  }
  return selected;
}

int run(const Options& options) {
  const std::optional<std::vector<const ScenarioDescriptor*>> scenarios = select_scenarios(options);
  if (!scenarios) return 2;

  tools::VulkanContext context("kiln-bench");
  const RunInfo info{context.driver_name(), context.device_name(), options.seconds};
  const RunSettings settings{options.seconds, options.progress};
  std::vector<ScenarioResult> results;
  for (const ScenarioDescriptor* scenario : *scenarios) {
    results.push_back(run_scenario(context, *scenario, settings));
  }

  print_table(info, results);
  if (!options.json_path.empty()) {
    if (!write_json(options.json_path, info, results)) {
      std::fprintf(stderr, "kiln-bench: cannot write %s\n", options.json_path.c_str());
      return 1;
    }
    std::printf("wrote %s\n", options.json_path.c_str());
  }
  for (const ScenarioResult& result : results) {
    if (result.status == Status::Fail) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace kiln::bench

int main(int argc, char** argv) {
  using namespace kiln::bench;
  std::string error;
  const std::optional<Options> options = parse_options(argc, argv, &error);
  if (!options) {
    std::fprintf(stderr, "kiln-bench: %s\n%s", error.c_str(), usage_text());
    return 2;
  }
  if (options->help) {
    std::fputs(usage_text(), stdout);
    return 0;
  }
  if (options->list) {
    print_scenario_list();
    return 0;
  }
  try {
    return run(*options);
  } catch (const std::exception& failure) {  // no device, or device setup failed
    std::fprintf(stderr, "kiln-bench: %s\n", failure.what());
    return 1;
  }
}
