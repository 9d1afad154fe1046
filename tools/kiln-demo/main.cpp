// kiln-demo: draws a 3D scene with every shader stage (scene.h) on whichever driver the loader
// picks (scripts/run-demo.sh runs it on lavapipe and then on Kiln), prints how long each frame
// took, writes the last frame as a PNG and checks it (check_picture.h).
//
//   kiln-demo [--output PATH] [--frames N] [--size WIDTHxHEIGHT] [--torus auto|mesh|vertex]
//             [--reference PATH [--tolerance T] [--min-match FRACTION]] [--present]
//
//   --output     the picture (default ./kiln-demo.png)
//   --frames     frames drawn, 1/30 s of scene time apart; the picture is the last (default 30)
//   --torus      how the torus is drawn: mesh = task + mesh shaders, vertex = a vertex shader
//                (the same triangles); auto = mesh where the device has VK_EXT_mesh_shader
//   --reference  a picture of the same frame to compare with (e.g. lavapipe's), at least
//                --min-match (default 0.99) of the pixels within --tolerance (default 24) per channel
//   --present    also show every frame in an X11 window ($DISPLAY) through a swapchain, as a
//                windowed application does (for gfxreconstruct captures, whose replays take
//                screenshots at presents)
//
// Exit status: 0 when the picture passes its checks and no validation message was reported.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/png_io.h"
#include "tools/common/vulkan_context.h"
#include "tools/kiln-demo/check_picture.h"
#include "tools/kiln-demo/scene.h"
#include "tools/kiln-demo/window_presenter.h"

