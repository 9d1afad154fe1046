// Vertex and fragment kernels (ABI: common/abi/kernel_abi.h, graphics section).
//
// Input and Output variables are ordinary per-lane private variables (setup_variables): the
// prologue fills Location inputs — a vertex kernel FETCHES its attributes from the vertex buffers
// itself, converting the formats inline; a fragment kernel loads the engine's interpolated SoA
// arrays — and the epilogue stores every output to the ABI's SoA arrays. Input built-ins are read
// from the invocation record where the shader reads them (graphics_builtin).
//
// Fragment lanes: lane i is pixel (i & 1, (i >> 1) & 1) of quad i / 4. Every lane of a quad that
// holds a real fragment runs (helpers are needed for derivatives); helper lanes — and lanes
// demoted to helpers — never write memory (without_helpers). OpKill/OpTerminateInvocation and
// OpDemoteToHelperInvocation add lanes to the discarded set; the kernel returns the covered
// lanes that are not in it.
#include <llvm/IR/Intrinsics.h>
#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <unordered_map>

#include "common/abi/kernel_abi.h"
#include "compiler/stage_interface.h"
#include "compiler/translator_internal.h"
#include "compiler/vertex_formats.h"

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

llvm::Value* as_i32(Translator& t, llvm::Value* leaf) {
  return t.b().CreateBitCast(leaf, t.lane_type(t.b().getInt32Ty()));
}

// ---------------------------------------------------------------------------------------------
// Vertex fetch
// ---------------------------------------------------------------------------------------------

// The four 32-bit components (as <W x i32> bit patterns) of the attribute at `location` for every
// lane: elements whose bytes extend past the buffer's `size` (or an unbound buffer) read
// (0, 0, 0, 1), and so do components the format lacks. `integer` is the shader's view of the
// location, used when no attribute feeds it.
bool fetch_attribute(Translator& t, uint32_t location, bool integer, std::array<llvm::Value*, 4>* out) {
  auto& b = t.b();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* i64 = b.getInt64Ty();
  const VertexAttributeKey* attribute = nullptr;
  if (t.options_.vertex_input)
    for (const VertexAttributeKey& a : t.options_.vertex_input->attributes)
      if (a.location == location) attribute = &a;
  const abi::VertexFormat* format = attribute ? abi::vertex_format(static_cast<VkFormat>(attribute->format)) : nullptr;
  auto default_component = [&](uint32_t c, bool integer_format) {
    const uint32_t one = integer_format ? 1u : 0x3f800000u;  // 1 or 1.0f
    return t.splat(b.getInt32(c == 3 ? one : 0));
  };
  if (!attribute) {  // the application feeds nothing here (invalid usage): read the defaults
    for (uint32_t c = 0; c < 4; ++c) (*out)[c] = default_component(c, integer);
    return true;
  }
  if (!format || attribute->binding >= abi::kMaxVertexBindings) {
    t.error_ = "vertex attribute at Location " + std::to_string(location) + " has format " +
               std::to_string(attribute->format) + " or binding " + std::to_string(attribute->binding) +
               ", which vertex kernels cannot fetch";
    return false;
  }
  const VertexBindingKey* binding = nullptr;
  for (const VertexBindingKey& k : t.options_.vertex_input->bindings)
    if (k.binding == attribute->binding) binding = &k;

  llvm::Value* buffers = invocation_field(t, offsetof(abi::VertexInvocation, vertex_buffers), b.getPtrTy());
  llvm::Value* record = b.CreateConstGEP1_64(b.getInt8Ty(), buffers, uint64_t{attribute->binding} * sizeof(abi::VertexBufferRecord));
  auto record_field = [&](size_t offset) { return b.CreateLoad(i64, b.CreateConstGEP1_64(b.getInt8Ty(), record, offset)); };
  llvm::Value* address = record_field(offsetof(abi::VertexBufferRecord, address));
  llvm::Value* size = record_field(offsetof(abi::VertexBufferRecord, size));
  llvm::Value* stride = record_field(offsetof(abi::VertexBufferRecord, stride));

  llvm::Value* element;  // <W x i64>
  if (binding && binding->per_instance) {
    llvm::Value* base_instance = invocation_field(t, offsetof(abi::VertexInvocation, base_instance), i32);
    llvm::Value* instance = base_instance;
    if (binding->divisor != 0) {
      llvm::Value* instance_index = invocation_field(t, offsetof(abi::VertexInvocation, instance_index), i32);
      instance = b.CreateAdd(base_instance, b.CreateUDiv(b.CreateSub(instance_index, base_instance), b.getInt32(binding->divisor)));
    }
    element = t.splat(b.CreateZExt(instance, i64));
  } else {
    // VertexIndex may be negative (vertexOffset): as unsigned it is far out of range.
    llvm::Value* indices = invocation_field(t, offsetof(abi::VertexInvocation, vertex_index), b.getPtrTy());
    element = b.CreateZExt(lane_array(t, indices, 0, i32), t.lane_type(i64));
  }
  const uint64_t bytes = format->bytes();
  llvm::Value* offset = b.CreateAdd(b.CreateMul(element, t.splat(stride)), t.splat(b.getInt64(attribute->offset)));
  llvm::Value* buffer_ok = b.CreateAnd(b.CreateICmpNE(address, b.getInt64(0)), b.CreateICmpUGE(size, b.getInt64(bytes)));
  llvm::Value* inside = b.CreateAnd(t.splat(buffer_ok), b.CreateICmpULE(offset, t.splat(b.CreateSub(size, b.getInt64(bytes)))));
  llvm::Value* lanes = b.CreateAnd(t.mask(), inside);
  llvm::Value* base = b.CreateAdd(t.splat(address), offset);
  auto gather = [&](llvm::Type* raw, uint64_t at) {
    llvm::Value* pointers = b.CreateIntToPtr(b.CreateAdd(base, t.splat(b.getInt64(at))), t.lane_type(b.getPtrTy()));
    return b.CreateMaskedGather(t.lane_type(raw), pointers, llvm::Align(1), lanes, llvm::Constant::getNullValue(t.lane_type(raw)));
  };
  const uint32_t unit = abi::unit_bits(format->layout, format->bits);
  std::map<uint32_t, llvm::Value*> units;  // by byte offset: a packed word is fetched once
  for (uint32_t c = 0; c < 4; ++c) {
    llvm::Value* fallback = default_component(c, format->integer());
    if (c >= format->components) {
      (*out)[c] = fallback;
      continue;
    }
    const abi::ChannelField field = abi::channel_field(format->layout, format->bits, c);
    llvm::Value*& loaded = units[field.byte];
    if (!loaded) loaded = gather(b.getIntNTy(unit), field.byte);
    // Lanes outside the buffer gathered zero: they read the format's zero, (0, 0, 0, 1) for a
    // format without a fourth component and (0, 0, 0, 0) with one (robustBufferAccess2).
    (*out)[c] = as_i32(t, component_to_value(t, format->numeric, field.bits, extract_field(t, loaded, field)));
  }
  return true;
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
  if (is_atomic_instruction(op)) return op != spv::Op::OpAtomicLoad;
  switch (op) {
    case spv::Op::OpImageWrite: return true;
    case spv::Op::OpStore:
    case spv::Op::OpCopyMemory:
    case spv::Op::OpCopyMemorySized: return writable_memory;
    default: return false;
  }
}

}  // namespace

