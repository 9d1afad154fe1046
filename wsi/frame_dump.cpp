#include "wsi/frame_dump.h"

#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/log.h"
#include "wsi/pixel_convert.h"

namespace kiln::wsi {

void dump_frame_if_enabled(const Frame& frame) {
  const char* dir = std::getenv("KILN_WSI_DUMP_DIR");
  if (!dir || !*dir) return;
  // Frames are numbered per directory, from 0 (a process may point the variable elsewhere).
  static std::mutex mutex;
  static std::string current_dir;
  static uint32_t next_frame = 0;
  uint32_t n;
  {
    std::lock_guard lock(mutex);
    if (current_dir != dir) {
      current_dir = dir;
      next_frame = 0;
    }
    n = next_frame++;
  }
  const std::string path = std::string(dir) + "/kiln-frame-" + std::to_string(n) + ".ppm";
  const std::string temp = path + ".part";

  std::vector<uint8_t> rgb(size_t(frame.extent.width) * frame.extent.height * 3);
  to_rgb8(frame, rgb.data());
  FILE* f = std::fopen(temp.c_str(), "wb");
  bool ok = f != nullptr;
  if (f) {
    ok = std::fprintf(f, "P6\n%u %u\n255\n", frame.extent.width, frame.extent.height) > 0 &&
         std::fwrite(rgb.data(), 1, rgb.size(), f) == rgb.size();
    ok = std::fclose(f) == 0 && ok;
  }
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0)
    KILN_LOG_ONCE(LogLevel::Warn, "KILN_WSI_DUMP_DIR: cannot write %s", path.c_str());
}

}  // namespace kiln::wsi
