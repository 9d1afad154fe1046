#include "tools/kiln-bench/options.h"

#include <cmath>
#include <cstdlib>

namespace kiln::bench {

const char* usage_text() {
  return "usage: kiln-bench [--list] [--scenario NAME]... [--json FILE] [--seconds S] [--progress]\n"
         "  Runs benchmark scenarios on the Vulkan driver the loader picks (set VK_ICD_FILENAMES).\n"
         "  --list           print the scenarios and exit\n"
         "  --scenario NAME  run NAME (repeatable; default: every scenario, unsupported ones skip)\n"
         "  --json FILE      also write the results as JSON\n"
         "  --seconds S      target time of the timed repetitions per scenario (default 1)\n"
         "  --progress       narrate each phase on stderr\n"
         "Exit status: 0 when no scenario failed, 1 when one did (wrong output, Vulkan error,\n"
         "validation message), 2 for a usage error.\n";
}

std::optional<Options> parse_options(int argc, char** argv, std::string* error) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    // Options that take a value accept "--name VALUE" and "--name=VALUE".
    auto value = [&](const std::string& name) -> std::optional<std::string> {
      if (argument.rfind(name + "=", 0) == 0) return argument.substr(name.size() + 1);
      if (argument != name) return std::nullopt;
      if (i + 1 >= argc) {
        *error = name + " needs a value";
        return std::nullopt;
      }
      return std::string(argv[++i]);
    };
    if (argument == "--list") {
      options.list = true;
    } else if (argument == "--progress") {
      options.progress = true;
    } else if (argument == "-h" || argument == "--help") {
      options.help = true;
    } else if (auto name = value("--scenario")) {
      options.scenarios.push_back(*name);
    } else if (auto path = value("--json")) {
      options.json_path = *path;
    } else if (auto seconds = value("--seconds")) {
      char* end = nullptr;
      options.seconds = std::strtod(seconds->c_str(), &end);
      if (end == seconds->c_str() || *end != '\0' || !std::isfinite(options.seconds) || options.seconds < 0) {
        *error = "--seconds needs a non-negative number, got '" + *seconds + "'";
        return std::nullopt;
      }
    } else {
      if (error->empty()) *error = "unknown argument '" + argument + "'";
      return std::nullopt;
    }
    if (!error->empty()) return std::nullopt;
  }
  return options;
}

}  // namespace kiln::bench
