#include "common/log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace kiln {
namespace {

LogLevel configured_level() {
  static const LogLevel level = [] {
    const char* v = std::getenv("KILN_LOG");
    if (!v) return LogLevel::Warn;
    if (!strcmp(v, "error")) return LogLevel::Error;
    if (!strcmp(v, "info")) return LogLevel::Info;
    if (!strcmp(v, "debug")) return LogLevel::Debug;
    return LogLevel::Warn;
  }();
  return level;
}

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return "error";
    case LogLevel::Warn: return "warn";
    case LogLevel::Info: return "info";
    case LogLevel::Debug: return "debug";
  }
  return "?";
}

}  // namespace

bool log_enabled(LogLevel level) { return level <= configured_level(); }

void log(LogLevel level, const char* fmt, ...) {
  if (!log_enabled(level)) return;
  char line[1024];
  va_list args;
  va_start(args, fmt);
  vsnprintf(line, sizeof line, fmt, args);
  va_end(args);
  // One event, one line: a multi-line message (e.g. spirv-val's, which quotes the instruction
  // on a line of its own) is joined with " | ".
  std::string joined;
  for (const char* c = line; *c; ++c) {
    if (*c != '\n') joined += *c;
    else if (c[1] != '\0') joined += " | ";
  }
  fprintf(stderr, "kiln %s: %s\n", level_name(level), joined.c_str());
}

}  // namespace kiln
