// Geometry kernels (ABI: common/abi/kernel_abi.h, geometry section; docs/design/geometry.md).
//
// Lanes: each lane is one invocation of one input primitive (the engine orders them primitive-
// major), so unlike the tessellation stages every lane reads a different primitive: inputs are
// gathered per lane from the previous stage's records, at the places its StageOutputMap gives.
//
// Output variables are ordinary per-lane private variables. EmitVertex stores their current
// values, in VertexOutputLayout slots, as the next record of each active lane's own output area,
// together with a flags word (first vertex of a strip, stream), and counts the lane's vertices;
// emits past OutputVertices are dropped (the spec leaves them undefined). EndPrimitive only marks
// the lane's next vertex of that stream as a strip start: the engine assembles the strips.
#include <algorithm>

#include "compiler/stage_interface.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {

abi::GeometryModes Translator::geometry_modes() const {
  abi::GeometryModes modes;
  for (const auto& [mode, args] : entry.modes) {
    switch (mode) {
      case spv::ExecutionMode::InputPoints: modes.input_vertices = 1; break;
      case spv::ExecutionMode::InputLines: modes.input_vertices = 2; break;
      case spv::ExecutionMode::InputLinesAdjacency: modes.input_vertices = 4; break;
      case spv::ExecutionMode::Triangles: modes.input_vertices = 3; break;
      case spv::ExecutionMode::InputTrianglesAdjacency: modes.input_vertices = 6; break;
      case spv::ExecutionMode::OutputPoints: modes.output = 1; break;
      case spv::ExecutionMode::OutputLineStrip: modes.output = 2; break;
      case spv::ExecutionMode::OutputTriangleStrip: modes.output = 3; break;
      case spv::ExecutionMode::Invocations:
        if (!args.empty()) modes.invocations = uint8_t(std::min<uint32_t>(args[0], 255));
        break;
      case spv::ExecutionMode::OutputVertices:
        if (!args.empty()) modes.output_vertices = args[0];
        break;
      default: break;
    }
  }
  return modes;
}

void Translator::begin_geometry_kernel() {
  auto& b = builder_;
  using G = abi::GeometryInvocation;
  resources = invocation_field(*this, offsetof(G, resources), b.getPtrTy());
  faults = invocation_field(*this, offsetof(G, faults), b.getPtrTy());
  mask_ = b.CreateICmpULT(lane_index(), splat(invocation_field(*this, offsetof(G, lane_count), b.getInt32Ty())));
}

