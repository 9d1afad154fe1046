// Tessellation control kernels (ABI: common/abi/kernel_abi.h, tessellation section;
// docs/design/tessellation.md). A call's lanes are output control points of one patch
// (InvocationId = invocation_base + lane); inputs come from the vertex stage (emit_tessellation.h).
//
// Output variables are not per-lane: they are the patch's memory, one region per variable in
// natural layout (per-vertex variables in `outputs`, Patch variables after the tessellation levels
// in `patch_outputs`), which every invocation of the patch reads and writes directly, so gl_out[j]
// of another invocation is visible after a barrier. Where each Location and built-in ended up is
// reported as the evaluation kernel's StageOutputMap.
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/emit_tessellation.h"
#include "compiler/stage_interface.h"

namespace kiln::compiler {
namespace {

// The map entry a control kernel's output leaf is reported in (null: not one the next stage reads).
abi::StageOutputAddress* output_map_entry(abi::StageOutputMap& map, const InterfaceVariable& v, const InterfaceLeaf& leaf) {
  const uint32_t c = leaf.component;
  switch (leaf.builtin) {
    case spv::BuiltIn::Max: return v.patch ? &map.patch_location[leaf.location][c] : &map.location[leaf.location][c];
    case spv::BuiltIn::Position: return c < 4 ? &map.position[c] : nullptr;
    case spv::BuiltIn::PointSize: return &map.point_size;
    case spv::BuiltIn::ClipDistance: return c < abi::kMaxClipDistances ? &map.clip_distance[c] : nullptr;
    case spv::BuiltIn::CullDistance: return c < abi::kMaxClipDistances ? &map.cull_distance[c] : nullptr;
    default: return nullptr;  // the levels have fixed places
  }
}

using C = abi::TessControlInvocation;

class TessControlEmitter final : public TessellationEmitter {
 public:
  using TessellationEmitter::TessellationEmitter;

  void begin_kernel() override {
    begin_lane_count_kernel(offsetof(C, resources), offsetof(C, faults), offsetof(C, lane_count));
  }
  bool declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane) override {
    if (var.storage_class == spv::StorageClass::Output) return patch_output(id, var, pointee);
    return TessellationEmitter::declare_variable(id, var, pointee, per_lane);
  }
  // A control kernel reads no per-patch inputs (the vertex stage has none).
  bool prologue() override { return load_patch_inputs(offsetof(C, inputs), std::nullopt); }
  llvm::Value* builtin(spv::BuiltIn builtin, uint32_t) override {
    auto& b = t_.b();
    llvm::Type* i32 = b.getInt32Ty();
    switch (builtin) {
      case spv::BuiltIn::InvocationId:
        return b.CreateAdd(t_.splat(invocation_field(t_, offsetof(C, invocation_base), i32)), t_.lane_index());
      case spv::BuiltIn::PrimitiveId: return t_.splat(invocation_field(t_, offsetof(C, primitive_id), i32));
      case spv::BuiltIn::PatchVertices: return t_.splat(invocation_field(t_, offsetof(C, patch_vertices), i32));
      case spv::BuiltIn::ViewIndex: return t_.splat(invocation_field(t_, offsetof(C, view_index), i32));
      default: return nullptr;
    }
  }
  bool workgroup_barrier(const spirv::Instruction&) override {
    info_.uses_barrier = true;
    call_engine_barrier(offsetof(C, barrier), offsetof(C, barrier_context));
    return true;
  }
  // The engine runs control kernels on fibers whether or not they have barriers.
  bool runs_on_fiber() const override { return true; }
  bool epilogue() override;
  std::vector<BuiltinElement> debug_printf_ids() override {
    return {{spv::BuiltIn::PrimitiveId, 0}, {spv::BuiltIn::InvocationId, 0}};
  }

  const TessControlInfo& info() const { return info_; }

 private:
  bool patch_output(Id id, const spirv::Variable& var, Id pointee);

