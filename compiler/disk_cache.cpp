#include "compiler/disk_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <llvm/Config/llvm-config.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/build_id.h"
#include "common/env.h"
#include "common/log.h"
#include "compiler/jit.h"
#include "compiler/shader_hash.h"

namespace kiln::compiler {
namespace {

constexpr char kMagic[8] = {'K', 'I', 'L', 'N', 'D', 'K', '0', '1'};
constexpr const char* kSuffix = ".kernel";
constexpr const char* kTemporaryPrefix = ".tmp-";
// Larger than any kernel's object code: a bigger file is damage, not a kernel.
constexpr uint64_t kMaxFileBytes = 256ull << 20;
// A temporary file this old belongs to a writer that died; trimming removes it.
constexpr time_t kStaleTemporarySeconds = 600;

struct FileHeader {
  char magic[8];
  uint64_t key;
  uint64_t identity_hash;  // build and LLVM (the file name hashes them too; this catches collisions)
  uint64_t body_bytes;
  uint64_t body_checksum;
};

uint64_t checksum(std::span<const uint8_t> bytes) { return StableHasher().add_bytes(bytes).finish(); }

bool read_whole_file(const std::string& path, std::vector<uint8_t>* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st{};
  bool ok = fstat(fd, &st) == 0 && st.st_size > 0 && uint64_t(st.st_size) <= kMaxFileBytes;
  if (ok) {
    out->resize(size_t(st.st_size));
    size_t done = 0;
    while (ok && done < out->size()) {
      const ssize_t n = read(fd, out->data() + done, out->size() - done);
      if (n < 0 && errno == EINTR) continue;
      ok = n > 0;
      if (ok) done += size_t(n);
    }
  }
  close(fd);
  return ok;
}

bool write_all(int fd, const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (size) {
    const ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

bool make_directories(const std::string& path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    const std::string prefix = path.substr(0, slash);
    if (mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) break;
  }
  struct stat st{};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

struct DirectoryEntry {
  std::string path;
  uint64_t bytes;
  timespec used;
};

// The cache's files (and temporaries left by dead writers, marked by `stale`).
std::vector<DirectoryEntry> list_directory(const std::string& directory, std::vector<std::string>* stale) {
  std::vector<DirectoryEntry> entries;
  DIR* dir = opendir(directory.c_str());
  if (!dir) return entries;
  const time_t now = time(nullptr);
  while (const dirent* e = readdir(dir)) {
    const std::string name = e->d_name;
    const bool kernel = ends_with(name, kSuffix);
    const bool temporary = name.rfind(kTemporaryPrefix, 0) == 0;
    if (!kernel && !temporary) continue;
    const std::string path = directory + "/" + name;
    struct stat st{};
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (kernel) entries.push_back({path, uint64_t(st.st_size), st.st_mtim});
    else if (now - st.st_mtim.tv_sec > kStaleTemporarySeconds) stale->push_back(path);
  }
  closedir(dir);
  return entries;
}

std::string hex(uint64_t v) {
  char text[17];
  snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

}  // namespace

DiskCacheSettings disk_cache_settings_from_environment() {
  DiskCacheSettings settings;
  if (const char* dir = std::getenv("KILN_CACHE_DIR")) {
    settings.directory = dir;  // set but empty: off
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    settings.directory = std::string(xdg) + "/kiln";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    settings.directory = std::string(home) + "/.cache/kiln";
  }
  while (settings.directory.size() > 1 && settings.directory.back() == '/') settings.directory.pop_back();
  const int64_t mb = env_int("KILN_CACHE_MAX_MB", 1024);
  settings.max_bytes = uint64_t(mb > 0 ? mb : 1024) << 20;
  return settings;
}

DiskCache* DiskCache::process_cache() {
  static const std::unique_ptr<DiskCache> cache = []() -> std::unique_ptr<DiskCache> {
    DiskCacheSettings settings = disk_cache_settings_from_environment();
    if (settings.directory.empty()) {
      log(LogLevel::Info, "on-disk kernel cache: off (KILN_CACHE_DIR is empty or there is no home directory)");
      return nullptr;
    }
    log(LogLevel::Info, "on-disk kernel cache: %s (at most %llu MiB)", settings.directory.c_str(),
        static_cast<unsigned long long>(settings.max_bytes >> 20));
    return std::make_unique<DiskCache>(std::move(settings), build_id() + " LLVM " LLVM_VERSION_STRING,
                                       Jit::instance().cpu_name());
  }();
  return cache.get();
}

DiskCache::DiskCache(DiskCacheSettings settings, std::string identity, std::string cpu)
    : settings_(std::move(settings)), identity_(std::move(identity)), cpu_(std::move(cpu)) {}

std::string DiskCache::path_of(uint64_t key) const {
  return settings_.directory + "/" + hex(StableHasher().add_u64(key).add_string(identity_).finish()) + kSuffix;
}

std::shared_ptr<const CachedKernel> DiskCache::load(uint64_t key) {
  const std::string path = path_of(key);
  std::vector<uint8_t> bytes;
  if (!read_whole_file(path, &bytes)) return nullptr;  // not there: an ordinary miss
  std::shared_ptr<const CachedKernel> kernel;
  FileHeader header;
  if (bytes.size() >= sizeof header) {
    memcpy(&header, bytes.data(), sizeof header);
    const std::span<const uint8_t> body(bytes.data() + sizeof header, bytes.size() - sizeof header);
    KernelCache one;
    if (memcmp(header.magic, kMagic, sizeof kMagic) == 0 && header.key == key &&
        header.identity_hash == StableHasher().add_string(identity_).finish() && header.body_bytes == body.size() &&
        header.body_checksum == checksum(body) && one.deserialize(body, cpu_))
      kernel = one.find(key);
  }
  if (!kernel) {
    // Damaged, truncated, or made for another CPU under this name: compile again and replace it.
    unlink(path.c_str());
    log(LogLevel::Info, "on-disk kernel cache: %s is damaged or not for this CPU; removed", path.c_str());
    return nullptr;
  }
  utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // recently used: trimmed last
  return kernel;
}

bool DiskCache::ensure_directory() {
  std::lock_guard lock(mutex_);
  if (!directory_ready_) directory_ready_ = make_directories(settings_.directory);
  if (!directory_ready_ && !write_failed_) {
    write_failed_ = true;
    log(LogLevel::Warn, "on-disk kernel cache: cannot create %s (%s); kernels are not stored", settings_.directory.c_str(),
        strerror(errno));
  }
  return directory_ready_;
}

void DiskCache::store(uint64_t key, std::shared_ptr<const CachedKernel> kernel) {
  if (!ensure_directory()) return;
  KernelCache one;
  one.insert(key, std::move(kernel));
  const std::vector<uint8_t> body = one.serialize(cpu_);
  FileHeader header{};
  memcpy(header.magic, kMagic, sizeof kMagic);
  header.key = key;
  header.identity_hash = StableHasher().add_string(identity_).finish();
  header.body_bytes = body.size();
  header.body_checksum = checksum(body);

  static std::atomic<uint64_t> next_temporary{0};
  const std::string temporary = settings_.directory + "/" + kTemporaryPrefix + std::to_string(getpid()) + "-" +
                                std::to_string(next_temporary++);
  const std::string path = path_of(key);
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  bool ok = fd >= 0 && write_all(fd, &header, sizeof header) && write_all(fd, body.data(), body.size());
  if (fd >= 0) ok = close(fd) == 0 && ok;
  // rename() replaces atomically: readers in other processes see the old file or the new one.
  ok = ok && rename(temporary.c_str(), path.c_str()) == 0;
  if (!ok) {
    const int saved = errno;
    unlink(temporary.c_str());
    std::lock_guard lock(mutex_);
    if (!write_failed_) {
      write_failed_ = true;
      log(LogLevel::Warn, "on-disk kernel cache: cannot write %s (%s)", path.c_str(), strerror(saved));
    }
    return;
  }
  trim(sizeof header + body.size());
}

void DiskCache::trim(uint64_t added_bytes) {
  std::lock_guard lock(mutex_);
  // The directory is listed once per process and then counted as this process adds to it; other
  // processes' files are seen at the next listing, which every trim does.
  if (scanned_ && directory_bytes_ + added_bytes <= settings_.max_bytes) {
    directory_bytes_ += added_bytes;
    return;
  }
  std::vector<std::string> stale;
  std::vector<DirectoryEntry> entries = list_directory(settings_.directory, &stale);
  for (const std::string& path : stale) unlink(path.c_str());
  uint64_t total = 0;
  for (const DirectoryEntry& e : entries) total += e.bytes;
  scanned_ = true;
  if (total > settings_.max_bytes) {
    // Least recently used first (a hit touches its file), down to three quarters of the bound so
    // that the next stores do not trim again at once.
    std::sort(entries.begin(), entries.end(), [](const DirectoryEntry& a, const DirectoryEntry& b) {
      return a.used.tv_sec != b.used.tv_sec ? a.used.tv_sec < b.used.tv_sec : a.used.tv_nsec < b.used.tv_nsec;
    });
    const uint64_t target = settings_.max_bytes / 4 * 3;
    size_t removed = 0;
    for (const DirectoryEntry& e : entries) {
      if (total <= target) break;
      if (unlink(e.path.c_str()) == 0 || errno == ENOENT) {
        total -= e.bytes;
        ++removed;
      }
    }
    log(LogLevel::Info, "on-disk kernel cache: removed %zu least recently used files to stay under %llu MiB", removed,
        static_cast<unsigned long long>(settings_.max_bytes >> 20));
  }
  directory_bytes_ = total;
}

}  // namespace kiln::compiler
