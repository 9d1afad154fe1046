#pragma once
// Vulkan requirements Kiln does not meet yet, in one list, so spec-requirement tests can run on
// Kiln today without hiding anything:
//  - a requirement that is met passes on every driver;
//  - an unmet requirement fails, unless the driver is Kiln and the requirement is a known gap
//    below (then it is reported, not failed);
//  - a known gap that Kiln now meets FAILS, so the list is shrunk as capabilities land.
// Each entry names the issue that delivers it.
#include <gtest/gtest.h>

#include <array>
#include <string_view>

namespace kiln::test {

// Empty today: Kiln meets every requirement these tests check. Add entries as
// std::array<std::string_view, N> when a new requirement is found unmet.
inline constexpr std::array<std::string_view, 0> kKilnKnownGaps{};

inline bool is_known_kiln_gap(std::string_view requirement) {
  for (std::string_view gap : kKilnKnownGaps)
    if (gap == requirement) return true;
  return false;
}

// Checks one spec requirement under the rules above.
inline void expect_requirement(bool met, std::string_view requirement, bool is_kiln) {
  const bool known_gap = is_kiln && is_known_kiln_gap(requirement);
  if (met && known_gap)
    ADD_FAILURE() << "Kiln now meets \"" << requirement << "\": remove it from kKilnKnownGaps (tests/e2e/conformance_gaps.h)";
  else if (!met && !known_gap)
    ADD_FAILURE() << "requirement not met: " << requirement;
  else if (!met)
    std::printf("known Kiln gap: %.*s\n", static_cast<int>(requirement.size()), requirement.data());
}

}  // namespace kiln::test