bool Translator::is_stage_io_variable(Id id, const spirv::Variable& var) const {
  if (!graphics()) return false;
  // A control kernel's outputs are memory its patch's invocations share (tess_control_output).
  if (var.storage_class == spv::StorageClass::Output) return entry.model != spv::ExecutionModel::TessellationControl;
  if (var.storage_class != spv::StorageClass::Input) return false;
  if (const auto builtin = m.decorations(id).builtin)  // the levels are the control stage's outputs
    return *builtin == spv::BuiltIn::TessLevelOuter || *builtin == spv::BuiltIn::TessLevelInner;
  const Id pointee = m.type(var.type).element;
  return !(m.type(pointee).kind == spirv::TypeKind::Struct && m.member_decorations(pointee, 0).builtin);
}

void Translator::begin_graphics_kernel() {
  auto& b = builder_;
  llvm::Type* ptr = b.getPtrTy();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* mask_type = lane_type(b.getInt1Ty());
  if (tessellation()) return begin_tessellation_kernel();
  if (geometry()) return begin_geometry_kernel();
  if (entry.model == spv::ExecutionModel::Vertex) {
    resources = invocation_field(*this, offsetof(abi::VertexInvocation, resources), ptr);
    faults = invocation_field(*this, offsetof(abi::VertexInvocation, faults), ptr);
    llvm::Value* count = invocation_field(*this, offsetof(abi::VertexInvocation, lane_count), i32);
    mask_ = b.CreateICmpULT(lane_index(), splat(count));
    return;
  }
  resources = invocation_field(*this, offsetof(abi::FragmentInvocation, resources), ptr);
  faults = invocation_field(*this, offsetof(abi::FragmentInvocation, faults), ptr);
  // Every lane of a quad with a real fragment runs; the uncovered ones are helpers.
  mask_ = mask_from_bits(*this, invocation_field(*this, offsetof(abi::FragmentInvocation, quad_mask), i32));
  llvm::Value* covered = mask_from_bits(*this, invocation_field(*this, offsetof(abi::FragmentInvocation, covered_mask), i32));
  helper_slot_ = alloca_builder_.CreateAlloca(mask_type);
  discarded_slot_ = alloca_builder_.CreateAlloca(mask_type);
  b.CreateStore(b.CreateNot(covered), helper_slot_);
  b.CreateStore(llvm::Constant::getNullValue(mask_type), discarded_slot_);
}

