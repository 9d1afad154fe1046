// Fragment kernels (abi::FragmentKernelFn; ABI: common/abi/kernel_abi.h, graphics section). The
// prologue loads the engine's interpolated SoA inputs into the per-lane Location inputs and
// presets FragDepth and SampleMask; the epilogue stores the outputs and returns the lanes that
// were not discarded. What the engine needs to know of the shader is the FragmentInterface.
//
// Lanes: lane i is pixel (i & 1, (i >> 1) & 1) of quad i / 4. Every lane of a quad that holds a
// real fragment runs (helpers are needed for derivatives); helper lanes — and lanes demoted to
// helpers — never write memory (without_helpers). OpKill/OpTerminateInvocation and
// OpDemoteToHelperInvocation add lanes to the discarded set; the kernel returns the covered
// lanes that are not in it.
#include <llvm/IR/Intrinsics.h>
#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <string>

#include "compiler/emit_graphics.h"
#include "compiler/stage_interface.h"

namespace kiln::compiler {
namespace {

// A call of a function that only kills: spirv_front's wrap-opkill leaves these where a continue
// construct calls a function that kills (the only calls that survive inlining).
bool is_kill_call(const spirv::Module& m, const spirv::Instruction& inst) {
  if (inst.opcode != spv::Op::OpFunctionCall || inst.operands.empty()) return false;
  const spirv::Function* callee = m.function(inst.operands[0]);
  if (!callee || callee->blocks.size() != 1 || !callee->blocks[0].body.empty()) return false;
  const spv::Op op = callee->blocks[0].terminator.opcode;
  return op == spv::Op::OpKill || op == spv::Op::OpTerminateInvocation;
}

// A fragment output leaf the kernel stores as dual-source blending's second source: Location 0,
// Index 1, when no Index 0 output uses the slot it borrows (`slot_taken`).
bool is_dual_source_leaf(const InterfaceLeaf& leaf, bool slot_taken) {
  return leaf.builtin == spv::BuiltIn::Max && leaf.index == 1 && leaf.location == 0 && !slot_taken;
}

// A uint32_t lane bit mask as <W x i1>.
llvm::Value* mask_from_bits(Translator& t, llvm::Value* bits) {
  auto& b = t.b();
  llvm::Value* lane_bit = b.CreateShl(t.splat(b.getInt32(1)), t.lane_index());
  return b.CreateICmpNE(b.CreateAnd(t.splat(bits), lane_bit), t.splat(b.getInt32(0)));
}

llvm::Value* bits_from_mask(Translator& t, llvm::Value* mask) {
  auto& b = t.b();
  return b.CreateZExt(b.CreateBitCast(mask, b.getIntNTy(t.width())), b.getInt32Ty());
}

// A variable other invocations or the application can see writes to: storage buffers and
// storage images (arrays of them included).
bool is_writable_memory(const spirv::Module& m, const spirv::Variable& var) {
  const spirv::Type* pointee = &m.type(m.type(var.type).element);
  while (pointee->kind == spirv::TypeKind::Array || pointee->kind == spirv::TypeKind::RuntimeArray)
    pointee = &m.type(pointee->element);
  switch (var.storage_class) {
    case spv::StorageClass::StorageBuffer: return true;
    case spv::StorageClass::Uniform: return pointee->buffer_block;
    case spv::StorageClass::UniformConstant:
      // Storage images (input attachments, Dim SubpassData, are read-only despite Sampled = 2).
      return pointee->kind == spirv::TypeKind::Image && !pointee->sampled_image && pointee->sampled == 2 &&
             pointee->dim != spv::Dim::SubpassData;
    default: return false;
  }
}

// Instructions that may write memory outside the invocation (stores count only when the module
// has writable memory; a store to a function variable is private).
bool writes_memory(spv::Op op, bool writable_memory) {
  if (spirv::is_atomic_instruction(op)) return op != spv::Op::OpAtomicLoad;
  switch (op) {
    case spv::Op::OpImageWrite: return true;
    case spv::Op::OpStore:
    case spv::Op::OpCopyMemory:
    case spv::Op::OpCopyMemorySized: return writable_memory;
    default: return false;
  }
}

class FragmentEmitter final : public GraphicsEmitter {
 public:
  using GraphicsEmitter::GraphicsEmitter;

