#pragma once
// Checks the pixels kiln-demo read back: every pixel against the CPU reference, and a few named
// probe pixels against hand-written colours (so a mistake in the reference itself is caught too).
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::demo {

// Empty when `pixels` (kCanvasSize² tightly packed RGBA8) is the expected picture; otherwise one
// line per problem found (the first few mismatching pixels, failed probes, a mismatch count).
std::vector<std::string> check_picture(const std::vector<uint8_t>& pixels);

}  // namespace kiln::demo
