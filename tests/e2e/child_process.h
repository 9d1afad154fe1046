#pragma once
// Tests that need a process of their own (a later process reading what an earlier one left, or a
// process that exits with work in flight) run this test binary again with a filter.
#include <string>

namespace kiln::test {

// Runs this test binary again with `environment` (VAR=value ...) and a gtest filter; returns its
// output, and its wait status in *status.
std::string run_this_binary(const std::string& environment, const std::string& filter, int* status);

}  // namespace kiln::test
