// The on-disk kernel cache (compiler/disk_cache.h): what it stores comes back, and whatever is
// wrong with a file — damage, another CPU, another build — makes a miss, never a kernel.
#include "compiler/disk_cache.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace kiln::compiler {
namespace {

class DiskCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("kiln-disk-cache-test-" + std::to_string(getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  DiskCache make(const std::string& identity = "build-a", const std::string& cpu = "cpu-a", uint64_t max_bytes = 1 << 20) {
    return DiskCache({directory_.string(), max_bytes}, identity, cpu);
  }
  static std::shared_ptr<const CachedKernel> kernel(const std::string& symbol, size_t object_bytes = 64) {
    auto k = std::make_shared<CachedKernel>();
    k->symbol = symbol;
    k->simd_width = 8;
    k->stage = ShaderStage::Compute;
    k->info.local_size[0] = 64;
    k->object.assign(object_bytes, 0);
    for (size_t i = 0; i < object_bytes; ++i) k->object[i] = char(i * 7 + symbol.size());
    return k;
  }
  size_t file_count() const {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(directory_)) n += e.path().extension() == ".kernel";
    return n;
  }

  std::filesystem::path directory_;
};

TEST_F(DiskCacheTest, WhatIsStoredComesBack) {
  DiskCache cache = make();
  EXPECT_EQ(cache.load(42), nullptr) << "nothing stored yet";
  cache.store(42, kernel("kiln_compute_42", 300));
  auto loaded = make().load(42);  // another DiskCache on the directory, as another process would be
  ASSERT_NE(loaded, nullptr);
  EXPECT_EQ(loaded->symbol, "kiln_compute_42");
  EXPECT_EQ(loaded->info.local_size[0], 64u);
  EXPECT_EQ(loaded->object, kernel("kiln_compute_42", 300)->object);
  EXPECT_EQ(make().load(43), nullptr) << "another key";
}

TEST_F(DiskCacheTest, ADamagedFileIsAMissAndIsRemoved) {
  DiskCache cache = make();
  cache.store(7, kernel("kiln_compute_7", 1000));
  const std::string path = cache.path_of(7);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(600);
    file.put('\x5a');  // one byte of the object code
  }
  EXPECT_EQ(cache.load(7), nullptr);
  EXPECT_FALSE(std::filesystem::exists(path)) << "a damaged file is removed so a compile can replace it";
  cache.store(7, kernel("kiln_compute_7", 1000));
  EXPECT_NE(cache.load(7), nullptr);
  // Truncated (a writer that died would leave only a temporary, but a disk can lose a tail).
  std::filesystem::resize_file(path, 40);
  EXPECT_EQ(cache.load(7), nullptr);
}

TEST_F(DiskCacheTest, AFileForAnotherCpuUnderTheSameNameIsNotLoaded) {
  make("build-a", "cpu-a").store(9, kernel("kiln_compute_9"));
  EXPECT_EQ(make("build-a", "cpu-b").load(9), nullptr);
  EXPECT_EQ(file_count(), 0u);
}

TEST_F(DiskCacheTest, AnotherBuildsFilesAreNotFound) {
  make("build-a").store(5, kernel("kiln_compute_5"));
  EXPECT_EQ(make("build-b").load(5), nullptr);
  EXPECT_NE(make("build-a").load(5), nullptr);
}

TEST_F(DiskCacheTest, TrimsTheLeastRecentlyUsedFilesToTheSizeBound) {
  // Four files of about 10 KiB under a 32 KiB bound: the fourth store trims to 24 KiB.
  DiskCache cache = make("build-a", "cpu-a", 32 << 10);
  for (uint64_t key = 1; key <= 3; ++key) {
    cache.store(key, kernel("kiln_compute_" + std::to_string(key), 10 << 10));
    // Ages 300, 200, 100 seconds: key 1 is the least recently used...
    const timespec times[2] = {{time(nullptr) - 100 * long(4 - key), 0}, {time(nullptr) - 100 * long(4 - key), 0}};
    ASSERT_EQ(utimensat(AT_FDCWD, cache.path_of(key).c_str(), times, 0), 0);
  }
  ASSERT_NE(cache.load(1), nullptr);  // ...until this hit makes it the most recent.
  cache.store(4, kernel("kiln_compute_4", 10 << 10));
  EXPECT_NE(cache.load(1), nullptr);
  EXPECT_EQ(cache.load(2), nullptr) << "the least recently used files go first";
  EXPECT_EQ(cache.load(3), nullptr) << "down to three quarters of the bound";
  EXPECT_NE(cache.load(4), nullptr);
  EXPECT_EQ(file_count(), 2u);
}

TEST_F(DiskCacheTest, AnUnwritableDirectoryOnlyLosesTheStores) {
  if (geteuid() == 0) {
    // Root ignores permissions; a directory path under a regular file cannot be created by anyone.
    std::ofstream(directory_.string() + "-file") << "x";
    DiskCache cache({directory_.string() + "-file/kiln", 1 << 20}, "build-a", "cpu-a");
    cache.store(1, kernel("kiln_compute_1"));
    EXPECT_EQ(cache.load(1), nullptr);
    std::filesystem::remove(directory_.string() + "-file");
    return;
  }
  std::filesystem::create_directories(directory_);
  std::filesystem::permissions(directory_, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  DiskCache cache = make();
  cache.store(1, kernel("kiln_compute_1"));
  EXPECT_EQ(cache.load(1), nullptr);
  std::filesystem::permissions(directory_, std::filesystem::perms::owner_all);
}

TEST(DiskCacheSettings, ComeFromTheEnvironment) {
  const char* saved_dir = std::getenv("KILN_CACHE_DIR");
  const std::string saved = saved_dir ? saved_dir : "";
  const char* saved_xdg_value = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = saved_xdg_value ? saved_xdg_value : "";
  const std::string saved_home = std::getenv("HOME") ? std::getenv("HOME") : "";

  setenv("KILN_CACHE_DIR", "", 1);
  EXPECT_EQ(disk_cache_settings_from_environment().directory, "") << "set but empty: off";
  setenv("KILN_CACHE_DIR", "/tmp/somewhere/", 1);
  EXPECT_EQ(disk_cache_settings_from_environment().directory, "/tmp/somewhere");
  unsetenv("KILN_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(disk_cache_settings_from_environment().directory, "/tmp/xdg/kiln");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/tmp/home", 1);
  EXPECT_EQ(disk_cache_settings_from_environment().directory, "/tmp/home/.cache/kiln");
  setenv("KILN_CACHE_MAX_MB", "5", 1);
  EXPECT_EQ(disk_cache_settings_from_environment().max_bytes, 5ull << 20);
  unsetenv("KILN_CACHE_MAX_MB");
  EXPECT_EQ(disk_cache_settings_from_environment().max_bytes, 1024ull << 20);

  if (saved_dir) setenv("KILN_CACHE_DIR", saved.c_str(), 1);
  if (saved_xdg_value) setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  setenv("HOME", saved_home.c_str(), 1);
}

}  // namespace
}  // namespace kiln::compiler
