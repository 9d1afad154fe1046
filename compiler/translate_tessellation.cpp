// Tessellation control and evaluation kernels (ABI: common/abi/kernel_abi.h, tessellation section;
// docs/design/tessellation.md).
//
// Lanes: a control kernel's lanes are output control points of one patch (InvocationId =
// invocation_base + lane); an evaluation kernel's lanes are domain points of one patch. Either
// way every lane reads the same patch, so inputs are loaded once per call as scalars (from the
// previous stage's memory, at the places its StageOutputMap gives) into the usual per-lane input
// variables, and PrimitiveId/PatchVertices are uniform.
//
// A control kernel's Output variables are not per-lane: they are the patch's memory, one region
// per variable in natural layout (per-vertex variables in `outputs`, Patch variables after the
// tessellation levels in `patch_outputs`), which every invocation of the patch reads and writes
// directly, so gl_out[j] of another invocation is visible after a barrier. Where each Location and
// built-in ended up is reported as the evaluation kernel's StageOutputMap.
#include <algorithm>

#include "compiler/stage_interface.h"
#include "compiler/translator_internal.h"

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

}  // namespace

abi::TessellationModes Translator::tessellation_modes() const {
  abi::TessellationModes modes;
  for (const auto& [mode, args] : entry.modes) {
    switch (mode) {
      case spv::ExecutionMode::Triangles: modes.domain = 1; break;
      case spv::ExecutionMode::Quads: modes.domain = 2; break;
      case spv::ExecutionMode::Isolines: modes.domain = 3; break;
      case spv::ExecutionMode::SpacingEqual: modes.spacing = 1; break;
      case spv::ExecutionMode::SpacingFractionalEven: modes.spacing = 2; break;
      case spv::ExecutionMode::SpacingFractionalOdd: modes.spacing = 3; break;
      case spv::ExecutionMode::VertexOrderCw: modes.vertex_order = 1; break;
      case spv::ExecutionMode::VertexOrderCcw: modes.vertex_order = 2; break;
      case spv::ExecutionMode::PointMode: modes.point_mode = true; break;
      case spv::ExecutionMode::OutputVertices:
        if (!args.empty()) modes.output_vertices = args[0];
        break;
      default: break;
    }
  }
  return modes;
}

void Translator::begin_tessellation_kernel() {
  auto& b = builder_;
  const bool control = entry.model == spv::ExecutionModel::TessellationControl;
  resources = invocation_field(*this, control ? offsetof(abi::TessControlInvocation, resources)
                                              : offsetof(abi::TessEvalInvocation, resources), b.getPtrTy());
  faults = invocation_field(*this, control ? offsetof(abi::TessControlInvocation, faults)
                                           : offsetof(abi::TessEvalInvocation, faults), b.getPtrTy());
  llvm::Value* count = invocation_field(*this, control ? offsetof(abi::TessControlInvocation, lane_count)
                                                       : offsetof(abi::TessEvalInvocation, lane_count), b.getInt32Ty());
  mask_ = b.CreateICmpULT(lane_index(), splat(count));
}

bool Translator::tess_control_output(Id id, Id pointee) {
  auto& b = builder_;
  const spirv::Decorations& d = m.decorations(id);
  const uint32_t size = spirv::type_size(m, pointee);
  uint32_t offset;
  bool patch = true;
  if (d.builtin == spv::BuiltIn::TessLevelOuter || d.builtin == spv::BuiltIn::TessLevelInner) {
    const bool outer = d.builtin == spv::BuiltIn::TessLevelOuter;
    offset = outer ? abi::kTessLevelOuterOffset : abi::kTessLevelInnerOffset;
    if (size > (outer ? 16u : 8u)) {
      error_ = "TessLevelOuter/TessLevelInner of an unexpected type";
      return false;
    }
  } else if (is_patch_variable(m, id)) {
    offset = (tess_control_.patch_bytes + 15) / 16 * 16;
    tess_control_.patch_bytes = offset + size;
  } else {
    patch = false;
    offset = (tess_control_.vertex_bytes + 15) / 16 * 16;
    tess_control_.vertex_bytes = offset + size;
  }
  tess_output_offsets_[id] = offset;
  llvm::Value* memory = invocation_field(*this, patch ? offsetof(abi::TessControlInvocation, patch_outputs)
                                                      : offsetof(abi::TessControlInvocation, outputs), b.getPtrTy());
  pointers_[id] = region_pointer(memory, offset, size, pointee);
  return true;
}