llvm::Value* Translator::without_helpers(llvm::Value* lanes) {
  if (!helper_slot_) return lanes;
  return builder_.CreateAnd(lanes, builder_.CreateNot(builder_.CreateLoad(helper_slot_->getAllocatedType(), helper_slot_)));
}

void Translator::note_discard() {
  if (!discarded_slot_) return;
  llvm::Value* before = builder_.CreateLoad(discarded_slot_->getAllocatedType(), discarded_slot_);
  builder_.CreateStore(builder_.CreateOr(before, mask_), discarded_slot_);
}

llvm::Value* Translator::graphics_builtin(spv::BuiltIn builtin, uint32_t component) {
  auto& b = builder_;
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* f32 = b.getFloatTy();
  llvm::Type* ptr = b.getPtrTy();
  if (tessellation()) return tessellation_builtin(builtin, component);
  if (geometry()) return geometry_builtin(builtin, component);
  if (entry.model == spv::ExecutionModel::Vertex) {
    using V = abi::VertexInvocation;
    switch (builtin) {
      case spv::BuiltIn::VertexIndex:
        return lane_array(*this, invocation_field(*this, offsetof(V, vertex_index), ptr), 0, i32);
      case spv::BuiltIn::InstanceIndex: return splat(invocation_field(*this, offsetof(V, instance_index), i32));
      case spv::BuiltIn::BaseVertex: return splat(invocation_field(*this, offsetof(V, base_vertex), i32));
      case spv::BuiltIn::BaseInstance: return splat(invocation_field(*this, offsetof(V, base_instance), i32));
      case spv::BuiltIn::DrawIndex: return splat(invocation_field(*this, offsetof(V, draw_index), i32));
      case spv::BuiltIn::ViewIndex: return splat(invocation_field(*this, offsetof(V, view_index), i32));
      default: return nullptr;
    }
  }
  using F = abi::FragmentInvocation;
  switch (builtin) {
    case spv::BuiltIn::FragCoord:
      return lane_array(*this, invocation_field(*this, offsetof(F, frag_coord), ptr), uint64_t{component} * width() * 4, f32);
    case spv::BuiltIn::PointCoord: {
      // Null for non-point primitives: read (0, 0) from a zero array instead.
      llvm::Value* coords = invocation_field(*this, offsetof(F, point_coord), ptr);
      auto* zeros_type = llvm::ArrayType::get(f32, 2 * width());
      auto* zeros = new llvm::GlobalVariable(*llvm_module, zeros_type, true, llvm::GlobalValue::PrivateLinkage,
                                             llvm::ConstantAggregateZero::get(zeros_type), "kiln_zero_point_coord");
      coords = b.CreateSelect(b.CreateIsNull(coords), zeros, coords);
      return lane_array(*this, coords, uint64_t{component} * width() * 4, f32);
    }
    case spv::BuiltIn::FrontFacing:
      return splat(b.CreateICmpNE(invocation_field(*this, offsetof(F, front_facing), i32), b.getInt32(0)));
    case spv::BuiltIn::PrimitiveId: return splat(invocation_field(*this, offsetof(F, primitive_id), i32));
    case spv::BuiltIn::ClipDistance:
    case spv::BuiltIn::CullDistance: {
      const uint32_t index = abi::kClipCullInputSlot * 4 + component +
                             (builtin == spv::BuiltIn::CullDistance ? fragment_interface_.clip_distance_inputs : 0);
      return lane_array(*this, invocation_field(*this, offsetof(F, inputs), ptr), uint64_t{index} * width() * 4, f32);
    }
    case spv::BuiltIn::Layer: return splat(invocation_field(*this, offsetof(F, layer), i32));
    case spv::BuiltIn::ViewIndex: return splat(invocation_field(*this, offsetof(F, view_index), i32));
    case spv::BuiltIn::ViewportIndex: return splat(invocation_field(*this, offsetof(F, viewport_index), i32));
    case spv::BuiltIn::SampleId: return splat(invocation_field(*this, offsetof(F, sample_id), i32));
    case spv::BuiltIn::SamplePosition: {
      // A shader that reads SamplePosition runs per sample, and then FragCoord.xy is the sample's
      // location (the spec's rule for sample shading), so the position is its fractional part.
      // With one sample the engine shades at the pixel centre: (0.5, 0.5), the standard location.
      llvm::Value* xy = lane_array(*this, invocation_field(*this, offsetof(F, frag_coord), ptr),
                                   uint64_t{component} * width() * 4, f32);
      return b.CreateFSub(xy, b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, xy));
    }
    case spv::BuiltIn::SampleMask:
      return lane_array(*this, invocation_field(*this, offsetof(F, sample_mask_in), ptr), 0, i32);
    case spv::BuiltIn::HelperInvocation: return b.CreateLoad(helper_slot_->getAllocatedType(), helper_slot_);
    default: return nullptr;
  }
}

