#include "pipeline/shared_payload.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <new>

namespace kiln::exec {
namespace {

constexpr uint64_t kMagic = 0x64616f6c7961704bull;  // "Kpayload", little-endian

size_t page_size() { return size_t(sysconf(_SC_PAGESIZE)); }

}  // namespace

std::shared_ptr<SharedPayload> SharedPayload::create(Kind kind, uint64_t value) {
  const int fd = memfd_create("kiln-sync-payload", MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  void* data = MAP_FAILED;
  if (ftruncate(fd, off_t(page_size())) == 0) data = mmap(nullptr, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    close(fd);
    return nullptr;
  }
  Page* page = new (data) Page{kMagic, kind, 0, {value}};
  return std::shared_ptr<SharedPayload>(new SharedPayload(page, fd));
}

std::shared_ptr<SharedPayload> SharedPayload::adopt(int fd, Kind kind) {
  struct stat st{};
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || size_t(st.st_size) != page_size()) return nullptr;
  void* data = mmap(nullptr, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) return nullptr;
  auto* page = static_cast<Page*>(data);
  if (page->magic != kMagic || page->kind != kind) {
    munmap(data, page_size());
    return nullptr;
  }
  return std::shared_ptr<SharedPayload>(new SharedPayload(page, fd));
}

SharedPayload::~SharedPayload() {
  munmap(page_, page_size());
  close(fd_);
}

int SharedPayload::export_fd() const { return fcntl(fd_, F_DUPFD_CLOEXEC, 0); }

}  // namespace kiln::exec