  // Fragment kernels return the lanes that were not discarded.
  llvm::Type* return_type() const override { return llvm::Type::getInt32Ty(t_.ctx); }
  void begin_kernel() override;
  bool prologue() override;
  llvm::Value* builtin(spv::BuiltIn builtin, uint32_t component) override;
  bool instruction(const spirv::Instruction& inst, bool* handled) override;
  bool terminator(const spirv::Instruction& inst, bool* handled) override {
    if (inst.opcode == spv::Op::OpKill || inst.opcode == spv::Op::OpTerminateInvocation) discard();
    return GraphicsEmitter::terminator(inst, handled);
  }
  bool epilogue() override;
  llvm::Value* without_helpers(llvm::Value* lanes) override {
    auto& b = t_.b();
    return b.CreateAnd(lanes, b.CreateNot(b.CreateLoad(helper_slot_->getAllocatedType(), helper_slot_)));
  }
  bool interpolate_at(const spirv::Instruction& inst) override;
  std::optional<Value> subpass_coordinates(const Value& offset) override;
  std::vector<BuiltinElement> debug_printf_ids() override {
    interface_.reads_frag_coord = true;
    return {{spv::BuiltIn::FragCoord, 0}, {spv::BuiltIn::FragCoord, 1}};
  }

  const abi::FragmentInterface& interface() const { return interface_; }

 private:
  // The current lanes join the discarded set (OpKill, OpTerminateInvocation, demote).
  void discard() {
    auto& b = t_.b();
    llvm::Value* before = b.CreateLoad(discarded_slot_->getAllocatedType(), discarded_slot_);
    b.CreateStore(b.CreateOr(before, t_.mask_), discarded_slot_);
  }

