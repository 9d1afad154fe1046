#include "tools/kiln-bench/run_scenario.h"

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <exception>
#include <vector>

namespace kiln::bench {

using tools::VulkanContext;

const char* status_name(Status status) {
  switch (status) {
    case Status::Ok: return "ok";
    case Status::Skip: return "skip";
    case Status::Fail: return "fail";
  }
  return "fail";
}

namespace {

// Repetition counts: enough samples for a meaningful median even when one repetition is slower
// than the time budget, and a cap so a no-op-fast scenario cannot spin for ages.
constexpr uint64_t kMinTimedRepetitions = 3;
constexpr uint64_t kMaxTimedRepetitions = 100000;
constexpr double kWarmUpShare = 0.2;  // of the time budget, at least one repetition

void progress(const RunSettings& settings, const char* format, ...) {
  if (!settings.progress) return;
  va_list args;
  va_start(args, format);
  std::fputs("[kiln-bench] ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const size_t middle = samples.size() / 2;
  return samples.size() % 2 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
}

// Runs the scenario on a supported device; throws on Vulkan errors.
ScenarioResult measure(VulkanContext& context, const ScenarioDescriptor& descriptor,
                       const RunSettings& settings, ScenarioResult result) {
  const char* name = descriptor.name.c_str();
  progress(settings, "%s: setting up", name);
  const auto setup_start = std::chrono::steady_clock::now();
  std::unique_ptr<Scenario> scenario = descriptor.create(context);
  scenario->prepare(context);
  result.setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();

  progress(settings, "%s: setup took %.0f ms, warming up", name, result.setup_seconds * 1e3);
  double warm_up_seconds = 0;
  do {
    warm_up_seconds += scenario->run_repetition(context);
  } while (warm_up_seconds < settings.seconds_per_scenario * kWarmUpShare);

  std::vector<double> samples;
  double timed_seconds = 0;
  while ((timed_seconds < settings.seconds_per_scenario || samples.size() < kMinTimedRepetitions) &&
         samples.size() < kMaxTimedRepetitions) {
    samples.push_back(scenario->run_repetition(context));
    timed_seconds += samples.back();
  }

  // The verified repetition: outputs are poisoned first, so only this submission can fix them.
  progress(settings, "%s: %zu repetitions in %.2f s, verifying", name, samples.size(), timed_seconds);
  scenario->poison_output(context);
  samples.push_back(scenario->run_repetition(context));
  const std::optional<std::string> wrong = scenario->verify_output(context);

  result.iterations = samples.size();
  result.median_seconds = median(samples);
  result.median_throughput = scenario->work_per_repetition() / result.median_seconds;
  if (wrong) {
    result.status = Status::Fail;
    result.reason = "wrong output: " + *wrong;
  } else {
    result.status = Status::Ok;
  }
  return result;
}

}  // namespace

ScenarioResult run_scenario(VulkanContext& context, const ScenarioDescriptor& descriptor,
                            const RunSettings& settings) {
  ScenarioResult result;
  result.name = descriptor.name;
  result.unit = descriptor.unit;
  if (std::optional<std::string> reason = descriptor.unsupported_reason(context)) {
    result.status = Status::Skip;
    result.reason = *reason;
    progress(settings, "%s: skipped: %s", descriptor.name.c_str(), reason->c_str());
    return result;
  }

  const uint32_t validation_before = context.validation_problem_count();
  try {
    result = measure(context, descriptor, settings, result);
  } catch (const std::exception& error) {
    result.status = Status::Fail;
    result.reason = error.what();
  }
  const uint32_t new_validation_problems = context.validation_problem_count() - validation_before;
  if (new_validation_problems > 0 && result.status != Status::Fail) {
    result.status = Status::Fail;
    result.reason = std::to_string(new_validation_problems) + " validation message(s)";
  }
  progress(settings, "%s: %s%s%s", descriptor.name.c_str(), status_name(result.status),
           result.reason.empty() ? "" : ": ", result.reason.c_str());
  return result;
}

}  // namespace kiln::bench
