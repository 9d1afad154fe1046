#include "tools/kiln-bench/report.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace kiln::bench {

void print_table(const RunInfo& info, const std::vector<ScenarioResult>& results) {
  std::printf("kiln-bench on %s (driver %s), %.2f s per scenario\n", info.device_name.c_str(),
              info.driver_name.c_str(), info.seconds_per_scenario);
  std::printf("%-32s %-6s %12s %-11s %7s %10s\n", "scenario", "status", "median", "unit", "reps", "setup ms");
  for (const ScenarioResult& result : results) {
    if (result.status == Status::Skip) {
      std::printf("%-32s %-6s %s\n", result.name.c_str(), "skip", result.reason.c_str());
      continue;
    }
    // A failed scenario's number is shown but marked: a fast wrong answer is no result.
    std::printf("%-32s %-6s %12.3f %-11s %7llu %10.1f\n", result.name.c_str(),
                result.status == Status::Ok ? "ok" : "FAIL", result.median_throughput,
                result.unit.c_str(), static_cast<unsigned long long>(result.iterations),
                result.setup_seconds * 1e3);
    if (result.status == Status::Fail) std::printf("    FAIL: %s\n", result.reason.c_str());
  }
}

namespace {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

// JSON has no NaN/Infinity; a throughput that is not finite (e.g. zero-time repetition) is null.
std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

}  // namespace

bool write_json(const std::string& path, const RunInfo& info, const std::vector<ScenarioResult>& results) {
  std::ofstream out(path);
  if (!out) return false;
  out << "{\n  \"tool\": \"kiln-bench\",\n"
      << "  \"driver_name\": " << json_string(info.driver_name) << ",\n"
      << "  \"device_name\": " << json_string(info.device_name) << ",\n"
      << "  \"seconds_per_scenario\": " << json_number(info.seconds_per_scenario) << ",\n"
      << "  \"scenarios\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& result = results[i];
    const bool measured = result.iterations > 0;  // skipped or failed before timing: no numbers
    out << (i ? ",\n" : "\n") << "    {"
        << "\"name\": " << json_string(result.name)
        << ", \"driver_name\": " << json_string(info.driver_name)
        << ", \"device_name\": " << json_string(info.device_name)
        << ", \"status\": " << json_string(status_name(result.status))
        << ", \"reason\": " << json_string(result.reason)
        << ", \"median_throughput\": " << (measured ? json_number(result.median_throughput) : "null")
        << ", \"unit\": " << json_string(result.unit)
        << ", \"median_seconds\": " << (measured ? json_number(result.median_seconds) : "null")
        << ", \"iterations\": " << result.iterations
        << ", \"setup_seconds\": " << json_number(result.setup_seconds) << "}";
  }
  out << "\n  ]\n}\n";
  return bool(out);
}

}  // namespace kiln::bench