bool Translator::tessellation_prologue() {
  auto& b = builder_;
  if (!options_.previous_stage) {
    error_ = "tessellation kernels need the previous stage's output map";
    return false;
  }
  const abi::StageOutputMap& map = *options_.previous_stage;
  const bool control = entry.model == spv::ExecutionModel::TessellationControl;
  llvm::Value* per_vertex = invocation_field(*this, control ? offsetof(abi::TessControlInvocation, inputs)
                                                            : offsetof(abi::TessEvalInvocation, inputs), b.getPtrTy());
  // A control kernel reads no per-patch inputs (the vertex stage has none).
  llvm::Value* per_patch = control ? nullptr
                                   : invocation_field(*this, offsetof(abi::TessEvalInvocation, patch_inputs), b.getPtrTy());
  std::vector<InterfaceVariable> inputs;
  if (!interface_variables(*this, true, &inputs, &error_)) return false;
  for (const InterfaceVariable& v : inputs) {
    Value value;
    for (const InterfaceLeaf& leaf : v.leaves) {
      llvm::Type* type = leaf_type(leaf.scalar);
      const abi::StageOutputAddress at = previous_stage_address(map, v, leaf);
      llvm::Value* memory = v.patch ? per_patch : per_vertex;
      if (at.offset < 0 || !memory || (!v.patch && leaf.vertex >= map.vertex_count)) {
        value.leaves.push_back(llvm::Constant::getNullValue(lane_type(type)));
        continue;
      }
      const uint64_t offset = uint64_t(at.offset) + uint64_t{leaf.vertex} * at.stride;
      std::vector<llvm::Value*> words;  // a 64-bit value's halves follow each other in either stage's memory
      for (uint32_t half = 0; half < (leaf.wide ? 2u : 1u); ++half)
        words.push_back(splat(b.CreateAlignedLoad(b.getInt32Ty(), b.CreateConstGEP1_64(b.getInt8Ty(), memory, offset + 4 * half),
                                                  llvm::Align(4))));
      value.leaves.push_back(leaf_from_words(*this, leaf, words));
    }
    store(pointers_.at(v.id), v.pointee, value);
  }
  return true;
}

bool Translator::tess_control_epilogue() {
  abi::StageOutputMap& map = tess_control_.outputs;
  map = abi::StageOutputMap{};
  tess_control_.modes = tessellation_modes();
  map.vertex_count = tess_control_.modes.output_vertices;
  std::vector<InterfaceVariable> outputs;
  if (!interface_variables(*this, false, &outputs, &error_)) return false;
  for (const InterfaceVariable& v : outputs) {
    std::vector<uint32_t> offsets;
    natural_leaf_offsets(m, v.pointee, tess_output_offsets_.at(v.id), &offsets);
    if (offsets.size() != v.leaves.size()) {
      error_ = "a tessellation control output whose members are not all built-ins or all Locations";
      return false;
    }
    const uint32_t stride = v.vertices ? spirv::array_stride(m, v.pointee) : 0;
    const size_t per_vertex = v.vertices ? v.leaves.size() / v.vertices : v.leaves.size();
    for (size_t i = 0; i < per_vertex; ++i)
      if (abi::StageOutputAddress* entry_at = output_map_entry(map, v, v.leaves[i]))
        *entry_at = {int32_t(offsets[i]), stride};
  }
  builder_.CreateRetVoid();
  return true;
}

llvm::Value* Translator::tessellation_builtin(spv::BuiltIn builtin, uint32_t component) {
  auto& b = builder_;
  llvm::Type* i32 = b.getInt32Ty();
  if (entry.model == spv::ExecutionModel::TessellationControl) {
    using C = abi::TessControlInvocation;
    switch (builtin) {
      case spv::BuiltIn::InvocationId:
        return b.CreateAdd(splat(invocation_field(*this, offsetof(C, invocation_base), i32)), lane_index());
      case spv::BuiltIn::PrimitiveId: return splat(invocation_field(*this, offsetof(C, primitive_id), i32));
      case spv::BuiltIn::PatchVertices: return splat(invocation_field(*this, offsetof(C, patch_vertices), i32));
      case spv::BuiltIn::ViewIndex: return splat(invocation_field(*this, offsetof(C, view_index), i32));
      default: return nullptr;
    }
  }
  using E = abi::TessEvalInvocation;
  switch (builtin) {
    case spv::BuiltIn::TessCoord:
      if (component > 2) return nullptr;
      return lane_array(*this, invocation_field(*this, offsetof(E, tess_coord), b.getPtrTy()),
                        uint64_t{component} * width() * 4, b.getFloatTy());
    case spv::BuiltIn::PrimitiveId: return splat(invocation_field(*this, offsetof(E, primitive_id), i32));
    case spv::BuiltIn::PatchVertices: return splat(invocation_field(*this, offsetof(E, patch_vertices), i32));
    case spv::BuiltIn::ViewIndex: return splat(invocation_field(*this, offsetof(E, view_index), i32));
    default: return nullptr;
  }
}

std::unique_ptr<llvm::Module> translate_tess_control(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                     const TranslateOptions& options, llvm::LLVMContext& context,
                                                     const std::string& symbol, TessControlInfo* info, std::string* error) {
  if (entry.model != spv::ExecutionModel::TessellationControl) {
    *error = "not a tessellation control entry point";
    return nullptr;
  }
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (!ir) return nullptr;
  *info = t.tess_control_;
  if (info->modes.output_vertices < 1 || info->modes.output_vertices > abi::kMaxPatchVertices) {
    *error = "OutputVertices must be 1.." + std::to_string(abi::kMaxPatchVertices);
    return nullptr;
  }
  return ir;
}

std::unique_ptr<llvm::Module> translate_tess_eval(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                  const TranslateOptions& options, llvm::LLVMContext& context,
                                                  const std::string& symbol, TessEvalInfo* info, std::string* error) {
  if (entry.model != spv::ExecutionModel::TessellationEvaluation) {
    *error = "not a tessellation evaluation entry point";
    return nullptr;
  }
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (!ir) return nullptr;
  info->modes = t.tessellation_modes();
  info->outputs = t.vertex_outputs_;
  return ir;
}

}  // namespace kiln::compiler
