#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "tools/kiln-bench/scenario.h"

namespace kiln::bench {

namespace {

// A function-local static, so registrations from other files' static initialisers find it built.
std::vector<ScenarioDescriptor>& registry() {
  static std::vector<ScenarioDescriptor> scenarios;
  return scenarios;
}

}  // namespace

bool register_scenario(ScenarioDescriptor descriptor) {
  for (const ScenarioDescriptor& existing : registry()) {
    if (existing.name == descriptor.name) {
      std::fprintf(stderr, "kiln-bench: scenario %s registered twice\n", descriptor.name.c_str());
      std::abort();  // a programming error in the scenario files, not a run-time condition
    }
  }
  registry().push_back(std::move(descriptor));
  return true;
}

std::vector<const ScenarioDescriptor*> registered_scenarios() {
  std::vector<const ScenarioDescriptor*> scenarios;
  for (const ScenarioDescriptor& descriptor : registry()) scenarios.push_back(&descriptor);
  std::sort(scenarios.begin(), scenarios.end(),
            [](const ScenarioDescriptor* a, const ScenarioDescriptor* b) { return a->name < b->name; });
  return scenarios;
}

}  // namespace kiln::bench
