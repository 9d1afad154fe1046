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
#include <string>
#include <utility>
#include <vector>

#include "compiler/emit_graphics.h"
#include "compiler/stage_interface.h"

namespace kiln::compiler {
namespace {

using G = abi::GeometryInvocation;

class GeometryEmitter final : public GraphicsEmitter {
 public:
  using GraphicsEmitter::GraphicsEmitter;

  void begin_kernel() override {
    begin_lane_count_kernel(offsetof(G, resources), offsetof(G, faults), offsetof(G, lane_count));
  }
  // The emitted vertices' layout; inputs gathered from each lane's primitive.
  bool prologue() override;
  llvm::Value* builtin(spv::BuiltIn builtin, uint32_t) override {
    auto& b = t_.b();
    llvm::Type* i32 = b.getInt32Ty();
    switch (builtin) {
      case spv::BuiltIn::InvocationId: return lane_array(t_, invocation_field(t_, offsetof(G, invocation_id), b.getPtrTy()), 0, i32);
      case spv::BuiltIn::PrimitiveId: return lane_array(t_, invocation_field(t_, offsetof(G, primitive_id), b.getPtrTy()), 0, i32);
      case spv::BuiltIn::ViewIndex: return t_.splat(invocation_field(t_, offsetof(G, view_index), i32));
      default: return nullptr;
    }
  }
  // OpEmitVertex / OpEndPrimitive and their stream forms. (The epilogue only returns: the
  // outputs left with each EmitVertex.)
  bool instruction(const spirv::Instruction& inst, bool* handled) override;
  std::vector<BuiltinElement> debug_printf_ids() override {
    return {{spv::BuiltIn::PrimitiveId, 0}, {spv::BuiltIn::InvocationId, 0}};
  }

  const GeometryInfo& info() const { return info_; }

 private:
  abi::GeometryModes modes() const;

