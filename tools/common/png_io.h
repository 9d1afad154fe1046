#pragma once
// PNG files for the demo, kiln-bench and the tests' image dumps (libpng).
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::png {

// Writes 8-bit RGBA pixels (rows `stride` bytes apart) to `path`. Returns false on I/O failure.
bool write_rgba8(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba,
                 size_t stride);

// Reads an 8-bit RGBA PNG (other PNG kinds are converted). Returns false when it cannot.
bool read_rgba8(const std::string& path, uint32_t* width, uint32_t* height, std::vector<uint8_t>* rgba);

}  // namespace kiln::png
