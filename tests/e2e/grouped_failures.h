#pragma once
// Collects per-invocation mismatches grouped by operation and reports each operation once, with
// its first few examples, so one broken instruction makes one readable test failure.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace kiln::test {

class GroupedFailures {
 public:
  // `describe(i)` names invocation i's inputs in the report.
  explicit GroupedFailures(std::function<std::string(size_t)> describe) : describe_(std::move(describe)) {}

  void add(const std::string& op, size_t invocation, const std::string& got, const std::string& want) {
    auto [it, inserted] = by_op_.try_emplace(op);
    if (inserted) order_.push_back(op);
    if (++it->second.count <= 3)
      it->second.examples += "\n    invocation " + std::to_string(invocation) + " (" + describe_(invocation) +
                             "): got " + got + ", want " + want;
  }

  // A result row whose first word (its length) is wrong: the shader and the test disagree.
  void add_bad_row(size_t invocation, uint32_t got_words, uint32_t row_words) {
    add("row length", invocation, std::to_string(got_words) + " words",
        std::to_string(row_words) + " (shader and test disagree on the results, or the shader did not finish)");
  }

  // One ADD_FAILURE per operation that had mismatches.
  void report(size_t invocations) {
    for (const std::string& op : order_)
      ADD_FAILURE() << op << ": " << by_op_[op].count << " of " << invocations << " invocations wrong"
                    << by_op_[op].examples;
  }

 private:
  struct Failures {
    uint32_t count = 0;
    std::string examples;
  };
  std::function<std::string(size_t)> describe_;
  std::map<std::string, Failures> by_op_;
  std::vector<std::string> order_;
};

}  // namespace kiln::test
