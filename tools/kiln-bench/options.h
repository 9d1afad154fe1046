#pragma once
// kiln-bench's command line.
#include <optional>
#include <string>
#include <vector>

namespace kiln::bench {

struct Options {
  bool list = false;                   // --list: print scenario names and exit
  std::vector<std::string> scenarios;  // --scenario NAME (repeatable); empty = all
  std::string json_path;               // --json FILE; empty = no JSON
  double seconds = 1.0;                // --seconds S
  bool progress = false;               // --progress
  bool help = false;                   // -h / --help
};

// Parses argv; on a usage error returns nullopt and sets `error`.
std::optional<Options> parse_options(int argc, char** argv, std::string* error);

const char* usage_text();

}  // namespace kiln::bench