bool Translator::geometry_prologue() {
  auto& b = builder_;
  using G = abi::GeometryInvocation;
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* i64 = b.getInt64Ty();
  if (!options_.previous_stage) {
    error_ = "geometry kernels need the previous stage's output map";
    return false;
  }
  geometry_.modes = geometry_modes();
  const abi::GeometryModes& modes = geometry_.modes;
  if (!modes.input_vertices || !modes.output) {
    error_ = "a geometry shader without an input primitive or output strip type";
    return false;
  }
  if (modes.output_vertices < 1 || modes.output_vertices > abi::kMaxGeometryOutputVertices ||
      modes.invocations < 1 || modes.invocations > abi::kMaxGeometryInvocations) {
    error_ = "geometry shader OutputVertices or Invocations past Kiln's limits (256, 32)";
    return false;
  }
  // The emitted vertices' layout: the same slots as a vertex kernel's outputs.
  std::vector<InterfaceVariable> outputs;
  if (!interface_variables(*this, false, &outputs, &error_)) return false;
  if (!vertex_output_slots(*this, outputs, &geometry_.outputs, &geometry_output_slots_)) return false;
  geometry_outputs_ = outputs;
  strip_start_slot_ = alloca_builder_.CreateAlloca(lane_type(i32));
  b.CreateStore(splat(b.getInt32((1u << abi::kMaxVertexStreams) - 1)), strip_start_slot_);

  // Each lane's primitive: its records start at inputs + input_primitive * primitive_bytes.
  const abi::StageOutputMap& map = *options_.previous_stage;
  llvm::Value* inputs = b.CreatePtrToInt(invocation_field(*this, offsetof(G, inputs), b.getPtrTy()), i64);
  llvm::Value* primitive_bytes = b.CreateZExt(invocation_field(*this, offsetof(G, primitive_bytes), i32), i64);
  llvm::Value* primitive =
      b.CreateZExt(lane_array(*this, invocation_field(*this, offsetof(G, input_primitive), b.getPtrTy()), 0, i32), lane_type(i64));
  llvm::Value* lane_base = b.CreateAdd(splat(inputs), b.CreateMul(primitive, splat(primitive_bytes)));
  std::vector<InterfaceVariable> variables;
  if (!interface_variables(*this, true, &variables, &error_)) return false;
  for (const InterfaceVariable& v : variables) {
    Value value;
    for (const InterfaceLeaf& leaf : v.leaves) {
      llvm::Type* type = leaf_type(leaf.scalar);
      const abi::StageOutputAddress at = previous_stage_address(map, v, leaf);
      if (at.offset < 0 || v.patch || leaf.vertex >= modes.input_vertices || leaf.vertex >= map.vertex_count) {
        value.leaves.push_back(llvm::Constant::getNullValue(lane_type(type)));
        continue;
      }
      const uint64_t offset = uint64_t(at.offset) + uint64_t{leaf.vertex} * at.stride;
      std::vector<llvm::Value*> words;  // a 64-bit value's halves are consecutive record words
      for (uint32_t half = 0; half < (leaf.wide ? 2u : 1u); ++half) {
        llvm::Value* addresses =
            b.CreateIntToPtr(b.CreateAdd(lane_base, splat(b.getInt64(offset + 4 * half))), lane_type(b.getPtrTy()));
        words.push_back(b.CreateMaskedGather(lane_type(i32), addresses, llvm::Align(4), mask_,
                                             llvm::Constant::getNullValue(lane_type(i32))));
      }
      value.leaves.push_back(leaf_from_words(*this, leaf, words));
    }
    store(pointers_.at(v.id), v.pointee, value);
  }
  return true;
}

llvm::Value* Translator::geometry_builtin(spv::BuiltIn builtin, uint32_t) {
  auto& b = builder_;
  using G = abi::GeometryInvocation;
  llvm::Type* i32 = b.getInt32Ty();
  switch (builtin) {
    case spv::BuiltIn::InvocationId: return lane_array(*this, invocation_field(*this, offsetof(G, invocation_id), b.getPtrTy()), 0, i32);
    case spv::BuiltIn::PrimitiveId: return lane_array(*this, invocation_field(*this, offsetof(G, primitive_id), b.getPtrTy()), 0, i32);
    case spv::BuiltIn::ViewIndex: return splat(invocation_field(*this, offsetof(G, view_index), i32));
    default: return nullptr;
  }
}