Value Translator::subpass_coordinates(const Value& offset) {
  auto& b = builder_;
  llvm::Type* lane_i32 = lane_type(b.getInt32Ty());
  fragment_interface_.reads_frag_coord = true;
  Value coord;
  for (uint32_t c = 0; c < 2; ++c) {
    // FragCoord holds pixel centres (or sample positions): truncation gives the pixel.
    llvm::Value* pixel = b.CreateFPToSI(graphics_builtin(spv::BuiltIn::FragCoord, c), lane_i32);
    llvm::Value* delta = c < offset.leaves.size() ? b.CreateSExtOrTrunc(offset.leaves[c], lane_i32) : nullptr;
    coord.leaves.push_back(delta ? b.CreateAdd(pixel, delta) : pixel);
  }
  coord.leaves.push_back(graphics_builtin(spv::BuiltIn::Layer, 0));
  return coord;
}

bool Translator::graphics_prologue() {
  auto& b = builder_;
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* ptr = b.getPtrTy();
  if (tessellation()) return tessellation_prologue();
  if (geometry()) return geometry_prologue();
  std::vector<InterfaceVariable> inputs, outputs;
  if (!interface_variables(*this, true, &inputs, &error_) || !interface_variables(*this, false, &outputs, &error_)) return false;

  if (entry.model == spv::ExecutionModel::Vertex) {
    std::map<uint32_t, std::array<llvm::Value*, 4>> fetched;  // by Location
    for (const InterfaceVariable& v : inputs) {
      Value value;
      for (const InterfaceLeaf& leaf : v.leaves) {
        if (leaf.wide) {
          error_ = "64-bit vertex attributes are not supported";
          return false;
        }
        auto it = fetched.find(leaf.location);
        if (it == fetched.end()) {
          std::array<llvm::Value*, 4> components{};
          if (!fetch_attribute(*this, leaf.location, is_integer(*this, leaf.scalar), &components)) return false;
          it = fetched.emplace(leaf.location, components).first;
        }
        value.leaves.push_back(b.CreateBitCast(it->second[leaf.component], lane_type(leaf_type(leaf.scalar))));
      }
      store(pointers_.at(v.id), v.pointee, value);
    }
    return true;
  }

  // Fragment: the interface the engine needs, then the inputs and the preset outputs.
  abi::FragmentInterface& fi = fragment_interface_;
  for (const auto& [mode, args] : entry.modes) {
    switch (mode) {
      case spv::ExecutionMode::OriginLowerLeft:
        error_ = "OriginLowerLeft is not allowed in Vulkan";
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
    // SamplePosition is derived from FragCoord (graphics_builtin).
    if (builtin == spv::BuiltIn::FragCoord || builtin == spv::BuiltIn::SamplePosition) fi.reads_frag_coord = true;
    if (builtin == spv::BuiltIn::SampleMask) fi.reads_sample_mask_in = true;
    if (builtin == spv::BuiltIn::FrontFacing || builtin == spv::BuiltIn::PrimitiveId) fi.reads_primitive_builtins = true;
    if (builtin == spv::BuiltIn::ClipDistance) fi.clip_distance_inputs = std::max(1u, m.type(m.type(var.type).element).count);
    if (builtin == spv::BuiltIn::CullDistance) fi.cull_distance_inputs = std::max(1u, m.type(m.type(var.type).element).count);
  }
  if (fi.clip_distance_inputs + fi.cull_distance_inputs > abi::kMaxClipDistances) {
    error_ = "more than 8 ClipDistance + CullDistance inputs";
    return false;
  }
  // Stores can only reach memory others see when the module declares writable memory.
  bool writable_memory = std::find(m.capabilities().begin(), m.capabilities().end(),
                                   spv::Capability::PhysicalStorageBufferAddresses) != m.capabilities().end();
  for (const auto& [id, var] : m.variables()) writable_memory |= is_writable_memory(m, var);
  // Inlining has run (spirv_front), so the entry function holds every instruction.
  if (const spirv::Function* f = m.function(entry.function))
    for (const spirv::Block& block : f->blocks) {
      const spv::Op op = block.terminator.opcode;
      if (op == spv::Op::OpKill || op == spv::Op::OpTerminateInvocation) fi.can_discard = true;
      for (const spirv::Instruction& inst : block.body) {
        if (inst.opcode == spv::Op::OpDemoteToHelperInvocation || is_kill_call(m, inst)) fi.can_discard = true;
        if (writes_memory(inst.opcode, writable_memory)) fi.has_side_effects = true;
      }
    }
  llvm::Value* input_array = invocation_field(*this, offsetof(abi::FragmentInvocation, inputs), ptr);
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
        words.push_back(lane_array(*this, input_array, (uint64_t{leaf.location} * 4 + leaf.component + half) * width() * 4, i32));
      value.leaves.push_back(leaf_from_words(*this, leaf, words));
    }
    store(pointers_.at(v.id), v.pointee, value);
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
        error_ = "64-bit fragment outputs are not supported";
        return false;
      }
      switch (leaf.builtin) {
        case spv::BuiltIn::Max:
          if (leaf.index != 0) {
            if (is_dual_source_leaf(leaf, dual_source_slot_taken_)) fi.writes_dual_source = true;
            break;
          }
          if (leaf.location >= abi::kMaxColorAttachments) {
            error_ = "fragment output Location " + std::to_string(leaf.location) + " is past the last colour attachment";
            return false;
          }
          fi.output_location_mask |= 1u << leaf.location;
          fi.output_type[leaf.location] = !is_integer(*this, leaf.scalar) ? 0 : m.type(leaf.scalar).is_signed ? 1 : 2;
          break;
        case spv::BuiltIn::FragDepth:
          fi.writes_depth = true;
          // Preset to the interpolated depth, so a path that does not write it keeps that.
          preset.leaves.push_back(lane_array(*this, invocation_field(*this, offsetof(abi::FragmentInvocation, frag_depth), ptr),
                                             0, b.getFloatTy()));
          break;
        case spv::BuiltIn::SampleMask:
          fi.writes_sample_mask = true;
          preset.leaves.push_back(b.CreateBitCast(
              lane_array(*this, invocation_field(*this, offsetof(abi::FragmentInvocation, sample_mask_out), ptr), 0, i32),
              lane_type(leaf_type(leaf.scalar))));
          break;
        default:
          error_ = "fragment output built-in " + std::to_string(static_cast<unsigned>(leaf.builtin)) + " is not supported";
          return false;
      }
    }
    if (!preset.leaves.empty()) store(pointers_.at(v.id), v.pointee, preset);
  }
  return true;
}

