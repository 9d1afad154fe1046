#include "e2e/child_process.h"

#include <unistd.h>

#include <cstdio>

namespace kiln::test {

std::string run_this_binary(const std::string& environment, const std::string& filter, int* status) {
  const std::string command = environment + " /proc/" + std::to_string(getpid()) + "/exe --gtest_filter=" + filter + " 2>&1";
  FILE* child = popen(command.c_str(), "r");
  if (!child) {
    *status = -1;
    return "popen failed";
  }
  std::string output;
  char chunk[4096];
  while (size_t n = fread(chunk, 1, sizeof chunk, child)) output.append(chunk, n);
  *status = pclose(child);
  return output;
}

}  // namespace kiln::test
