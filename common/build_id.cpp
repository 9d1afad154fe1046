#include "common/build_id.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>

namespace kiln {
namespace {

struct Search {
  const void* base;  // load address of the object to look in
  std::string id;
};

// Reads NT_GNU_BUILD_ID from the PT_NOTE segments of the object loaded at `search->base`.
int find_build_id(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  bool ours = false;
  for (int i = 0; i < info->dlpi_phnum && !ours; ++i)
    ours = info->dlpi_phdr[i].p_type == PT_LOAD && info->dlpi_phdr[i].p_offset == 0 &&
           reinterpret_cast<const void*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr) == search->base;
  if (!ours) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const uint8_t*>(info->dlpi_addr + segment.p_vaddr);
    const uint8_t* end = p + segment.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      memcpy(&note, p, sizeof note);
      const uint8_t* name = p + sizeof note;
      const uint8_t* desc = name + ((note.n_namesz + 3) & ~3u);
      p = desc + ((note.n_descsz + 3) & ~3u);
      if (p > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
        static const char kHex[] = "0123456789abcdef";
        for (uint32_t b = 0; b < note.n_descsz; ++b) {
          search->id += kHex[desc[b] >> 4];
          search->id += kHex[desc[b] & 15];
        }
        return 1;
      }
    }
  }
  return 1;  // our object, but no build ID
}

std::string read_build_id() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&read_build_id), &info) && info.dli_fbase) {
    Search search{info.dli_fbase, {}};
    dl_iterate_phdr(find_build_id, &search);
    if (!search.id.empty()) return search.id;
  }
  return "built-" __DATE__ "-" __TIME__;
}

}  // namespace

const std::string& build_id() {
  static const std::string id = read_build_id();
  return id;
}

}  // namespace kiln