bool Translator::graphics_epilogue() {
  auto& b = builder_;
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* ptr = b.getPtrTy();
  mask_ = entry_mask_;
  if (entry.model == spv::ExecutionModel::TessellationControl) return tess_control_epilogue();
  if (geometry()) {  // its outputs left with each EmitVertex
    b.CreateRetVoid();
    return true;
  }
  std::vector<InterfaceVariable> outputs;
  if (!interface_variables(*this, false, &outputs, &error_)) return false;
  auto store_lanes = [&](llvm::Value* base, uint64_t offset, llvm::Value* leaf) {
    b.CreateAlignedStore(as_i32(*this, leaf), b.CreateConstGEP1_64(b.getInt8Ty(), base, offset), llvm::Align(4));
  };

  // Vertex and evaluation kernels: the last pre-rasterization stage's SoA outputs.
  if (entry.model == spv::ExecutionModel::Vertex || entry.model == spv::ExecutionModel::TessellationEvaluation) {
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> slots;
    if (!vertex_output_slots(*this, outputs, &vertex_outputs_, &slots)) return false;
    const size_t outputs_field = entry.model == spv::ExecutionModel::Vertex ? offsetof(abi::VertexInvocation, outputs)
                                                                            : offsetof(abi::TessEvalInvocation, outputs);
    llvm::Value* out = invocation_field(*this, outputs_field, ptr);
    // Components no output covers read zero.
    b.CreateMemSet(out, b.getInt8(0), uint64_t{vertex_outputs_.slot_count} * 4 * width() * 4, llvm::Align(4));
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Value value = load(pointers_.at(outputs[i].id), outputs[i].pointee);
      for (size_t k = 0; k < value.leaves.size() && k < slots[i].size(); ++k) {
        const auto [slot, component] = slots[i][k];
        if (slot == kNoSlot) continue;
        const std::vector<llvm::Value*> words = leaf_words(*this, outputs[i].leaves[k], value.leaves[k]);
        for (uint32_t half = 0; half < words.size(); ++half)
          store_lanes(out, (uint64_t{slot} * 4 + component + half) * width() * 4, words[half]);
      }
    }
    b.CreateRetVoid();
    return true;
  }

  using F = abi::FragmentInvocation;
  for (const InterfaceVariable& v : outputs) {
    const Value value = load(pointers_.at(v.id), v.pointee);
    for (size_t k = 0; k < value.leaves.size() && k < v.leaves.size(); ++k) {
      const InterfaceLeaf& leaf = v.leaves[k];
      if (leaf.builtin == spv::BuiltIn::Max) {
        if (leaf.index != 0 && !is_dual_source_leaf(leaf, dual_source_slot_taken_)) continue;
        const uint64_t slot = leaf.index != 0 ? abi::kDualSourceOutputSlot : leaf.location;
        store_lanes(invocation_field(*this, offsetof(F, outputs), ptr), (slot * 4 + leaf.component) * width() * 4,
                    value.leaves[k]);
      } else if (leaf.builtin == spv::BuiltIn::FragDepth) {
        store_lanes(invocation_field(*this, offsetof(F, frag_depth), ptr), 0, value.leaves[k]);
      } else if (leaf.builtin == spv::BuiltIn::SampleMask && leaf.component == 0) {
        store_lanes(invocation_field(*this, offsetof(F, sample_mask_out), ptr), 0, value.leaves[k]);
      }
    }
  }
  llvm::Value* covered = mask_from_bits(*this, invocation_field(*this, offsetof(F, covered_mask), i32));
  llvm::Value* discarded = b.CreateLoad(discarded_slot_->getAllocatedType(), discarded_slot_);
  b.CreateRet(bits_from_mask(*this, b.CreateAnd(covered, b.CreateNot(discarded))));
  return true;
}

