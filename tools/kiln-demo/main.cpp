// kiln-demo: draws "KILN" with Vulkan transfer commands on whichever driver the loader picks
// (scripts/run-demo.sh points it at Kiln), writes the picture as a PNG and checks it.
//
//   kiln-demo [OUTPUT.png]        default ./kiln-demo.png
//
// Exit status: 0 when the picture is right and no validation message was reported, 1 otherwise.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "tools/common/png_io.h"
#include "tools/common/vulkan_context.h"
#include "tools/kiln-demo/check_picture.h"
#include "tools/kiln-demo/draw_picture.h"
#include "tools/kiln-demo/picture.h"

namespace {

int run(const std::string& output_path) {
  kiln::tools::VulkanContext context("kiln-demo");
  std::printf("device: %s (driver: %s)\n", context.device_name().c_str(), context.driver_name().c_str());

  const std::vector<uint8_t> pixels = kiln::demo::draw_picture(context);
  const uint32_t size = kiln::demo::kCanvasSize;
  if (!kiln::png::write_rgba8(output_path, size, size, pixels.data(), size_t(size) * 4)) {
    std::fprintf(stderr, "kiln-demo: cannot write %s\n", output_path.c_str());
    return 1;
  }
  std::printf("wrote %s (%ux%u RGBA8)\n", output_path.c_str(), size, size);

  const std::vector<std::string> problems = kiln::demo::check_picture(pixels);
  for (const std::string& problem : problems) std::printf("WRONG: %s\n", problem.c_str());
  if (context.validation_problem_count() > 0) {
    std::printf("FAIL: %u validation message(s) reported\n", context.validation_problem_count());
    return 1;
  }
  if (!problems.empty()) {
    std::printf("FAIL: the picture is not what was drawn\n");
    return 1;
  }
  std::printf("verified: all %u pixels match the reference picture\n", size * size);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))) {
    std::fprintf(stderr, "usage: %s [OUTPUT.png]   (default ./kiln-demo.png)\n", argv[0]);
    return argc > 2 ? 2 : 0;
  }
  const std::string output_path = argc == 2 ? argv[1] : "kiln-demo.png";
  try {
    return run(output_path);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kiln-demo: %s\n", error.what());
    return 1;
  }
}