  TessControlInfo info_;                                 // what translation reports
  std::unordered_map<Id, uint32_t> output_offsets_;  // an output's offset in its memory
};

// An Output variable: a region of the patch's per-vertex or per-patch memory. Its initializer is
// the patch's: the patch's first call writes it on entry, before any invocation's own stores (the
// calls start in order), so no later call overwrites what an invocation wrote.
bool TessControlEmitter::patch_output(Id id, const spirv::Variable& var, Id pointee) {
  auto& b = t_.b();
  const spirv::Module& m = t_.m;
  const spirv::Decorations& d = m.decorations(id);
  const uint32_t size = spirv::type_size(m, pointee);
  uint32_t offset;
  bool patch = true;
  if (d.builtin == spv::BuiltIn::TessLevelOuter || d.builtin == spv::BuiltIn::TessLevelInner) {
    const bool outer = d.builtin == spv::BuiltIn::TessLevelOuter;
    offset = outer ? abi::kTessLevelOuterOffset : abi::kTessLevelInnerOffset;
    if (size > (outer ? 16u : 8u)) {
      t_.error_ = "TessLevelOuter/TessLevelInner of an unexpected type";
      return false;
    }
  } else if (is_patch_variable(m, id)) {
    offset = (info_.patch_bytes + 15) / 16 * 16;
    info_.patch_bytes = offset + size;
  } else {
    patch = false;
    offset = (info_.vertex_bytes + 15) / 16 * 16;
    info_.vertex_bytes = offset + size;
  }
  output_offsets_[id] = offset;
  llvm::Value* memory = invocation_field(t_, patch ? offsetof(C, patch_outputs) : offsetof(C, outputs), b.getPtrTy());
  const Pointer region = t_.region_pointer(memory, offset, size, pointee);
  t_.pointers_[id] = region;
  if (var.initializer) {
    llvm::Value* first_call = b.CreateICmpEQ(invocation_field(t_, offsetof(C, invocation_base), b.getInt32Ty()), b.getInt32(0));
    llvm::Value* saved = t_.mask_;
    t_.mask_ = t_.splat(first_call);
    t_.store(region, pointee, t_.get(var.initializer));
    t_.mask_ = saved;
  }
  return true;
}

// The outputs are already in the patch's memory: report where, as the evaluation kernel's map.
bool TessControlEmitter::epilogue() {
  abi::StageOutputMap& map = info_.outputs;
  map = abi::StageOutputMap{};
  info_.modes = modes();
  map.vertex_count = info_.modes.output_vertices;
  std::vector<InterfaceVariable> outputs;
  if (!interface_variables(t_, false, &outputs, &t_.error_)) return false;
  for (const InterfaceVariable& v : outputs) {
    std::vector<uint32_t> offsets;
    natural_leaf_offsets(t_.m, v.pointee, output_offsets_.at(v.id), &offsets);
    if (offsets.size() != v.leaves.size()) {
      t_.error_ = "a tessellation control output whose members are not all built-ins or all Locations";
      return false;
    }
    const uint32_t stride = v.vertices ? spirv::array_stride(t_.m, v.pointee) : 0;
    const size_t per_vertex = v.vertices ? v.leaves.size() / v.vertices : v.leaves.size();
    for (size_t i = 0; i < per_vertex; ++i)
      if (abi::StageOutputAddress* entry_at = output_map_entry(map, v, v.leaves[i])) *entry_at = {int32_t(offsets[i]), stride};
  }
  return TessellationEmitter::epilogue();
}

}  // namespace

std::unique_ptr<StageEmitter> make_tess_control_emitter(Translator& t) { return std::make_unique<TessControlEmitter>(t); }

std::unique_ptr<llvm::Module> translate_tess_control(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                     const TranslateOptions& options, llvm::LLVMContext& context,
                                                     const std::string& symbol, TessControlInfo* info, std::string* error) {
  if (!entry_point_is(entry, spv::ExecutionModel::TessellationControl, "tessellation control", error)) return nullptr;
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (!ir) return nullptr;
  *info = static_cast<const TessControlEmitter&>(t.stage()).info();
  if (info->modes.output_vertices < 1 || info->modes.output_vertices > abi::kMaxPatchVertices) {
    *error = "OutputVertices must be 1.." + std::to_string(abi::kMaxPatchVertices);
    return nullptr;
  }
  return ir;
}

}  // namespace kiln::compiler