bool Translator::geometry_instruction(const spirv::Instruction& inst, bool* handled) {
  auto& b = builder_;
  using G = abi::GeometryInvocation;
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* i64 = b.getInt64Ty();
  uint32_t stream = 0;
  switch (inst.opcode) {
    case spv::Op::OpEmitStreamVertex:
    case spv::Op::OpEndStreamPrimitive: {
      const auto s = inst.operands.empty() ? std::nullopt : m.constant_uint(inst.operands[0]);
      if (!s || *s >= abi::kMaxVertexStreams) return fail(inst, "a vertex stream that is not a constant 0..3");
      stream = uint32_t(*s);
      break;
    }
    case spv::Op::OpEmitVertex:
    case spv::Op::OpEndPrimitive: break;
    default:
      *handled = false;
      return true;
  }
  *handled = true;
  llvm::Value* strip_start = b.CreateLoad(lane_type(i32), strip_start_slot_);
  llvm::Value* stream_bit = splat(b.getInt32(1u << stream));
  if (inst.opcode == spv::Op::OpEndPrimitive || inst.opcode == spv::Op::OpEndStreamPrimitive) {
    b.CreateStore(b.CreateSelect(mask_, b.CreateOr(strip_start, stream_bit), strip_start), strip_start_slot_);
    return true;
  }
  // EmitVertex: lane i's vertex n = emitted[i] goes to record i * OutputVertices + n.
  const uint32_t max_vertices = geometry_.modes.output_vertices;
  const uint64_t record_bytes = uint64_t{geometry_.outputs.slot_count} * 16;
  llvm::Value* emitted = invocation_field(*this, offsetof(G, emitted), b.getPtrTy());
  llvm::Value* count = lane_array(*this, emitted, 0, i32);
  llvm::Value* lanes = b.CreateAnd(mask_, b.CreateICmpULT(count, splat(b.getInt32(max_vertices))));
  llvm::Value* vertex = b.CreateZExt(b.CreateAdd(b.CreateMul(lane_index(), splat(b.getInt32(max_vertices))), count), lane_type(i64));
  llvm::Value* outputs = b.CreatePtrToInt(invocation_field(*this, offsetof(G, outputs), b.getPtrTy()), i64);
  llvm::Value* record = b.CreateAdd(splat(outputs), b.CreateMul(vertex, splat(b.getInt64(record_bytes))));
  auto scatter = [&](llvm::Value* base, uint64_t offset, llvm::Value* value) {
    llvm::Value* addresses = b.CreateIntToPtr(b.CreateAdd(base, splat(b.getInt64(offset))), lane_type(b.getPtrTy()));
    b.CreateMaskedScatter(b.CreateBitCast(value, lane_type(i32)), addresses, llvm::Align(4), lanes);
  };
  // Slots no output covers are zero in every record: a later stage or the engine may read them.
  for (uint32_t word = 0; word < record_bytes / 4; ++word) {
    bool covered = false;
    for (const auto& slots : geometry_output_slots_)
      for (const auto& [slot, component] : slots) covered |= slot != kNoSlot && slot * 4 + component == word;
    if (!covered) scatter(record, uint64_t{word} * 4, splat(b.getInt32(0)));
  }
  for (size_t i = 0; i < geometry_outputs_.size(); ++i) {
    const InterfaceVariable& v = geometry_outputs_[i];
    const Value value = load(pointers_.at(v.id), v.pointee);
    const auto& slots = geometry_output_slots_[i];
    for (size_t k = 0; k < value.leaves.size() && k < slots.size(); ++k) {
      const auto [slot, component] = slots[k];
      if (slot == kNoSlot) continue;
      const std::vector<llvm::Value*> words = leaf_words(*this, v.leaves[k], value.leaves[k]);
      for (uint32_t half = 0; half < words.size(); ++half)
        scatter(record, (uint64_t{slot} * 4 + component + half) * 4, words[half]);
    }
  }
  llvm::Value* start = b.CreateAnd(b.CreateLShr(strip_start, splat(b.getInt32(stream))), splat(b.getInt32(1)));
  llvm::Value* flags = b.CreateOr(start, splat(b.getInt32(stream << abi::kGeometryStreamShift)));
  llvm::Value* flag_base = b.CreatePtrToInt(invocation_field(*this, offsetof(G, vertex_flags), b.getPtrTy()), i64);
  scatter(b.CreateAdd(splat(flag_base), b.CreateMul(vertex, splat(b.getInt64(4)))), 0, flags);
  b.CreateAlignedStore(b.CreateSelect(lanes, b.CreateAdd(count, splat(b.getInt32(1))), count), emitted, llvm::Align(4));
  b.CreateStore(b.CreateSelect(mask_, b.CreateAnd(strip_start, b.CreateNot(stream_bit)), strip_start), strip_start_slot_);
  return true;
}

std::unique_ptr<llvm::Module> translate_geometry(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                 const TranslateOptions& options, llvm::LLVMContext& context,
                                                 const std::string& symbol, GeometryInfo* info, std::string* error) {
  if (entry.model != spv::ExecutionModel::Geometry) {
    *error = "not a geometry entry point";
    return nullptr;
  }
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (ir) *info = t.geometry_;
  return ir;
}

}  // namespace kiln::compiler
