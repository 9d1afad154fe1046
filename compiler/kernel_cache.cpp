#include "compiler/kernel_cache.h"

#include <algorithm>
#include <cstring>

namespace kiln::compiler {
namespace {

constexpr char kMagic[8] = {'K', 'I', 'L', 'N', 'K', 'C', '1', '8'};

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

// Bounds a damaged cache cannot exceed: a control kernel's patch memory (32 vertices of 32
// Locations of vec4 with built-ins are well below it).
constexpr uint32_t kMaxPatchMemory = 1u << 20;

void write_vertex_outputs(Writer& w, const abi::VertexOutputLayout& l) {
  for (uint32_t v : {l.slot_count, uint32_t(l.point_size_slot), uint32_t(l.layer_slot), uint32_t(l.viewport_index_slot),
                     uint32_t(l.clip_distance_slot), l.clip_distance_count, uint32_t(l.cull_distance_slot), l.cull_distance_count,
                     uint32_t(l.primitive_id_slot)})
    w.u32(v);
  for (int32_t slot : l.location_slot) w.u32(static_cast<uint32_t>(slot));
  w.u32(l.xfb.capture_count);
  for (uint32_t stride : l.xfb.stride) w.u32(stride);
  for (uint32_t i = 0; i < l.xfb.capture_count; ++i) {
    const abi::XfbCapture& c = l.xfb.captures[i];
    w.u32(uint32_t(c.offset) | uint32_t(c.buffer) << 16 | uint32_t(c.stream) << 24);
    w.u32(uint32_t(c.slot) | uint32_t(c.component) << 8);
  }
}

bool read_vertex_outputs(Reader& r, abi::VertexOutputLayout* l) {
  l->slot_count = r.u32();
  l->point_size_slot = static_cast<int32_t>(r.u32());
  l->layer_slot = static_cast<int32_t>(r.u32());
  l->viewport_index_slot = static_cast<int32_t>(r.u32());
  l->clip_distance_slot = static_cast<int32_t>(r.u32());
  l->clip_distance_count = r.u32();
  l->cull_distance_slot = static_cast<int32_t>(r.u32());
  l->cull_distance_count = r.u32();
  l->primitive_id_slot = static_cast<int32_t>(r.u32());
  for (int32_t& slot : l->location_slot) slot = static_cast<int32_t>(r.u32());
  if (l->slot_count < 1 || l->slot_count > 64) return false;
  l->xfb.capture_count = r.u32();
  for (uint32_t& stride : l->xfb.stride) stride = r.u32();
  if (l->xfb.capture_count > abi::kMaxXfbCaptures) return false;
  for (uint32_t i = 0; i < l->xfb.capture_count; ++i) {
    const uint32_t a = r.u32(), b = r.u32();
    abi::XfbCapture& c = l->xfb.captures[i];
    c = {uint16_t(a), uint8_t(a >> 16), uint8_t(a >> 24), uint8_t(b), uint8_t(b >> 8)};
    // The engine indexes buffers, streams and record slots with these.
    if (c.buffer >= abi::kMaxXfbBuffers || c.stream >= abi::kMaxVertexStreams || c.slot >= l->slot_count || c.component > 3)
      return false;
  }
  return r.ok();
}

void write_modes(Writer& w, const abi::TessellationModes& m) {
  for (uint32_t v : {uint32_t(m.domain), uint32_t(m.spacing), uint32_t(m.vertex_order), uint32_t(m.point_mode), m.output_vertices})
    w.u32(v);
}

bool read_modes(Reader& r, abi::TessellationModes* m) {
  const uint32_t domain = r.u32(), spacing = r.u32(), order = r.u32(), point_mode = r.u32();
  m->output_vertices = r.u32();
  if (domain > 3 || spacing > 3 || order > 2 || m->output_vertices > abi::kMaxPatchVertices) return false;
  m->domain = uint8_t(domain);
  m->spacing = uint8_t(spacing);
  m->vertex_order = uint8_t(order);
  m->point_mode = point_mode != 0;
  return true;
}

// Every address of a StageOutputMap, in one fixed order.
template <typename Map, typename Fn>
void for_each_address(Map& map, Fn&& fn) {
  for (auto& location : map.location)
    for (auto& a : location) fn(a);
  for (auto& location : map.patch_location)
    for (auto& a : location) fn(a);
  for (auto& a : map.position) fn(a);
  fn(map.point_size);
  for (auto& a : map.clip_distance) fn(a);
  for (auto& a : map.cull_distance) fn(a);
}

// A task kernel has only a payload; a mesh kernel also its outputs.
void write_mesh(Writer& w, ShaderStage stage, const MeshInfo& m) {
  w.u32(m.payload_offset);
  w.u32(m.payload_bytes);
  if (stage == ShaderStage::Task) return;
  for (uint32_t v : {uint32_t(m.output), m.max_vertices, m.max_primitives}) w.u32(v);
  write_vertex_outputs(w, m.outputs);
  w.u32(uint32_t(m.words.size()));
  for (const MeshOutputWord& word : m.words) {
    w.u32(uint32_t(word.offset));
    w.u32(word.stride);
    w.u32(word.per_primitive ? 1 : 0);
  }
  for (const abi::StageOutputAddress& a : {m.indices, m.cull}) {
    w.u32(uint32_t(a.offset));
    w.u32(a.stride);
  }
}

// Every place must lie inside the workgroup's shared memory for every element the engine reads.
bool read_mesh(Reader& r, ShaderStage stage, uint32_t shared_bytes, MeshInfo* m) {
  m->payload_offset = r.u32();
  m->payload_bytes = r.u32();
  if (m->payload_bytes > abi::kMaxTaskPayloadBytes || uint64_t{m->payload_offset} + m->payload_bytes > shared_bytes) return false;
  if (stage == ShaderStage::Task) return r.ok();
  const uint32_t output = r.u32();
  m->max_vertices = r.u32();
  m->max_primitives = r.u32();
  if (output > 3 || m->max_vertices > abi::kMaxMeshOutputVertices || m->max_primitives > abi::kMaxMeshOutputPrimitives ||
      !read_vertex_outputs(r, &m->outputs))
    return false;
  m->output = uint8_t(output);
  const uint32_t words = r.u32();
  if (words != m->outputs.slot_count * 4) return false;
  auto inside = [&](const abi::StageOutputAddress& a, uint32_t elements, uint32_t bytes) {
    return a.offset < 0 || elements == 0 ||
           uint64_t(a.offset) + uint64_t{a.stride} * (elements - 1) + bytes <= shared_bytes;
  };
  m->words.resize(words);
  for (MeshOutputWord& word : m->words) {
    word.offset = int32_t(r.u32());
    word.stride = r.u32();
    word.per_primitive = r.u32() != 0;
    if (!inside({word.offset, word.stride}, word.per_primitive ? m->max_primitives : m->max_vertices, 4)) return false;
  }
  for (abi::StageOutputAddress* a : {&m->indices, &m->cull}) {
    a->offset = int32_t(r.u32());
    a->stride = r.u32();
  }
  return r.ok() && inside(m->indices, m->max_primitives, 4 * std::max<uint32_t>(output, 1)) &&
         inside(m->cull, m->max_primitives, 4);
}

// The stage-specific part of an entry, field by field (no raw struct bytes: a damaged cache must
// not produce out-of-range enums or bools).
void write_stage(Writer& w, const CachedKernel& k) {
  w.u32(static_cast<uint32_t>(k.stage));
  if (k.stage == ShaderStage::Vertex) {
    write_vertex_outputs(w, k.vertex_outputs);
  } else if (k.stage == ShaderStage::TessellationControl) {
    const TessControlInfo& c = k.tess_control;
    write_modes(w, c.modes);
    for (uint32_t v : {uint32_t(c.uses_barrier), c.vertex_bytes, c.patch_bytes}) w.u32(v);
    w.u32(c.outputs.vertex_count);
    for_each_address(c.outputs, [&](const abi::StageOutputAddress& a) {
      w.u32(static_cast<uint32_t>(a.offset));
      w.u32(a.stride);
    });
  } else if (k.stage == ShaderStage::TessellationEvaluation) {
    write_modes(w, k.tess_eval.modes);
    write_vertex_outputs(w, k.tess_eval.outputs);
  } else if (k.stage == ShaderStage::Geometry) {
    const abi::GeometryModes& g = k.geometry.modes;
    for (uint32_t v : {uint32_t(g.input_vertices), uint32_t(g.output), uint32_t(g.invocations), g.output_vertices}) w.u32(v);
    write_vertex_outputs(w, k.geometry.outputs);
  } else if (k.stage == ShaderStage::Task || k.stage == ShaderStage::Mesh) {
    write_mesh(w, k.stage, k.mesh);
  } else if (k.stage == ShaderStage::Fragment) {
    const abi::FragmentInterface& f = k.fragment;
    w.u32(f.input_location_mask);
    for (uint8_t c : f.input_components) w.u32(c);
    for (abi::Interpolation i : f.interpolation) w.u32(static_cast<uint32_t>(i));
    w.u32(f.centroid_mask);
    w.u32(f.sample_mask);
    w.u32(f.output_location_mask);
    for (uint8_t t : f.output_type) w.u32(t);
    for (bool flag : {f.writes_depth, f.writes_sample_mask, f.can_discard, f.early_fragment_tests,
                      f.depth_replacing_mode_less, f.depth_replacing_mode_greater, f.uses_sample_rate, f.has_side_effects,
                      f.reads_frag_coord, f.reads_input_attachments, f.interpolates_at_positions,
                      f.writes_dual_source, f.reads_sample_mask_in, f.post_depth_coverage, f.reads_primitive_builtins,
                      f.writes_stencil_reference})
      w.u32(flag ? 1 : 0);
    w.u32(f.clip_distance_inputs);
    w.u32(f.cull_distance_inputs);
  }
}

bool read_stage(Reader& r, CachedKernel* k) {
  const uint32_t stage = r.u32();
  if (stage >= kShaderStageCount) return false;
  k->stage = static_cast<ShaderStage>(stage);
  if (k->stage == ShaderStage::Vertex) return read_vertex_outputs(r, &k->vertex_outputs);
  if (k->stage == ShaderStage::TessellationControl) {
    TessControlInfo& c = k->tess_control;
    if (!read_modes(r, &c.modes)) return false;
    c.uses_barrier = r.u32() != 0;
    c.vertex_bytes = r.u32();
    c.patch_bytes = r.u32();
    c.outputs.vertex_count = r.u32();
    // Offsets past the memory the engine allocates would make the evaluation kernel read out of it.
    bool in_range = c.vertex_bytes <= kMaxPatchMemory && c.patch_bytes <= kMaxPatchMemory &&
                    c.outputs.vertex_count <= abi::kMaxPatchVertices;
    for_each_address(c.outputs, [&](abi::StageOutputAddress& a) {
      a.offset = static_cast<int32_t>(r.u32());
      a.stride = r.u32();
      in_range &= a.offset < int32_t(kMaxPatchMemory) && a.stride <= kMaxPatchMemory;
    });
    return in_range;
  }
  if (k->stage == ShaderStage::TessellationEvaluation)
    return read_modes(r, &k->tess_eval.modes) && read_vertex_outputs(r, &k->tess_eval.outputs);
  if (k->stage == ShaderStage::Geometry) {
    abi::GeometryModes& g = k->geometry.modes;
    const uint32_t input = r.u32(), output = r.u32(), invocations = r.u32();
    g.output_vertices = r.u32();
    // Values the engine sizes memory by must stay within what the translator accepts.
    if (input < 1 || input > abi::kMaxGeometryInputVertices || output < 1 || output > 3 || invocations < 1 ||
        invocations > abi::kMaxGeometryInvocations || g.output_vertices < 1 || g.output_vertices > abi::kMaxGeometryOutputVertices)
      return false;
    g.input_vertices = uint8_t(input);
    g.output = uint8_t(output);
    g.invocations = uint8_t(invocations);
    return read_vertex_outputs(r, &k->geometry.outputs);
  }
  if (k->stage == ShaderStage::Task || k->stage == ShaderStage::Mesh) return read_mesh(r, k->stage, k->info.shared_memory_bytes, &k->mesh);
  if (k->stage == ShaderStage::Fragment) {
    abi::FragmentInterface& f = k->fragment;
    f.input_location_mask = r.u32();
    for (uint8_t& c : f.input_components) {
      const uint32_t v = r.u32();
      if (v > 0xF) return false;
      c = uint8_t(v);
    }
    for (abi::Interpolation& i : f.interpolation) {
      const uint32_t v = r.u32();
      if (v > static_cast<uint32_t>(abi::Interpolation::NoPerspective)) return false;
      i = static_cast<abi::Interpolation>(v);
    }
    f.centroid_mask = r.u32();
    f.sample_mask = r.u32();
    f.output_location_mask = r.u32();
    for (uint8_t& t : f.output_type) {
      const uint32_t v = r.u32();
      if (v > 2) return false;
      t = static_cast<uint8_t>(v);
    }
    for (bool* flag : {&f.writes_depth, &f.writes_sample_mask, &f.can_discard, &f.early_fragment_tests,
                       &f.depth_replacing_mode_less, &f.depth_replacing_mode_greater, &f.uses_sample_rate, &f.has_side_effects,
                       &f.reads_frag_coord, &f.reads_input_attachments, &f.interpolates_at_positions,
                       &f.writes_dual_source, &f.reads_sample_mask_in, &f.post_depth_coverage,
                       &f.reads_primitive_builtins, &f.writes_stencil_reference})
      *flag = r.u32() != 0;
    f.clip_distance_inputs = r.u32();
    f.cull_distance_inputs = r.u32();
    if (f.clip_distance_inputs + f.cull_distance_inputs > abi::kMaxClipDistances) return false;
  }
  return true;
}

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
    write_stage(w, *k);
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
    if (!read_stage(r, k.get())) return false;
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
