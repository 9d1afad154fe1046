#pragma once
// A kiln-bench scenario: one measured operation (a copy, a fill, a dispatch, a pipeline creation,
// later a draw) that the harness (run_scenario.*) sets up, repeats for a time budget and verifies.
//
// Adding a scenario = adding one .cpp file under tools/kiln-bench/scenarios/ (CMake globs them):
// a class deriving from CommandScenario (or Scenario) plus one KILN_BENCH_SCENARIO(...) line.
// See docs/benchmarks.md.
#include <vulkan/vulkan.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/vulkan_context.h"

namespace kiln::bench {

// What the harness measures: one repetition of some work, timed, repeated, then verified.
// Most scenarios measure commands and derive from CommandScenario below; a scenario that measures
// a host-side API call (pipeline creation) derives from Scenario directly and times the call.
class Scenario {
 public:
  virtual ~Scenario() = default;

  // Called once after construction, still inside the timed setup (CommandScenario records its
  // command buffer here).
  virtual void prepare(tools::VulkanContext& /*context*/) {}

  // Runs one repetition and returns the seconds it took: the samples the median is taken of.
  virtual double run_repetition(tools::VulkanContext& context) = 0;

  // The amount of work one repetition does, in the numerator of the scenario's unit
  // (e.g. gigabytes, 1e9 bytes, for "GB/s"). Throughput = work / median seconds per repetition.
  virtual double work_per_repetition() const = 0;

  // Overwrites the scenario's outputs with values a correct repetition never leaves behind, so the
  // verification after the next repetition proves that repetition did the work.
  virtual void poison_output(tools::VulkanContext& context) = 0;

  // Checks the outputs of the last repetition; a description of the first wrong value, or nullopt.
  virtual std::optional<std::string> verify_output(tools::VulkanContext& context) = 0;
};

// A scenario whose repetition is a sequence of commands (a copy, a dispatch, later a draw).
// The commands are recorded once, in prepare(), into a command buffer that every repetition
// submits again; a repetition's time runs from just before vkQueueSubmit to the fence wait's return.
class CommandScenario : public Scenario {
 public:
  // Frees the command buffer. The derived scenario's resources are already destroyed by then,
  // which Vulkan allows: the buffer is no longer pending, only invalid.
  ~CommandScenario() override;

  // Records the commands of one repetition. They are wrapped in barriers: everything of the
  // previous repetition (and host writes) happens before, and all writes are visible to the host
  // after. Images must therefore be in the same layout at the end of a repetition as at its start.
  virtual void record_repetition(VkCommandBuffer command_buffer) = 0;

  void prepare(tools::VulkanContext& context) final;
  double run_repetition(tools::VulkanContext& context) final;

 private:
  tools::VulkanContext* context_ = nullptr;  // owner of command_buffer_'s pool
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
};

struct ScenarioDescriptor {
  std::string name;         // e.g. "copy_buffer_256mib"
  std::string unit;         // e.g. "GB/s"
  std::string description;  // one line for --list
  // Why the device cannot run the scenario (missing format, too little memory…), or nullopt.
  std::function<std::optional<std::string>(const tools::VulkanContext&)> unsupported_reason;
  // Creates the scenario's resources and initial data (timed as "setup").
  std::function<std::unique_ptr<Scenario>(tools::VulkanContext&)> create;
};

// Adds a scenario to the registry; returns true so it can initialise a static variable.
bool register_scenario(ScenarioDescriptor descriptor);

// Every registered scenario, sorted by name.
std::vector<const ScenarioDescriptor*> registered_scenarios();

}  // namespace kiln::bench

// Registers `Type` (constructor `Type(tools::VulkanContext&)`, static member
// `std::optional<std::string> unsupported_reason(const tools::VulkanContext&)`) under `name`.
#define KILN_BENCH_SCENARIO(Type, name, unit, description)                                   \
  static const bool kiln_bench_registered_##Type = ::kiln::bench::register_scenario(          \
      {name, unit, description, &Type::unsupported_reason,                                    \
       [](::kiln::tools::VulkanContext& context) -> std::unique_ptr<::kiln::bench::Scenario> { \
         return std::make_unique<Type>(context);                                              \
       }})