bool Translator::stage_instruction(const spirv::Instruction& inst, bool* handled) {
  if (geometry()) return geometry_instruction(inst, handled);
  *handled = true;
  auto& b = builder_;
  switch (inst.opcode) {
    case spv::Op::OpDemoteToHelperInvocation: {
      if (!helper_slot_) return fail(inst, "demote outside a fragment shader");
      llvm::Value* helpers = b.CreateLoad(helper_slot_->getAllocatedType(), helper_slot_);
      b.CreateStore(b.CreateOr(helpers, mask_), helper_slot_);
      note_discard();
      return true;
    }
    case spv::Op::OpFunctionCall:
      if (!is_kill_call(m, inst)) {
        *handled = false;
        return true;
      }
      // The kill ends the block's lanes here: the rest of the block and its successors get none
      // (an OpKill terminator does the same by sending no mask on).
      note_discard();
      mask_ = llvm::Constant::getNullValue(mask_->getType());
      return true;
    case spv::Op::OpIsHelperInvocationEXT:
      if (!helper_slot_) return fail(inst, "OpIsHelperInvocationEXT outside a fragment shader");
      set(inst.result, Value{{b.CreateLoad(helper_slot_->getAllocatedType(), helper_slot_)}});
      return true;
    case spv::Op::OpDPdx: case spv::Op::OpDPdy: case spv::Op::OpFwidth:
    case spv::Op::OpDPdxFine: case spv::Op::OpDPdyFine: case spv::Op::OpFwidthFine:
    case spv::Op::OpDPdxCoarse: case spv::Op::OpDPdyCoarse: case spv::Op::OpFwidthCoarse: {
      if (width() % 4 != 0) return fail(inst, "derivatives need whole 2x2 quads");
      // Fine: the difference across the lane's own row (dx) or column (dy) of its quad. Coarse:
      // the quad's top-left pair for every lane (the spec allows either; OpDPdx/OpDPdy are fine).
      const bool coarse = inst.opcode == spv::Op::OpDPdxCoarse || inst.opcode == spv::Op::OpDPdyCoarse ||
                          inst.opcode == spv::Op::OpFwidthCoarse;
      auto difference = [&](llvm::Value* v, uint32_t axis_bit) {
        std::vector<int> high, low;
        for (uint32_t i = 0; i < width(); ++i) {
          const uint32_t from = coarse ? i & ~3u : i & ~axis_bit;
          high.push_back(static_cast<int>(from | axis_bit));
          low.push_back(static_cast<int>(from));
        }
        return b.CreateFSub(b.CreateShuffleVector(v, high), b.CreateShuffleVector(v, low));
      };
      const bool x_only = inst.opcode == spv::Op::OpDPdx || inst.opcode == spv::Op::OpDPdxFine || inst.opcode == spv::Op::OpDPdxCoarse;
      const bool y_only = inst.opcode == spv::Op::OpDPdy || inst.opcode == spv::Op::OpDPdyFine || inst.opcode == spv::Op::OpDPdyCoarse;
      Value out;
      for (llvm::Value* v : get(inst.operands[0]).leaves) {
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
      set(inst.result, std::move(out));
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
bool Translator::interpolate_at(const spirv::Instruction& inst) {
  auto& b = builder_;
  const uint32_t op = inst.operands[1];
  if (entry.model != spv::ExecutionModel::Fragment) return fail(inst, "InterpolateAt* outside a fragment shader");
  const Pointer p = get_pointer(inst.operands[2]);
  std::vector<InterfaceVariable> inputs;
  if (!interface_variables(*this, true, &inputs, &error_)) return false;
  const InterfaceVariable* var = nullptr;
  for (const InterfaceVariable& v : inputs) {
    const Pointer& vp = pointers_.at(v.id);
    if (p.kind == PointerKind::Register ? vp.kind == p.kind && vp.variable == p.variable
                                        : vp.kind == PointerKind::Memory && p.kind == PointerKind::Memory && vp.lo == p.lo)
      var = &v;
  }
  if (!var) return fail(inst, "InterpolateAt* of something that is not a Location input");
  fragment_interface_.interpolates_at_positions = true;
  fragment_interface_.reads_frag_coord = true;

  llvm::Type* i8 = b.getInt8Ty();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* f32 = b.getFloatTy();
  llvm::Type* ptr = b.getPtrTy();
  using R = abi::InterpolationRecord;
  llvm::Value* input_array = invocation_field(*this, offsetof(abi::FragmentInvocation, inputs), ptr);
  llvm::Value* record = b.CreateAlignedLoad(
      ptr, b.CreateConstGEP1_64(i8, input_array, uint64_t{abi::kInterpolationInputSlot} * 4 * width() * 4), llvm::Align(4));
  auto field = [&](size_t offset) { return splat(b.CreateLoad(f32, b.CreateConstGEP1_64(i8, record, offset))); };
  auto add = [&](llvm::Value* x, llvm::Value* y) { return b.CreateFAdd(x, y); };
  auto mul = [&](llvm::Value* x, llvm::Value* y) { return b.CreateFMul(x, y); };
  llvm::Value* samples = b.CreateLoad(i32, b.CreateConstGEP1_64(i8, record, offsetof(R, samples)));
  // Coordinate c of each lane's sample `index` (< samples) within the pixel.
  auto sample_position = [&](llvm::Value* index, uint32_t c) {
    llvm::Value* element = b.CreateAdd(b.CreateShl(index, splat(b.getInt32(1))), splat(b.getInt32(c)));
    llvm::Value* base = b.CreateConstGEP1_64(i8, record, offsetof(R, sample_position));
    llvm::Value* addresses = b.CreateGEP(f32, base, element);
    return b.CreateMaskedGather(lane_type(f32), addresses, llvm::Align(4), splat(b.getTrue()));
  };

  // The target position: FragCoord holds the lane's pixel centre or sample position.
  llvm::Value* pixel[2];
  llvm::Value* target[2];
  for (uint32_t c = 0; c < 2; ++c)
    pixel[c] = b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, graphics_builtin(spv::BuiltIn::FragCoord, c));
  llvm::Value* centre = splat(llvm::ConstantFP::get(f32, 0.5));
  switch (op) {
    case GLSLstd450InterpolateAtOffset: {
      // Offsets past [minInterpolationOffset, maxInterpolationOffset] are undefined; they are used as given.
      const Value offset = get(inst.operands[3]);
      for (uint32_t c = 0; c < 2; ++c) target[c] = add(add(pixel[c], centre), b.CreateFPCast(offset.leaves.at(c), lane_type(f32)));
      break;
    }
    case GLSLstd450InterpolateAtSample: {
      // A sample number past the pixel's samples is undefined: sample 0 then.
      llvm::Value* sample = b.CreateSExtOrTrunc(get(inst.operands[3]).leaves.at(0), lane_type(i32));
      llvm::Value* index = b.CreateSelect(b.CreateICmpULT(sample, splat(samples)), sample, splat(b.getInt32(0)));
      for (uint32_t c = 0; c < 2; ++c) target[c] = add(pixel[c], sample_position(index, c));
      break;
    }
    default: {  // InterpolateAtCentroid: as the engine places centroid inputs (its first covered sample)
      llvm::Value* full = splat(b.CreateSub(b.CreateShl(b.getInt32(1), samples), b.getInt32(1)));
      llvm::Value* coverage =
          b.CreateAnd(lane_array(*this, invocation_field(*this, offsetof(abi::FragmentInvocation, sample_mask_in), ptr), 0, i32), full);
      llvm::Value* zero = splat(b.getInt32(0));
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
  llvm::Value* one = splat(llvm::ConstantFP::get(f32, 1.0));
  llvm::Value* q0 = mul(b.CreateFSub(b.CreateFSub(one, b1), b2), field(offsetof(R, inv_w)));
  llvm::Value* q1 = mul(b1, field(offsetof(R, inv_w) + 4));
  llvm::Value* q2 = mul(b2, field(offsetof(R, inv_w) + 8));
  llvm::Value* w = add(add(q0, q1), q2);
  llvm::Value* perspective =
      splat(b.CreateICmpNE(b.CreateLoad(i32, b.CreateConstGEP1_64(i8, record, offsetof(R, perspective))), b.getInt32(0)));
  llvm::Value* p1 = b.CreateSelect(perspective, b.CreateFDiv(q1, w), b1);
  llvm::Value* p2 = b.CreateSelect(perspective, b.CreateFDiv(q2, w), b2);

  const Pointer& whole = pointers_.at(var->id);
  Value value = load(whole, var->pointee);
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
    const uint32_t count = leaf_count(inst.result_type);
    for (uint32_t i = 0; i < count && p.first_leaf + i < value.leaves.size(); ++i) part.leaves.push_back(value.leaves[p.first_leaf + i]);
    set(inst.result, std::move(part));
    return true;
  }
  // Memory: the same per-lane layout as the variable, so p's offsets (dynamic ones too) apply.
  const uint32_t size = std::max(1u, spirv::type_size(m, var->pointee));
  auto* storage = alloca_builder_.CreateAlloca(llvm::ArrayType::get(i8, uint64_t{size} * width()));
  storage->setAlignment(llvm::Align(64));
  llvm::Value* base = splat(b.CreatePtrToInt(storage, b.getInt64Ty()));
  Pointer shadow = whole;
  shadow.addr = shadow.lo = base;
  shadow.hi = b.CreateAdd(base, splat(b.getInt64(size)));
  store(shadow, var->pointee, value);
  Pointer at = p;
  at.addr = b.CreateAdd(base, b.CreateSub(p.addr, p.lo));
  at.lo = shadow.lo;
  at.hi = shadow.hi;
  set(inst.result, load(at, inst.result_type));
  return true;
}

std::unique_ptr<llvm::Module> translate_vertex(const spirv::Module& module, const spirv::EntryPoint& entry,
                                               const TranslateOptions& options, llvm::LLVMContext& context,
                                               const std::string& symbol, abi::VertexOutputLayout* outputs,
                                               std::string* error) {
  if (entry.model != spv::ExecutionModel::Vertex) {
    *error = "not a vertex entry point";
    return nullptr;
  }
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (ir) *outputs = t.vertex_outputs_;
  return ir;
}

std::unique_ptr<llvm::Module> translate_fragment(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                 const TranslateOptions& options, llvm::LLVMContext& context,
                                                 const std::string& symbol, abi::FragmentInterface* interface,
                                                 std::string* error) {
  if (entry.model != spv::ExecutionModel::Fragment) {
    *error = "not a fragment entry point";
    return nullptr;
  }
  if (options.simd_width % 4 != 0) {
    *error = "fragment kernels need a SIMD width that is a multiple of 4";
    return nullptr;
  }
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (ir) *interface = t.fragment_interface_;
  return ir;
}

}  // namespace kiln::compiler