  GeometryInfo info_;                                  // what translation reports
  std::vector<InterfaceVariable> outputs_;             // the Output variables ...
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> output_slots_;  // ... and their leaves' slots
  llvm::AllocaInst* strip_start_slot_ = nullptr;       // per lane, streams whose next vertex starts a strip
};

abi::GeometryModes GeometryEmitter::modes() const {
  abi::GeometryModes modes;
  for (const auto& [mode, args] : t_.entry.modes) {
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

bool GeometryEmitter::prologue() {
  auto& b = t_.b();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* i64 = b.getInt64Ty();
  if (!t_.options_.previous_stage) {
    t_.error_ = "geometry kernels need the previous stage's output map";
    return false;
  }
  info_.modes = modes();
  const abi::GeometryModes& modes = info_.modes;
  if (!modes.input_vertices || !modes.output) {
    t_.error_ = "a geometry shader without an input primitive or output strip type";
    return false;
  }
  if (modes.output_vertices < 1 || modes.output_vertices > abi::kMaxGeometryOutputVertices ||
      modes.invocations < 1 || modes.invocations > abi::kMaxGeometryInvocations) {
    t_.error_ = "geometry shader OutputVertices or Invocations past Kiln's limits (256, 32)";
    return false;
  }
  // The emitted vertices' layout: the same slots as a vertex kernel's outputs.
  std::vector<InterfaceVariable> outputs;
  if (!interface_variables(t_, false, &outputs, &t_.error_)) return false;
  if (!vertex_output_slots(t_, outputs, &info_.outputs, &output_slots_)) return false;
  outputs_ = outputs;
  strip_start_slot_ = t_.alloca_builder_.CreateAlloca(t_.lane_type(i32));
  b.CreateStore(t_.splat(b.getInt32((1u << abi::kMaxVertexStreams) - 1)), strip_start_slot_);

  // Each lane's primitive: its records start at inputs + input_primitive * primitive_bytes.
  const abi::StageOutputMap& map = *t_.options_.previous_stage;
  llvm::Value* inputs = b.CreatePtrToInt(invocation_field(t_, offsetof(G, inputs), b.getPtrTy()), i64);
  llvm::Value* primitive_bytes = b.CreateZExt(invocation_field(t_, offsetof(G, primitive_bytes), i32), i64);
  llvm::Value* primitive =
      b.CreateZExt(lane_array(t_, invocation_field(t_, offsetof(G, input_primitive), b.getPtrTy()), 0, i32), t_.lane_type(i64));
  llvm::Value* lane_base = b.CreateAdd(t_.splat(inputs), b.CreateMul(primitive, t_.splat(primitive_bytes)));
  std::vector<InterfaceVariable> variables;
  if (!interface_variables(t_, true, &variables, &t_.error_)) return false;
  for (const InterfaceVariable& v : variables) {
    Value value;
    for (const InterfaceLeaf& leaf : v.leaves) {
      llvm::Type* type = t_.leaf_type(leaf.scalar);
      const abi::StageOutputAddress at = previous_stage_address(map, v, leaf);
      if (at.offset < 0 || v.patch || leaf.vertex >= modes.input_vertices || leaf.vertex >= map.vertex_count) {
        value.leaves.push_back(llvm::Constant::getNullValue(t_.lane_type(type)));
        continue;
      }
      const uint64_t offset = uint64_t(at.offset) + uint64_t{leaf.vertex} * at.stride;
      std::vector<llvm::Value*> words;  // a 64-bit value's halves are consecutive record words
      for (uint32_t half = 0; half < (leaf.wide ? 2u : 1u); ++half) {
        llvm::Value* addresses =
            b.CreateIntToPtr(b.CreateAdd(lane_base, t_.splat(b.getInt64(offset + 4 * half))), t_.lane_type(b.getPtrTy()));
        words.push_back(b.CreateMaskedGather(t_.lane_type(i32), addresses, llvm::Align(4), t_.mask_,
                                             llvm::Constant::getNullValue(t_.lane_type(i32))));
      }
      value.leaves.push_back(leaf_from_words(t_, leaf, words));
    }
    t_.store(t_.pointers_.at(v.id), v.pointee, value);
  }
  return true;
}

bool GeometryEmitter::instruction(const spirv::Instruction& inst, bool* handled) {
  auto& b = t_.b();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* i64 = b.getInt64Ty();
  uint32_t stream = 0;
  switch (inst.opcode) {
    case spv::Op::OpEmitStreamVertex:
    case spv::Op::OpEndStreamPrimitive: {
      const auto s = inst.operands.empty() ? std::nullopt : t_.m.constant_uint(inst.operands[0]);
      if (!s || *s >= abi::kMaxVertexStreams) return t_.fail(inst, "a vertex stream that is not a constant 0..3");
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
  llvm::Value* strip_start = b.CreateLoad(t_.lane_type(i32), strip_start_slot_);
  llvm::Value* stream_bit = t_.splat(b.getInt32(1u << stream));
  if (inst.opcode == spv::Op::OpEndPrimitive || inst.opcode == spv::Op::OpEndStreamPrimitive) {
    b.CreateStore(b.CreateSelect(t_.mask_, b.CreateOr(strip_start, stream_bit), strip_start), strip_start_slot_);
    return true;
  }
  // EmitVertex: lane i's vertex n = emitted[i] goes to record i * OutputVertices + n.
  const uint32_t max_vertices = info_.modes.output_vertices;
  const uint64_t record_bytes = uint64_t{info_.outputs.slot_count} * 16;
  llvm::Value* emitted = invocation_field(t_, offsetof(G, emitted), b.getPtrTy());
  llvm::Value* count = lane_array(t_, emitted, 0, i32);
  llvm::Value* lanes = b.CreateAnd(t_.mask_, b.CreateICmpULT(count, t_.splat(b.getInt32(max_vertices))));
  llvm::Value* vertex = b.CreateZExt(b.CreateAdd(b.CreateMul(t_.lane_index(), t_.splat(b.getInt32(max_vertices))), count), t_.lane_type(i64));
  llvm::Value* outputs = b.CreatePtrToInt(invocation_field(t_, offsetof(G, outputs), b.getPtrTy()), i64);
  llvm::Value* record = b.CreateAdd(t_.splat(outputs), b.CreateMul(vertex, t_.splat(b.getInt64(record_bytes))));
  auto scatter = [&](llvm::Value* base, uint64_t offset, llvm::Value* value) {
    llvm::Value* addresses = b.CreateIntToPtr(b.CreateAdd(base, t_.splat(b.getInt64(offset))), t_.lane_type(b.getPtrTy()));
    b.CreateMaskedScatter(b.CreateBitCast(value, t_.lane_type(i32)), addresses, llvm::Align(4), lanes);
  };
  // Slots no output covers are zero in every record: a later stage or the engine may read them.
  for (uint32_t word = 0; word < record_bytes / 4; ++word) {
    bool covered = false;
    for (const auto& slots : output_slots_)
      for (const auto& [slot, component] : slots) covered |= slot != kNoSlot && slot * 4 + component == word;
    if (!covered) scatter(record, uint64_t{word} * 4, t_.splat(b.getInt32(0)));
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const InterfaceVariable& v = outputs_[i];
    const Value value = t_.load(t_.pointers_.at(v.id), v.pointee);
    const auto& slots = output_slots_[i];
    for (size_t k = 0; k < value.leaves.size() && k < slots.size(); ++k) {
      const auto [slot, component] = slots[k];
      if (slot == kNoSlot) continue;
      const std::vector<llvm::Value*> words = leaf_words(t_, v.leaves[k], value.leaves[k]);
      for (uint32_t half = 0; half < words.size(); ++half)
        scatter(record, (uint64_t{slot} * 4 + component + half) * 4, words[half]);
    }
  }
  llvm::Value* start = b.CreateAnd(b.CreateLShr(strip_start, t_.splat(b.getInt32(stream))), t_.splat(b.getInt32(1)));
  llvm::Value* flags = b.CreateOr(start, t_.splat(b.getInt32(stream << abi::kGeometryStreamShift)));
  llvm::Value* flag_base = b.CreatePtrToInt(invocation_field(t_, offsetof(G, vertex_flags), b.getPtrTy()), i64);
  scatter(b.CreateAdd(t_.splat(flag_base), b.CreateMul(vertex, t_.splat(b.getInt64(4)))), 0, flags);
  b.CreateAlignedStore(b.CreateSelect(lanes, b.CreateAdd(count, t_.splat(b.getInt32(1))), count), emitted, llvm::Align(4));
  b.CreateStore(b.CreateSelect(t_.mask_, b.CreateAnd(strip_start, b.CreateNot(stream_bit)), strip_start), strip_start_slot_);
  return true;
}

}  // namespace

std::unique_ptr<StageEmitter> make_geometry_emitter(Translator& t) { return std::make_unique<GeometryEmitter>(t); }

std::unique_ptr<llvm::Module> translate_geometry(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                 const TranslateOptions& options, llvm::LLVMContext& context,
                                                 const std::string& symbol, GeometryInfo* info, std::string* error) {
  if (!entry_point_is(entry, spv::ExecutionModel::Geometry, "geometry", error)) return nullptr;
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (ir) *info = static_cast<const GeometryEmitter&>(t.stage()).info();
  return ir;
}

}  // namespace kiln::compiler