  abi::FragmentInterface interface_;
  llvm::AllocaInst* helper_slot_ = nullptr;     // lanes that are (or were demoted to) helpers
  llvm::AllocaInst* discarded_slot_ = nullptr;  // lanes killed or demoted
  bool dual_source_slot_taken_ = false;          // an Index 0 output uses abi::kDualSourceOutputSlot
};

void FragmentEmitter::begin_kernel() {
  auto& b = t_.b();
  llvm::Type* ptr = b.getPtrTy();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* mask_type = t_.lane_type(b.getInt1Ty());
  t_.resources = invocation_field(t_, offsetof(abi::FragmentInvocation, resources), ptr);
  t_.faults = invocation_field(t_, offsetof(abi::FragmentInvocation, faults), ptr);
  // Every lane of a quad with a real fragment runs; the uncovered ones are helpers.
  t_.mask_ = mask_from_bits(t_, invocation_field(t_, offsetof(abi::FragmentInvocation, quad_mask), i32));
  llvm::Value* covered = mask_from_bits(t_, invocation_field(t_, offsetof(abi::FragmentInvocation, covered_mask), i32));
  helper_slot_ = t_.alloca_builder_.CreateAlloca(mask_type);
  discarded_slot_ = t_.alloca_builder_.CreateAlloca(mask_type);
  b.CreateStore(b.CreateNot(covered), helper_slot_);
  b.CreateStore(llvm::Constant::getNullValue(mask_type), discarded_slot_);
}

llvm::Value* FragmentEmitter::builtin(spv::BuiltIn builtin, uint32_t component) {
  auto& b = t_.b();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* f32 = b.getFloatTy();
  llvm::Type* ptr = b.getPtrTy();
  using F = abi::FragmentInvocation;
  switch (builtin) {
    case spv::BuiltIn::FragCoord:
      return lane_array(t_, invocation_field(t_, offsetof(F, frag_coord), ptr), uint64_t{component} * t_.width() * 4, f32);
    case spv::BuiltIn::PointCoord: {
      // Null for non-point primitives: read (0, 0) from a zero array instead.
      llvm::Value* coords = invocation_field(t_, offsetof(F, point_coord), ptr);
      auto* zeros_type = llvm::ArrayType::get(f32, 2 * t_.width());
      auto* zeros = new llvm::GlobalVariable(*t_.llvm_module, zeros_type, true, llvm::GlobalValue::PrivateLinkage,
                                             llvm::ConstantAggregateZero::get(zeros_type), "kiln_zero_point_coord");
      coords = b.CreateSelect(b.CreateIsNull(coords), zeros, coords);
      return lane_array(t_, coords, uint64_t{component} * t_.width() * 4, f32);
    }
    case spv::BuiltIn::FrontFacing:
      return t_.splat(b.CreateICmpNE(invocation_field(t_, offsetof(F, front_facing), i32), b.getInt32(0)));
    case spv::BuiltIn::PrimitiveId: return t_.splat(invocation_field(t_, offsetof(F, primitive_id), i32));
    case spv::BuiltIn::ClipDistance:
    case spv::BuiltIn::CullDistance: {
      const uint32_t index = abi::kClipCullInputSlot * 4 + component +
                             (builtin == spv::BuiltIn::CullDistance ? interface_.clip_distance_inputs : 0);
      return lane_array(t_, invocation_field(t_, offsetof(F, inputs), ptr), uint64_t{index} * t_.width() * 4, f32);
    }
    case spv::BuiltIn::Layer: return t_.splat(invocation_field(t_, offsetof(F, layer), i32));
    case spv::BuiltIn::ViewIndex: return t_.splat(invocation_field(t_, offsetof(F, view_index), i32));
    case spv::BuiltIn::ViewportIndex: return t_.splat(invocation_field(t_, offsetof(F, viewport_index), i32));
    case spv::BuiltIn::SampleId: return t_.splat(invocation_field(t_, offsetof(F, sample_id), i32));
    case spv::BuiltIn::SamplePosition: {
      // A shader that reads SamplePosition runs per sample, and then FragCoord.xy is the sample's
      // location (the spec's rule for sample shading), so the position is its fractional part.
      // With one sample the engine shades at the pixel centre: (0.5, 0.5), the standard location.
      llvm::Value* xy = lane_array(t_, invocation_field(t_, offsetof(F, frag_coord), ptr),
                                   uint64_t{component} * t_.width() * 4, f32);
      return b.CreateFSub(xy, b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, xy));
    }
    case spv::BuiltIn::SampleMask:
      return lane_array(t_, invocation_field(t_, offsetof(F, sample_mask_in), ptr), 0, i32);
    case spv::BuiltIn::HelperInvocation: return b.CreateLoad(helper_slot_->getAllocatedType(), helper_slot_);
    default: return nullptr;
  }
}

std::optional<Value> FragmentEmitter::subpass_coordinates(const Value& offset) {
  auto& b = t_.b();
  llvm::Type* lane_i32 = t_.lane_type(b.getInt32Ty());
  interface_.reads_frag_coord = true;
  Value coord;
  for (uint32_t c = 0; c < 2; ++c) {
    // FragCoord holds pixel centres (or sample positions): truncation gives the pixel.
    llvm::Value* pixel = b.CreateFPToSI(builtin(spv::BuiltIn::FragCoord, c), lane_i32);
    llvm::Value* delta = c < offset.leaves.size() ? b.CreateSExtOrTrunc(offset.leaves[c], lane_i32) : nullptr;
    coord.leaves.push_back(delta ? b.CreateAdd(pixel, delta) : pixel);
  }
  coord.leaves.push_back(builtin(spv::BuiltIn::Layer, 0));
  return coord;
}

// The interface the engine needs, then the inputs and the preset outputs.
bool FragmentEmitter::prologue() {
  auto& b = t_.b();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* ptr = b.getPtrTy();
  const spirv::Module& m = t_.m;
  std::vector<InterfaceVariable> inputs, outputs;
  if (!interface_variables(t_, true, &inputs, &t_.error_) || !interface_variables(t_, false, &outputs, &t_.error_)) return false;

  // Fragment: the interface the engine needs, then the inputs and the preset outputs.
  abi::FragmentInterface& fi = interface_;
  for (const auto& [mode, args] : t_.entry.modes) {
    switch (mode) {
      case spv::ExecutionMode::OriginLowerLeft:
        t_.error_ = "OriginLowerLeft is not allowed in Vulkan";
        return false;
      case spv::ExecutionMode::EarlyFragmentTests: fi.early_fragment_tests = true; break;
      case spv::ExecutionMode::PostDepthCoverage: fi.post_depth_coverage = true; break;
      case spv::ExecutionMode::DepthLess: fi.depth_replacing_mode_less = true; break;
      case spv::ExecutionMode::DepthGreater: fi.depth_replacing_mode_greater = true; break;
      default: break;
    }
  }
  for (const auto& [id, var] : m.variables()) {
    if (var.storage_class == spv::StorageClass::UniformConstant) {
      Id type = m.type(var.type).element;  // through the pointer and any arrays
      while (m.type(type).kind == spirv::TypeKind::Array || m.type(type).kind == spirv::TypeKind::RuntimeArray)
        type = m.type(type).element;
      if (m.type(type).kind == spirv::TypeKind::Image && m.type(type).dim == spv::Dim::SubpassData)
        fi.reads_input_attachments = true;
    }
    if (var.storage_class != spv::StorageClass::Input) continue;
    const auto builtin = m.decorations(id).builtin;
    if (builtin == spv::BuiltIn::SampleId || builtin == spv::BuiltIn::SamplePosition) fi.uses_sample_rate = true;
    // SamplePosition is derived from FragCoord (builtin).
    if (builtin == spv::BuiltIn::FragCoord || builtin == spv::BuiltIn::SamplePosition) fi.reads_frag_coord = true;
    if (builtin == spv::BuiltIn::SampleMask) fi.reads_sample_mask_in = true;
    if (builtin == spv::BuiltIn::FrontFacing || builtin == spv::BuiltIn::PrimitiveId) fi.reads_primitive_builtins = true;
    if (builtin == spv::BuiltIn::ClipDistance) fi.clip_distance_inputs = std::max(1u, m.type(m.type(var.type).element).count);
    if (builtin == spv::BuiltIn::CullDistance) fi.cull_distance_inputs = std::max(1u, m.type(m.type(var.type).element).count);
  }
  if (fi.clip_distance_inputs + fi.cull_distance_inputs > abi::kMaxClipDistances) {
    t_.error_ = "more than 8 ClipDistance + CullDistance inputs";
    return false;
  }
  // Stores can only reach memory others see when the module declares writable memory.
  bool writable_memory = std::find(m.capabilities().begin(), m.capabilities().end(),
                                   spv::Capability::PhysicalStorageBufferAddresses) != m.capabilities().end();
  for (const auto& [id, var] : m.variables()) writable_memory |= is_writable_memory(m, var);
  // Inlining has run (spirv_front), so the entry function holds every instruction.
  if (const spirv::Function* f = m.function(t_.entry.function))
    for (const spirv::Block& block : f->blocks) {
      const spv::Op op = block.terminator.opcode;
      if (op == spv::Op::OpKill || op == spv::Op::OpTerminateInvocation) fi.can_discard = true;
      for (const spirv::Instruction& inst : block.body) {
        if (inst.opcode == spv::Op::OpDemoteToHelperInvocation || is_kill_call(m, inst)) fi.can_discard = true;
        if (writes_memory(inst.opcode, writable_memory)) fi.has_side_effects = true;
      }
    }
  llvm::Value* input_array = invocation_field(t_, offsetof(abi::FragmentInvocation, inputs), ptr);
  for (const InterfaceVariable& v : inputs) {
    Value value;
    for (const InterfaceLeaf& leaf : v.leaves) {
      const uint32_t bit = 1u << leaf.location;
      fi.input_location_mask |= bit;
      const uint32_t components = spirv::type_size(m, leaf.scalar) > 4 ? 3u : 1u;  // 64-bit: two
      fi.input_components[leaf.location] |= uint8_t(components << leaf.component);
      fi.interpolation[leaf.location] = leaf.flat             ? abi::Interpolation::Flat
                                        : leaf.no_perspective ? abi::Interpolation::NoPerspective
                                                              : abi::Interpolation::Smooth;
      if (leaf.centroid) fi.centroid_mask |= bit;
      if (leaf.sample) {
        fi.sample_mask |= bit;
        fi.uses_sample_rate = true;
      }
      // A 64-bit input's halves are consecutive components (flat: the engine copies them as they are).
      std::vector<llvm::Value*> words;
      for (uint32_t half = 0; half < (leaf.wide ? 2u : 1u); ++half)
        words.push_back(lane_array(t_, input_array, (uint64_t{leaf.location} * 4 + leaf.component + half) * t_.width() * 4, i32));
      value.leaves.push_back(leaf_from_words(t_, leaf, words));
    }
    t_.store(t_.pointers_.at(v.id), v.pointee, value);
  }
  // The second source of dual-source blending (Location 0, Index 1) goes to output slot
  // abi::kDualSourceOutputSlot, unless the shader also writes that Location: then no pipeline can
  // blend with it (maxFragmentDualSrcAttachments is 1) and it is dropped, as are Index 1 outputs at
  // other Locations (is_dual_source_leaf).
  for (const InterfaceVariable& v : outputs)
    for (const InterfaceLeaf& leaf : v.leaves)
      if (leaf.builtin == spv::BuiltIn::Max && leaf.index == 0 && leaf.location == abi::kDualSourceOutputSlot)
        dual_source_slot_taken_ = true;
  for (const InterfaceVariable& v : outputs) {
    Value preset;
    for (const InterfaceLeaf& leaf : v.leaves) {
      if (leaf.wide) {
        t_.error_ = "64-bit fragment outputs are not supported";
        return false;
      }
      switch (leaf.builtin) {
        case spv::BuiltIn::Max:
          if (leaf.index != 0) {
            if (is_dual_source_leaf(leaf, dual_source_slot_taken_)) fi.writes_dual_source = true;
            break;
          }
          if (leaf.location >= abi::kMaxColorAttachments) {
            t_.error_ = "fragment output Location " + std::to_string(leaf.location) + " is past the last colour attachment";
            return false;
          }
          fi.output_location_mask |= 1u << leaf.location;
          fi.output_type[leaf.location] = !is_integer(t_, leaf.scalar) ? 0 : m.type(leaf.scalar).is_signed ? 1 : 2;
          break;
        case spv::BuiltIn::FragDepth:
          fi.writes_depth = true;
          // Preset to the interpolated depth, so a path that does not write it keeps that.
          preset.leaves.push_back(lane_array(t_, invocation_field(t_, offsetof(abi::FragmentInvocation, frag_depth), ptr),
                                             0, b.getFloatTy()));
          break;
        case spv::BuiltIn::FragStencilRefEXT:
          fi.writes_stencil_reference = true;
          preset.leaves.push_back(b.CreateBitCast(
              lane_array(t_, invocation_field(t_, offsetof(abi::FragmentInvocation, stencil_reference_out), ptr), 0, i32),
              t_.lane_type(t_.leaf_type(leaf.scalar))));
          break;
        case spv::BuiltIn::SampleMask:
          fi.writes_sample_mask = true;
          preset.leaves.push_back(b.CreateBitCast(
              lane_array(t_, invocation_field(t_, offsetof(abi::FragmentInvocation, sample_mask_out), ptr), 0, i32),
              t_.lane_type(t_.leaf_type(leaf.scalar))));
          break;
        default:
          t_.error_ = "fragment output built-in " + std::to_string(static_cast<unsigned>(leaf.builtin)) + " is not supported";
          return false;
      }
    }
    if (!preset.leaves.empty()) t_.store(t_.pointers_.at(v.id), v.pointee, preset);
  }
  return true;
}

bool FragmentEmitter::epilogue() {
  auto& b = t_.b();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* ptr = b.getPtrTy();
  std::vector<InterfaceVariable> outputs;
  if (!interface_variables(t_, false, &outputs, &t_.error_)) return false;
  using F = abi::FragmentInvocation;
  for (const InterfaceVariable& v : outputs) {
    const Value value = t_.load(t_.pointers_.at(v.id), v.pointee);
    for (size_t k = 0; k < value.leaves.size() && k < v.leaves.size(); ++k) {
      const InterfaceLeaf& leaf = v.leaves[k];
      if (leaf.builtin == spv::BuiltIn::Max) {
        if (leaf.index != 0 && !is_dual_source_leaf(leaf, dual_source_slot_taken_)) continue;
        const uint64_t slot = leaf.index != 0 ? abi::kDualSourceOutputSlot : leaf.location;
        store_lane_array(t_, invocation_field(t_, offsetof(F, outputs), ptr), (slot * 4 + leaf.component) * t_.width() * 4,
                         value.leaves[k]);
      } else if (leaf.builtin == spv::BuiltIn::FragDepth) {
        store_lane_array(t_, invocation_field(t_, offsetof(F, frag_depth), ptr), 0, value.leaves[k]);
      } else if (leaf.builtin == spv::BuiltIn::SampleMask && leaf.component == 0) {
        store_lane_array(t_, invocation_field(t_, offsetof(F, sample_mask_out), ptr), 0, value.leaves[k]);
      } else if (leaf.builtin == spv::BuiltIn::FragStencilRefEXT) {
        store_lane_array(t_, invocation_field(t_, offsetof(F, stencil_reference_out), ptr), 0, value.leaves[k]);
      }
    }
  }
  llvm::Value* covered = mask_from_bits(t_, invocation_field(t_, offsetof(F, covered_mask), i32));
  llvm::Value* discarded = b.CreateLoad(discarded_slot_->getAllocatedType(), discarded_slot_);
  b.CreateRet(bits_from_mask(t_, b.CreateAnd(covered, b.CreateNot(discarded))));
  return true;
}

bool FragmentEmitter::instruction(const spirv::Instruction& inst, bool* handled) {
  *handled = true;
  auto& b = t_.b();
  switch (inst.opcode) {
    case spv::Op::OpDemoteToHelperInvocation: {
      llvm::Value* helpers = b.CreateLoad(helper_slot_->getAllocatedType(), helper_slot_);
      b.CreateStore(b.CreateOr(helpers, t_.mask_), helper_slot_);
      discard();
      return true;
    }
    case spv::Op::OpFunctionCall:
      if (!is_kill_call(t_.m, inst)) {
        *handled = false;
        return true;
      }
      // The kill ends the block's lanes here: the rest of the block and its successors get none
      // (an OpKill terminator does the same by sending no mask on).
      discard();
      t_.mask_ = llvm::Constant::getNullValue(t_.mask_->getType());
      return true;
    case spv::Op::OpIsHelperInvocationEXT:
      t_.set(inst.result, Value{{b.CreateLoad(helper_slot_->getAllocatedType(), helper_slot_)}});
      return true;
    case spv::Op::OpDPdx: case spv::Op::OpDPdy: case spv::Op::OpFwidth:
    case spv::Op::OpDPdxFine: case spv::Op::OpDPdyFine: case spv::Op::OpFwidthFine:
    case spv::Op::OpDPdxCoarse: case spv::Op::OpDPdyCoarse: case spv::Op::OpFwidthCoarse: {
      // W is a multiple of 4 (translate_fragment), so every lane's quad is whole.
      // Fine: the difference across the lane's own row (dx) or column (dy) of its quad. Coarse:
      // the quad's top-left pair for every lane (the spec allows either; OpDPdx/OpDPdy are fine).
      const bool coarse = inst.opcode == spv::Op::OpDPdxCoarse || inst.opcode == spv::Op::OpDPdyCoarse ||
                          inst.opcode == spv::Op::OpFwidthCoarse;
      auto difference = [&](llvm::Value* v, uint32_t axis_bit) {
        std::vector<int> high, low;
        for (uint32_t i = 0; i < t_.width(); ++i) {
          const uint32_t from = coarse ? i & ~3u : i & ~axis_bit;
          high.push_back(static_cast<int>(from | axis_bit));
          low.push_back(static_cast<int>(from));
        }
        return b.CreateFSub(b.CreateShuffleVector(v, high), b.CreateShuffleVector(v, low));
      };
      const bool x_only = inst.opcode == spv::Op::OpDPdx || inst.opcode == spv::Op::OpDPdxFine || inst.opcode == spv::Op::OpDPdxCoarse;
      const bool y_only = inst.opcode == spv::Op::OpDPdy || inst.opcode == spv::Op::OpDPdyFine || inst.opcode == spv::Op::OpDPdyCoarse;
      Value out;
      for (llvm::Value* v : t_.get(inst.operands[0]).leaves) {
        if (x_only) {
          out.leaves.push_back(difference(v, 1));
        } else if (y_only) {
          out.leaves.push_back(difference(v, 2));
        } else {
          llvm::Value* dx = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, difference(v, 1));
          llvm::Value* dy = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, difference(v, 2));
          out.leaves.push_back(b.CreateFAdd(dx, dy));
        }
      }
      t_.set(inst.result, std::move(out));
      return true;
    }
    default:
      *handled = false;
      return true;
  }
}

