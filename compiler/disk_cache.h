#pragma once
// The on-disk kernel cache (KILN_CACHE_DIR; README "Environment variables"): object code that
// outlives the process, so the next run of an application — or the next of a test suite's
// thousands of processes — links its kernels instead of compiling them. Design and file format:
// docs/design/pipeline-creation.md.
//
// One file per kernel, named by a hash of the kernel's key (compiler/kernel_build.h: shader,
// specialization, layout, variant, SIMD width, CPU and its features), Kiln's build ID and LLVM's
// version. Files are written under a temporary name and renamed, so any number of processes may
// share a directory and a reader sees a whole file or none; each carries a checksum, and a damaged
// one is removed and compiled again. The directory is kept under a size bound by removing the
// least recently used files.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "compiler/kernel_cache.h"

namespace kiln::compiler {

struct DiskCacheSettings {
  std::string directory;  // empty: no on-disk cache
  uint64_t max_bytes = 0;
};

// KILN_CACHE_DIR (set but empty: off), else $XDG_CACHE_HOME/kiln, else $HOME/.cache/kiln;
// KILN_CACHE_MAX_MB (default 1024).
DiskCacheSettings disk_cache_settings_from_environment();

class DiskCache {
 public:
  // The process's cache, from the environment when first asked; nullptr when it is off.
  static DiskCache* process_cache();

  // `identity` names what object code depends on beyond the key (build, LLVM); `cpu` is the
  // CPU the object code is for (Jit::cpu_name()).
  DiskCache(DiskCacheSettings settings, std::string identity, std::string cpu);

  // The kernel stored for `key`, or nullptr when there is none (or it was damaged: then the
  // file is removed). A hit marks the file as recently used.
  std::shared_ptr<const CachedKernel> load(uint64_t key);
  // Stores `kernel` for `key`, then trims the directory to the size bound. Failures (a
  // read-only or full disk) are logged once and otherwise ignored: the cache is an optimisation.
  void store(uint64_t key, std::shared_ptr<const CachedKernel> kernel);

  const std::string& directory() const { return settings_.directory; }
  std::string path_of(uint64_t key) const;

 private:
  bool ensure_directory();
  void trim(uint64_t added_bytes);

  DiskCacheSettings settings_;
  std::string identity_;
  std::string cpu_;
  std::mutex mutex_;           // guards the fields below
  bool directory_ready_ = false;
  bool write_failed_ = false;  // logged once; later stores are still tried
  bool scanned_ = false;       // directory_bytes_ counts the whole directory
  uint64_t directory_bytes_ = 0;
};

}  // namespace kiln::compiler
