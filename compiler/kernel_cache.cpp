#include "compiler/kernel_cache.h"

#include <cstring>

namespace kiln::compiler {
namespace {

constexpr char kMagic[8] = {'K', 'I', 'L', 'N', 'K', 'C', '0', '1'};

class Writer {
 public:
  explicit Writer(std::vector<uint8_t>* out) : out_(out) {}
  void u32(uint32_t v) { bytes(&v, 4); }
  void u64(uint64_t v) { bytes(&v, 8); }
  void blob(const void* data, size_t size) {
    u64(size);
    bytes(data, size);
  }
  void bytes(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    out_->insert(out_->end(), p, p + size);
  }

 private:
  std::vector<uint8_t>* out_;
};

// Bounds-checked reading: any read past the end fails and leaves `ok()` false.
class Reader {
 public:
  explicit Reader(std::span<const uint8_t> data) : data_(data) {}
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == data_.size(); }
  bool bytes(void* out, size_t size) {
    if (!ok_ || size > data_.size() - pos_) return ok_ = false;
    memcpy(out, data_.data() + pos_, size);
    pos_ += size;
    return true;
  }
  uint32_t u32() {
    uint32_t v = 0;
    bytes(&v, 4);
    return v;
  }
  uint64_t u64() {
    uint64_t v = 0;
    bytes(&v, 8);
    return v;
  }
  template <typename Container>
  bool blob(Container* out) {
    const uint64_t size = u64();
    if (!ok_ || size > data_.size() - pos_) return ok_ = false;
    out->resize(size);
    return bytes(out->data(), size);
  }

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace

std::shared_ptr<const CachedKernel> KernelCache::find(uint64_t key) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : it->second;
}

void KernelCache::insert(uint64_t key, std::shared_ptr<const CachedKernel> kernel) {
  std::lock_guard lock(mutex_);
  entries_.emplace(key, std::move(kernel));
}

void KernelCache::merge(const KernelCache& other) {
  if (&other == this) return;
  std::scoped_lock lock(mutex_, other.mutex_);
  for (const auto& [key, kernel] : other.entries_) entries_.emplace(key, kernel);
}

size_t KernelCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::vector<uint8_t> KernelCache::serialize(const std::string& cpu) const {
  std::lock_guard lock(mutex_);
  std::vector<uint8_t> out;
  Writer w(&out);
  w.bytes(kMagic, sizeof kMagic);
  w.blob(cpu.data(), cpu.size());
  w.u64(entries_.size());
  for (const auto& [key, k] : entries_) {
    w.u64(key);
    w.blob(k->symbol.data(), k->symbol.size());
    w.u32(k->simd_width);
    for (uint32_t v : k->info.local_size) w.u32(v);
    w.u32(k->info.shared_memory_bytes);
    w.u32(k->info.uses_barrier ? 1 : 0);
    w.blob(k->object.data(), k->object.size());
  }
  return out;
}

bool KernelCache::deserialize(std::span<const uint8_t> data, const std::string& cpu) {
  Reader r(data);
  char magic[sizeof kMagic];
  std::string recorded_cpu;
  if (!r.bytes(magic, sizeof magic) || memcmp(magic, kMagic, sizeof magic) != 0) return false;
  if (!r.blob(&recorded_cpu) || recorded_cpu != cpu) return false;
  const uint64_t count = r.u64();
  std::vector<std::pair<uint64_t, std::shared_ptr<CachedKernel>>> loaded;
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    auto k = std::make_shared<CachedKernel>();
    const uint64_t key = r.u64();
    r.blob(&k->symbol);
    k->simd_width = r.u32();
    for (uint32_t& v : k->info.local_size) v = r.u32();
    k->info.shared_memory_bytes = r.u32();
    k->info.uses_barrier = r.u32() != 0;
    r.blob(&k->object);
    if (k->simd_width != 4 && k->simd_width != 8 && k->simd_width != 16) return false;
    loaded.emplace_back(key, std::move(k));
  }
  if (!r.ok() || !r.at_end()) return false;  // all or nothing
  std::lock_guard lock(mutex_);
  for (auto& [key, k] : loaded) entries_.emplace(key, std::move(k));
  return true;
}

}  // namespace kiln::compiler