namespace {

using kiln::demo::TorusPath;

struct Options {
  std::string output = "kiln-demo.png";
  uint32_t frames = 30;
  uint32_t width = 960;
  uint32_t height = 540;
  std::optional<TorusPath> torus;  // nullopt: auto
  std::optional<std::string> reference;
  kiln::demo::Likeness likeness = kiln::demo::kDriverLikeness;
  bool present = false;
};

constexpr float kSecondsPerFrame = 1.0f / 30;

void usage(const char* program) {
  std::fprintf(stderr,
               "usage: %s [--output PATH] [--frames N] [--size WIDTHxHEIGHT] [--torus auto|mesh|vertex]\n"
               "          [--reference PATH [--tolerance T] [--min-match FRACTION]] [--present]\n",
               program);
}

// Parses argv into `options`; false (after a message) on anything it does not understand.
bool parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--present") {
      options.present = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "kiln-demo: %s needs a value\n", flag.c_str());
      return false;
    }
    const std::string value = argv[++i];
    if (flag == "--output") {
      options.output = value;
    } else if (flag == "--frames") {
      options.frames = uint32_t(std::strtoul(value.c_str(), nullptr, 10));
      if (options.frames == 0 || options.frames > 10000) return false;
    } else if (flag == "--size") {
      if (std::sscanf(value.c_str(), "%ux%u", &options.width, &options.height) != 2 || options.width < 64 ||
          options.height < 64 || options.width > 4096 || options.height > 4096) {
        std::fprintf(stderr, "kiln-demo: --size wants WIDTHxHEIGHT, 64..4096 each\n");
        return false;
      }
    } else if (flag == "--torus") {
      if (value == "mesh") options.torus = TorusPath::Mesh;
      else if (value == "vertex") options.torus = TorusPath::Vertex;
      else if (value != "auto") return false;
    } else if (flag == "--reference") {
      options.reference = value;
    } else if (flag == "--tolerance") {
      options.likeness.tolerance = uint32_t(std::strtoul(value.c_str(), nullptr, 10));
    } else if (flag == "--min-match") {
      options.likeness.min_fraction = std::strtod(value.c_str(), nullptr);
    } else {
      std::fprintf(stderr, "kiln-demo: unknown option %s\n", flag.c_str());
      return false;
    }
  }
  return true;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run(const Options& options) {
  kiln::tools::VulkanContext context(
      "kiln-demo", options.present ? kiln::tools::Presentation::Xcb : kiln::tools::Presentation::None);
  std::printf("device: %s (driver: %s)\n", context.device_name().c_str(), context.driver_name().c_str());
  const TorusPath torus = options.torus.value_or(
      context.mesh_shader_enabled() && context.task_shader_enabled() ? TorusPath::Mesh : TorusPath::Vertex);
  if (auto reason = kiln::demo::Scene::unsupported_reason(context, options.width, options.height, torus)) {
    std::fprintf(stderr, "kiln-demo: this device cannot draw the scene: %s\n", reason->c_str());
    return 1;
  }

  const auto creation_start = std::chrono::steady_clock::now();
  kiln::demo::Scene scene(context, options.width, options.height, torus);
  std::printf("scene: %ux%u, 4x MSAA; stages: compute, vertex, tessellation control + evaluation, geometry, %s, "
              "fragment\n",
              options.width, options.height, torus == TorusPath::Mesh ? "task + mesh" : "(torus by vertex shader)");
  std::printf("pipelines and data created in %.1f ms\n", 1e3 * seconds_since(creation_start));
  std::unique_ptr<kiln::demo::WindowPresenter> presenter;
  if (options.present) presenter = std::make_unique<kiln::demo::WindowPresenter>(context, options.width, options.height);

  std::vector<double> frame_ms;
  for (uint32_t frame = 0; frame < options.frames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    const auto record = [&](VkCommandBuffer cmd) { scene.record_frame(cmd, float(frame) * kSecondsPerFrame); };
    if (presenter) {
      presenter->run_frame(record, scene.picture_image());
    } else {
      context.run_commands(record);
    }
    frame_ms.push_back(1e3 * seconds_since(start));
  }
  std::printf("frame times (ms, record + submit + wait):");
  for (double ms : frame_ms) std::printf(" %.1f", ms);
  std::vector<double> sorted = frame_ms;
  std::sort(sorted.begin(), sorted.end());
  std::printf("\nframes: %zu, median %.1f ms, fastest %.1f ms (%.1f frames/s at the median)\n", sorted.size(),
              sorted[sorted.size() / 2], sorted.front(), 1e3 / sorted[sorted.size() / 2]);

  const kiln::demo::Picture picture{scene.width(), scene.height(), scene.picture()};
  if (!kiln::png::write_rgba8(options.output, picture.width, picture.height, picture.rgba.data(),
                              size_t(picture.width) * 4)) {
    std::fprintf(stderr, "kiln-demo: cannot write %s\n", options.output.c_str());
    return 1;
  }
  std::printf("wrote %s\n", options.output.c_str());

  std::optional<kiln::demo::Picture> reference;
  if (options.reference) {
    reference.emplace();
    if (!kiln::png::read_rgba8(*options.reference, &reference->width, &reference->height, &reference->rgba)) {
      std::fprintf(stderr, "kiln-demo: cannot read the reference %s\n", options.reference->c_str());
      return 1;
    }
    std::printf("reference: %s\n", options.reference->c_str());
  }
  const kiln::demo::PictureCheck check =
      kiln::demo::check_picture(picture, reference ? &*reference : nullptr, options.likeness);
  for (const std::string& note : check.notes) std::printf("  %s\n", note.c_str());
  for (const std::string& problem : check.problems) std::printf("WRONG: %s\n", problem.c_str());
  if (context.validation_problem_count() > 0) {
    std::printf("FAIL: %u validation message(s) reported\n", context.validation_problem_count());
    return 1;
  }
  if (!check.problems.empty()) {
    std::printf("FAIL: the picture is not right\n");
    return 1;
  }
  std::printf("verified: the picture passed its checks%s\n", reference ? " and matches the reference" : "");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (argc == 2 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)) {
    usage(argv[0]);
    return 0;
  }
  if (!parse(argc, argv, options)) {
    usage(argv[0]);
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kiln-demo: %s\n", error.what());
    return 1;
  }
}
