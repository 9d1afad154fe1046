#pragma once
// The test shaders built from tests/shaders/*.{comp,vert,...} (see CMakeLists.txt there).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

// The SPIR-V words of test shader `name` (its source file name, e.g. "saxpy.comp"); empty, with
// a message on stderr, when it was not built.
inline std::vector<uint32_t> kiln_test_shader(const std::string& name) {
  const std::string path = std::string(KILN_TEST_SHADER_DIR) + "/" + name + ".spv";
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) {
    std::fprintf(stderr, "kiln_test_shader: cannot open %s\n", path.c_str());
    return {};
  }
  std::vector<uint32_t> words(static_cast<size_t>(file.tellg()) / 4);
  file.seekg(0);
  file.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
  return words;
}