// InterpolateAt*: the input's value at another position of the lane's pixel, from the primitive's
// planes (abi::InterpolationRecord, which the engine passes once the kernel says it reads it).
// The whole input variable is interpolated at that position into a shadow copy, and the
// instruction's pointer (any access chain into the variable, dynamic indices included) reads it.
bool FragmentEmitter::interpolate_at(const spirv::Instruction& inst) {
  const spirv::Module& m = t_.m;
  auto& b = t_.b();
  const uint32_t op = inst.operands[1];
  const Pointer p = t_.get_pointer(inst.operands[2]);
  std::vector<InterfaceVariable> inputs;
  if (!interface_variables(t_, true, &inputs, &t_.error_)) return false;
  const InterfaceVariable* var = nullptr;
  for (const InterfaceVariable& v : inputs) {
    const Pointer& vp = t_.pointers_.at(v.id);
    if (p.kind == PointerKind::Register ? vp.kind == p.kind && vp.variable == p.variable
                                        : vp.kind == PointerKind::Memory && p.kind == PointerKind::Memory && vp.lo == p.lo)
      var = &v;
  }
  if (!var) return t_.fail(inst, "InterpolateAt* of something that is not a Location input");
  interface_.interpolates_at_positions = true;
  interface_.reads_frag_coord = true;

  llvm::Type* i8 = b.getInt8Ty();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* f32 = b.getFloatTy();
  llvm::Type* ptr = b.getPtrTy();
  using R = abi::InterpolationRecord;
  llvm::Value* input_array = invocation_field(t_, offsetof(abi::FragmentInvocation, inputs), ptr);
  llvm::Value* record = b.CreateAlignedLoad(
      ptr, b.CreateConstGEP1_64(i8, input_array, uint64_t{abi::kInterpolationInputSlot} * 4 * t_.width() * 4), llvm::Align(4));
  auto field = [&](size_t offset) { return t_.splat(b.CreateLoad(f32, b.CreateConstGEP1_64(i8, record, offset))); };
  auto add = [&](llvm::Value* x, llvm::Value* y) { return b.CreateFAdd(x, y); };
  auto mul = [&](llvm::Value* x, llvm::Value* y) { return b.CreateFMul(x, y); };
  llvm::Value* samples = b.CreateLoad(i32, b.CreateConstGEP1_64(i8, record, offsetof(R, samples)));
  // Coordinate c of each lane's sample `index` (< samples) within the pixel.
  auto sample_position = [&](llvm::Value* index, uint32_t c) {
    llvm::Value* element = b.CreateAdd(b.CreateShl(index, t_.splat(b.getInt32(1))), t_.splat(b.getInt32(c)));
    llvm::Value* base = b.CreateConstGEP1_64(i8, record, offsetof(R, sample_position));
    llvm::Value* addresses = b.CreateGEP(f32, base, element);
    return b.CreateMaskedGather(t_.lane_type(f32), addresses, llvm::Align(4), t_.splat(b.getTrue()));
  };

  // The target position: FragCoord holds the lane's pixel centre or sample position.
  llvm::Value* pixel[2];
  llvm::Value* target[2];
  for (uint32_t c = 0; c < 2; ++c)
    pixel[c] = b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, builtin(spv::BuiltIn::FragCoord, c));
  llvm::Value* centre = t_.splat(llvm::ConstantFP::get(f32, 0.5));
  switch (op) {
    case GLSLstd450InterpolateAtOffset: {
      // Offsets past [minInterpolationOffset, maxInterpolationOffset] are undefined; they are used as given.
      const Value offset = t_.get(inst.operands[3]);
      for (uint32_t c = 0; c < 2; ++c) target[c] = add(add(pixel[c], centre), b.CreateFPCast(offset.leaves.at(c), t_.lane_type(f32)));
      break;
    }
    case GLSLstd450InterpolateAtSample: {
      // A sample number past the pixel's samples is undefined: sample 0 then.
      llvm::Value* sample = b.CreateSExtOrTrunc(t_.get(inst.operands[3]).leaves.at(0), t_.lane_type(i32));
      llvm::Value* index = b.CreateSelect(b.CreateICmpULT(sample, t_.splat(samples)), sample, t_.splat(b.getInt32(0)));
      for (uint32_t c = 0; c < 2; ++c) target[c] = add(pixel[c], sample_position(index, c));
      break;
    }
    default: {  // InterpolateAtCentroid: as the engine places centroid inputs (its first covered sample)
      llvm::Value* full = t_.splat(b.CreateSub(b.CreateShl(b.getInt32(1), samples), b.getInt32(1)));
      llvm::Value* coverage =
          b.CreateAnd(lane_array(t_, invocation_field(t_, offsetof(abi::FragmentInvocation, sample_mask_in), ptr), 0, i32), full);
      llvm::Value* zero = t_.splat(b.getInt32(0));
      llvm::Value* partial = b.CreateAnd(b.CreateICmpNE(coverage, zero), b.CreateICmpNE(coverage, full));
      llvm::Value* first = b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, coverage, b.getFalse());
      llvm::Value* index = b.CreateSelect(partial, first, zero);
      for (uint32_t c = 0; c < 2; ++c)
        target[c] = b.CreateSelect(partial, add(pixel[c], sample_position(index, c)), add(pixel[c], centre));
      break;
    }
  }

  // Weights at the target, in the engine's order of operations (TriangleInterpolator::weights).
  llvm::Value* x = b.CreateFSub(target[0], field(offsetof(R, origin)));
  llvm::Value* y = b.CreateFSub(target[1], field(offsetof(R, origin) + 4));
  auto plane = [&](size_t at) { return add(add(field(at), mul(field(at + 4), x)), mul(field(at + 8), y)); };
  llvm::Value* b1 = plane(offsetof(R, b1));
  llvm::Value* b2 = plane(offsetof(R, b2));
  llvm::Value* one = t_.splat(llvm::ConstantFP::get(f32, 1.0));
  llvm::Value* q0 = mul(b.CreateFSub(b.CreateFSub(one, b1), b2), field(offsetof(R, inv_w)));
  llvm::Value* q1 = mul(b1, field(offsetof(R, inv_w) + 4));
  llvm::Value* q2 = mul(b2, field(offsetof(R, inv_w) + 8));
  llvm::Value* w = add(add(q0, q1), q2);
  llvm::Value* perspective =
      t_.splat(b.CreateICmpNE(b.CreateLoad(i32, b.CreateConstGEP1_64(i8, record, offsetof(R, perspective))), b.getInt32(0)));
  llvm::Value* p1 = b.CreateSelect(perspective, b.CreateFDiv(q1, w), b1);
  llvm::Value* p2 = b.CreateSelect(perspective, b.CreateFDiv(q2, w), b2);

  const Pointer& whole = t_.pointers_.at(var->id);
  Value value = t_.load(whole, var->pointee);
  for (size_t i = 0; i < value.leaves.size() && i < var->leaves.size(); ++i) {
    const InterfaceLeaf& leaf = var->leaves[i];
    if (leaf.flat || leaf.builtin != spv::BuiltIn::Max || !value.leaves[i]->getType()->getScalarType()->isFloatTy()) continue;
    const size_t at = offsetof(R, component) + (size_t{leaf.location} * 4 + leaf.component) * 12;
    llvm::Value* w1 = leaf.no_perspective ? b1 : p1;
    llvm::Value* w2 = leaf.no_perspective ? b2 : p2;
    value.leaves[i] = add(add(field(at), mul(w1, field(at + 4))), mul(w2, field(at + 8)));
  }
  if (p.kind == PointerKind::Register) {
    Value part;
    const uint32_t count = t_.leaf_count(inst.result_type);
    for (uint32_t i = 0; i < count && p.first_leaf + i < value.leaves.size(); ++i) part.leaves.push_back(value.leaves[p.first_leaf + i]);
    t_.set(inst.result, std::move(part));
    return true;
  }
  // Memory: the same per-lane layout as the variable, so p's offsets (dynamic ones too) apply.
  const uint32_t size = std::max(1u, spirv::type_size(m, var->pointee));
  auto* storage = t_.alloca_builder_.CreateAlloca(llvm::ArrayType::get(i8, uint64_t{size} * t_.width()));
  storage->setAlignment(llvm::Align(64));
  llvm::Value* base = t_.splat(b.CreatePtrToInt(storage, b.getInt64Ty()));
  Pointer shadow = whole;
  shadow.addr = shadow.lo = base;
  shadow.hi = b.CreateAdd(base, t_.splat(b.getInt64(size)));
  t_.store(shadow, var->pointee, value);
  Pointer at = p;
  at.addr = b.CreateAdd(base, b.CreateSub(p.addr, p.lo));
  at.lo = shadow.lo;
  at.hi = shadow.hi;
  t_.set(inst.result, t_.load(at, inst.result_type));
  return true;
}

}  // namespace

std::unique_ptr<StageEmitter> make_fragment_emitter(Translator& t) { return std::make_unique<FragmentEmitter>(t); }

std::unique_ptr<llvm::Module> translate_fragment(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                 const TranslateOptions& options, llvm::LLVMContext& context,
                                                 const std::string& symbol, abi::FragmentInterface* interface,
                                                 std::string* error) {
  if (!entry_point_is(entry, spv::ExecutionModel::Fragment, "fragment", error)) return nullptr;
  if (options.simd_width % 4 != 0) {
    *error = "fragment kernels need a SIMD width that is a multiple of 4";
    return nullptr;
  }
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (ir) *interface = static_cast<const FragmentEmitter&>(t.stage()).interface();
  return ir;
}

}  // namespace kiln::compiler
