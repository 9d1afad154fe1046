// Variables, descriptors, access chains, loads and stores, atomics, barriers and built-ins.
//
// Every access computes per-lane addresses and checks them against the bounds of the object the
// pointer came from (a buffer's descriptor range, a variable's size): out-of-bounds lanes read
// zero and do not write, so a bad index never touches memory outside its resource.
#include <algorithm>
#include <functional>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>

#include <unordered_set>

#include "common/abi/kernel_abi.h"
#include "compiler/stage_emitter.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

// Per-lane private memory: Function/Private variables, and graphics stages' Input/Output
// variables (their stage emitters fill and drain them, compiler/emit_graphics.h).
bool is_private_class(spv::StorageClass c) {
  return c == spv::StorageClass::Function || c == spv::StorageClass::Private || c == spv::StorageClass::Input ||
         c == spv::StorageClass::Output;
}

bool is_buffer_class(spv::StorageClass c) {
  return c == spv::StorageClass::StorageBuffer || c == spv::StorageClass::Uniform ||
         c == spv::StorageClass::PushConstant || c == spv::StorageClass::PhysicalStorageBuffer;
}

// Scalar leaves of `type`, saturating: a variable is only split into per-leaf registers when this
// is small, so a huge array is never expanded leaf by leaf.
uint64_t scalar_leaf_count(const spirv::Module& m, Id type) {
  const spirv::Type& t = m.type(type);
  switch (t.kind) {
    case spirv::TypeKind::Vector:
    case spirv::TypeKind::Matrix:
    case spirv::TypeKind::Array: return std::min<uint64_t>(uint64_t{t.count} * scalar_leaf_count(m, t.element), UINT32_MAX);
    case spirv::TypeKind::Struct: {
      uint64_t n = 0;
      for (Id member : t.members) n = std::min<uint64_t>(n + scalar_leaf_count(m, member), UINT32_MAX);
      return n;
    }
    default: return 1;
  }
}

// Function/Private variables with more leaves than this live in memory even when only constant
// indices reach them (one register slot per leaf would make a huge LLVM function).
constexpr uint64_t kMaxRegisterLeaves = 1024;
}  // namespace

// A pointer that travelled as a value (OpSelect, OpPhi, a Function variable, a load of a
// PhysicalStorageBuffer pointer, OpConvertUToPtr): leaves [addr, lo, hi], or [addr] when physical.
Pointer Translator::pointer_from_value(Id id) {
  const spirv::Type& type = m.type(type_of(id));
  if (type.kind != spirv::TypeKind::Pointer) return Pointer{};
  const Value v = get(id);
  Pointer p;
  p.pointee = type.element;
  if (v.leaves.empty()) return p;  // addr stays null: users report a pointer they cannot follow
  p.addr = p.lo = p.hi = v.leaves[0];
  p.explicit_layout = is_buffer_class(type.storage_class);
  p.lanes_interleaved = is_private_class(type.storage_class);
  if (type.storage_class == spv::StorageClass::PhysicalStorageBuffer) {
    p.bounded = false;
  } else if (v.leaves.size() >= 3) {
    p.lo = v.leaves[1];
    p.hi = v.leaves[2];
  }
  return p;
}

// The memory of bound set `set` (null when unbound).
static llvm::Value* set_memory(Translator& t, uint32_t set) {
  auto& b = t.b();
  return b.CreateLoad(b.getPtrTy(), b.CreateConstGEP1_64(b.getInt8Ty(), t.resources,
                                                         offsetof(abi::ResourceContext, descriptor_sets) + set * 8));
}

// Array elements (bytes for an inline uniform block) the binding has at run time: its layout's
// count, or the bound set's variable descriptor count. An i64.
static llvm::Value* binding_elements(Translator& t, uint32_t set, const BindingLocation& loc) {
  auto& b = t.b();
  if (!loc.variable_count) return b.getInt64(loc.array_size);
  llvm::Value* count = b.CreateLoad(b.getInt32Ty(), b.CreateConstGEP1_64(b.getInt8Ty(), t.resources,
                                                                          offsetof(abi::ResourceContext, variable_counts) + set * 4));
  return b.CreateZExt(count, b.getInt64Ty());
}

// ORs `fault` (an abi::kFault* bit) into the dispatch's fault word when any lane of `lanes` is set;
// the engine logs it after the dispatch. Branches around the atomic so the common case costs a test.
static void report_fault(Translator& t, llvm::Value* lanes, uint32_t fault) {
  auto& b = t.b();
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  auto* report = llvm::BasicBlock::Create(t.ctx, "report_fault", fn);
  auto* done = llvm::BasicBlock::Create(t.ctx, "fault_reported", fn);
  b.CreateCondBr(t.any_lane(lanes), report, done);
  b.SetInsertPoint(report);
  b.CreateAtomicRMW(llvm::AtomicRMWInst::Or, t.faults, b.getInt32(fault), llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic);
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

// The address of descriptor `element`'s record (per lane: lanes may index different descriptors)
// of a binding: in the set's records, or in the dynamic-buffer array for dynamic bindings.
// Unbound sets and elements past the binding's end give a null (all-zero) record, the latter
// reported as kFaultDescriptorIndex.
llvm::Value* Translator::descriptor_record(uint32_t set, const BindingLocation& loc, llvm::Value* element) {
  Translator& t = *this;
  auto& b = t.b();
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* element64 = b.CreateZExtOrTrunc(element, t.lane_type(i64));
  llvm::Value* null_record = t.splat(b.CreatePtrToInt(t.zero_record(), i64));
  llvm::Value* record;  // <W x i64> address of each lane's record
  if (loc.dynamic) {
    llvm::Value* base = b.CreatePtrToInt(
        b.CreateConstGEP1_64(b.getInt8Ty(), t.resources, offsetof(abi::ResourceContext, dynamic_buffers) +
                                                                 loc.dynamic_index * sizeof(abi::BufferDescriptor)),
        i64);
    record = b.CreateAdd(t.splat(base), b.CreateMul(element64, t.splat(b.getInt64(sizeof(abi::BufferDescriptor)))));
  } else {
    llvm::Value* memory = set_memory(t, set);
    llvm::Value* base = b.CreatePtrToInt(b.CreateConstGEP1_64(b.getInt8Ty(), memory, loc.offset), i64);
    record = b.CreateAdd(t.splat(base), b.CreateMul(element64, t.splat(b.getInt64(abi::kDescriptorRecordSize))));
    record = b.CreateSelect(t.splat(b.CreateIsNull(memory)), null_record, record);
  }
  // A constant index inside a fixed-size array needs no check (validation already rejects others).
  auto* constant = llvm::dyn_cast<llvm::Constant>(element64);
  llvm::Constant* first = constant ? constant->getSplatValue() : nullptr;
  const bool known_in_range = !loc.variable_count && first && llvm::isa<llvm::ConstantInt>(first) &&
                              llvm::cast<llvm::ConstantInt>(first)->getZExtValue() < loc.array_size;
  if (!known_in_range) {
    llvm::Value* in_range = b.CreateICmpULT(element64, t.splat(binding_elements(t, set, loc)));
    report_fault(t, b.CreateAnd(t.mask(), b.CreateNot(in_range)), abi::kFaultDescriptorIndex);
    record = b.CreateSelect(in_range, record, null_record);
  }
  return record;
}

// Loads (address, range) of buffer descriptor `element` of a binding (see descriptor_record).
static void load_buffer_descriptor(Translator& t, uint32_t set, const BindingLocation& loc, llvm::Value* element,
                                   llvm::Value** address, llvm::Value** range) {
  auto& b = t.b();
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* record = t.descriptor_record(set, loc, element);
  if (llvm::Value* uniform = t.uniform_scalar(record)) {  // one descriptor for all lanes: two scalar loads
    llvm::Value* at = b.CreateIntToPtr(uniform, b.getPtrTy());
    *address = t.splat(b.CreateLoad(i64, at));
    *range = t.splat(b.CreateLoad(i64, b.CreateConstGEP1_64(b.getInt8Ty(), at, 8)));
    return;
  }
  llvm::Type* ptrs = t.lane_type(b.getPtrTy());
  llvm::Value* all = llvm::Constant::getAllOnesValue(t.lane_type(b.getInt1Ty()));
  llvm::Value* zero = llvm::Constant::getNullValue(t.lane_type(i64));
  *address = b.CreateMaskedGather(t.lane_type(i64), b.CreateIntToPtr(record, ptrs), llvm::Align(8), all, zero);
  *range = b.CreateMaskedGather(t.lane_type(i64), b.CreateIntToPtr(b.CreateAdd(record, t.splat(b.getInt64(8))), ptrs),
                                llvm::Align(8), all, zero);
}

// The bytes of an inline uniform block: in its set's memory, `binding_elements` long; an unbound
// set gives an empty range, so every access reads zero.
static void inline_uniform_block(Translator& t, uint32_t set, const BindingLocation& loc, llvm::Value** address,
                                 llvm::Value** range) {
  auto& b = t.b();
  llvm::Value* memory = set_memory(t, set);
  *address = t.splat(b.CreatePtrToInt(b.CreateConstGEP1_64(b.getInt8Ty(), memory, loc.offset), b.getInt64Ty()));
  *range = t.splat(b.CreateSelect(b.CreateIsNull(memory), b.getInt64(0), binding_elements(t, set, loc)));
}

static Pointer buffer_pointer(Translator& t, Id pointee, llvm::Value* address, llvm::Value* range) {
  Pointer p;
  p.kind = PointerKind::Memory;
  p.pointee = pointee;
  p.addr = address;
  p.lo = address;
  p.hi = t.b().CreateAdd(address, range);
  p.explicit_layout = true;
  return p;
}

// Function/Private variables whose every use is a load, a store, or an access chain with constant
// indices: those live as SSA leaves (register slots) instead of per-lane memory, which turns
// gathers/scatters into plain register moves after mem2reg. Returns the variables that need memory.
static std::unordered_set<Id> variables_needing_memory(const spirv::Module& m, const spirv::Function* f) {
  std::unordered_set<Id> needs_memory;
  if (!f) return needs_memory;
  std::unordered_map<Id, Id> root;  // pointer id → the variable it points into
  for (const auto& [id, var] : m.variables())
    if (is_private_class(var.storage_class)) root[id] = id;
  for (const spirv::Block& block : f->blocks) {
    for (const spirv::Instruction& inst : block.body) {
      const auto& ops = inst.operands;
      switch (inst.opcode) {
        case spv::Op::OpVariable:
          break;
        case spv::Op::OpAccessChain:
        case spv::Op::OpInBoundsAccessChain:
          if (auto r = root.find(ops[0]); r != root.end()) {
            root[inst.result] = r->second;
            for (size_t i = 1; i < ops.size(); ++i)
              if (!m.constant_uint(ops[i])) needs_memory.insert(r->second);
          }
          break;
        case spv::Op::OpLoad:
          break;
        case spv::Op::OpStore:
          if (auto r = root.find(ops[1]); r != root.end()) needs_memory.insert(r->second);  // a pointer stored
          break;
        case spv::Op::OpCopyMemory:
          break;
        default:
          for (uint32_t word : ops)
            if (auto r = root.find(word); r != root.end()) needs_memory.insert(r->second);
          break;
      }
    }
    for (uint32_t word : block.terminator.operands)
      if (auto r = root.find(word); r != root.end()) needs_memory.insert(r->second);
  }
  return needs_memory;
}

// Whether `var` or a member of its block is Coherent or Volatile (GLSL's `coherent`/`volatile`
// decorate the block's members).
static bool is_coherent(const spirv::Module& m, Id id, const spirv::Variable& var) {
  const spirv::Decorations& d = m.decorations(id);
  if (d.coherent || d.volatile_) return true;
  Id block = m.type(var.type).element;
  while (m.type(block).kind == spirv::TypeKind::Array || m.type(block).kind == spirv::TypeKind::RuntimeArray)
    block = m.type(block).element;
  const spirv::Type& t = m.type(block);
  if (t.kind != spirv::TypeKind::Struct) return false;
  for (uint32_t i = 0; i < t.members.size(); ++i) {
    const spirv::Decorations& md = m.member_decorations(block, i);
    if (md.coherent || md.volatile_) return true;
  }
  return false;
}

Pointer Translator::region_pointer(llvm::Value* memory, uint32_t offset, uint32_t size, Id pointee) {
  auto& b = builder_;
  llvm::Value* base = splat(b.CreatePtrToInt(b.CreateConstGEP1_64(b.getInt8Ty(), memory, offset), b.getInt64Ty()));
  Pointer p;
  p.pointee = pointee;
  p.addr = p.lo = base;
  p.hi = b.CreateAdd(base, splat(b.getInt64(size)));
  return p;
}

bool Translator::setup_variables() {
  auto& b = builder_;
  llvm::Type* i64 = b.getInt64Ty();
  auto zero_value = [&](Id type) {
    std::vector<Id> scalars;
    scalar_types(type, &scalars);
    Value zero;
    for (Id scalar : scalars) zero.leaves.push_back(llvm::Constant::getNullValue(lane_type(leaf_type(scalar))));
    return zero;
  };
  const std::unordered_set<Id> needs_memory = variables_needing_memory(m, m.function(entry.function));
  // Function/Private variables (and graphics Input/Output variables): per-lane copies, in
  // registers when only constant indices reach them. Outputs start at zero, so an output the
  // shader never writes still has a defined value.
  auto private_variable = [&](Id id, const spirv::Variable& var, Id pointee) -> bool {
    const bool function_or_private =
        var.storage_class == spv::StorageClass::Function || var.storage_class == spv::StorageClass::Private;
    if (!needs_memory.count(id) && (!function_or_private || scalar_leaf_count(m, pointee) <= kMaxRegisterLeaves)) {
      // Register variable: one slot per leaf, written with lane masks.
      std::vector<Id> scalars;
      scalar_types(pointee, &scalars);
      Value initial = var.initializer ? get(var.initializer) : Value{};
      if (var.storage_class == spv::StorageClass::Output && !var.initializer) initial = zero_value(pointee);
      auto& slots = register_slots_[id];
      for (size_t i = 0; i < scalars.size(); ++i) {
        llvm::Type* t = lane_type(leaf_type(scalars[i]));
        auto* slot = alloca_builder_.CreateAlloca(t);
        private_bytes_ += std::max<uint64_t>(1, t->getPrimitiveSizeInBits() / 8);
        b.CreateStore(i < initial.leaves.size() ? initial.leaves[i] : undefined_leaf(scalars[i]), slot);
        slots.push_back(slot);
      }
      Pointer p;
      p.kind = PointerKind::Register;
      p.pointee = pointee;
      p.variable = id;
      pointers_[id] = p;
      return true;
    }
    // W private copies, interleaved element by element (Pointer::lanes_interleaved).
    const uint32_t size = std::max(1u, spirv::type_size(m, pointee));
    private_bytes_ += uint64_t{size} * width();
    if (private_bytes_ > abi::kMaxPrivateBytesOnThreadStack) return private_memory_too_large();
    auto* storage = alloca_builder_.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), uint64_t{size} * width()));
    storage->setAlignment(llvm::Align(64));
    llvm::Value* base = splat(b.CreatePtrToInt(storage, i64));
    Pointer p;
    p.pointee = pointee;
    p.lanes_interleaved = true;
    p.addr = p.lo = base;
    p.hi = b.CreateAdd(base, splat(b.getInt64(size)));
    pointers_[id] = p;
    if (var.initializer || var.storage_class == spv::StorageClass::Output) {
      llvm::Value* saved = mask_;
      mask_ = llvm::Constant::getAllOnesValue(lane_type(b.getInt1Ty()));
      store(p, pointee, var.initializer ? get(var.initializer) : zero_value(pointee));
      mask_ = saved;
    }
    return true;
  };
  auto add_variable = [&](Id id, const spirv::Variable& var) -> bool {
    const spirv::Type& ptr_type = m.type(var.type);
    const Id pointee = ptr_type.element;
    const spirv::Decorations& d = m.decorations(id);
    switch (var.storage_class) {
      case spv::StorageClass::StorageBuffer:
      case spv::StorageClass::Uniform: {
        const uint32_t set = d.set.value_or(0), binding = d.binding.value_or(0);
        auto loc = options_.bindings ? options_.bindings(set, binding) : std::nullopt;
        if (!loc) {
          error_ = "descriptor set " + std::to_string(set) + " binding " + std::to_string(binding) +
                   " is not in the pipeline layout";
          return false;
        }
        const spirv::Type& pt = m.type(pointee);
        if (pt.kind == spirv::TypeKind::Array || pt.kind == spirv::TypeKind::RuntimeArray) {
          Pointer p;
          p.kind = PointerKind::DescriptorArray;
          p.pointee = pointee;
          p.set = set;
          p.binding = binding;
          p.variable = id;
          pointers_[id] = p;
          return true;
        }
        llvm::Value *address, *range;
        if (loc->inline_uniform_block) {
          inline_uniform_block(*this, set, *loc, &address, &range);
        } else {
          load_buffer_descriptor(*this, set, *loc, splat(b.getInt32(0)), &address, &range);
        }
        pointers_[id] = buffer_pointer(*this, pointee, address, range);
        return true;
      }
      case spv::StorageClass::PushConstant: {
        llvm::Value* base = b.CreatePtrToInt(
            b.CreateConstGEP1_64(b.getInt8Ty(), resources, offsetof(abi::ResourceContext, push_constants)), i64);
        pointers_[id] = buffer_pointer(*this, pointee, splat(base), splat(b.getInt64(abi::kMaxPushConstantBytes)));
        return true;
      }
      case spv::StorageClass::Private:
      case spv::StorageClass::Function:
        return private_variable(id, var, pointee);
      case spv::StorageClass::Input:
      case spv::StorageClass::Output:
      case spv::StorageClass::Workgroup:
      case spv::StorageClass::TaskPayloadWorkgroupEXT: {
        // Where these live is the stage's decision (StageEmitter::declare_variable).
        bool per_lane = false;
        if (!stage_->declare_variable(id, var, pointee, &per_lane)) return false;
        return !per_lane || private_variable(id, var, pointee);
      }
      case spv::StorageClass::UniformConstant:
        return image_variable(id, pointee, d.set.value_or(0), d.binding.value_or(0));
      default:
        error_ = "unsupported storage class " + std::to_string(static_cast<unsigned>(var.storage_class));
        return false;
    }
  };
  const spirv::Function* f = m.function(entry.function);
  std::unordered_set<Id> declared;
  // A variable may be initialised with another module-scope variable's pointer (variable
  // pointers), so that one is declared first; the map itself has no declaration order.
  std::function<bool(Id, const spirv::Variable&)> declare = [&](Id id, const spirv::Variable& var) {
    if (!declared.insert(id).second) return true;
    if (auto init = m.variables().find(var.initializer); var.initializer && init != m.variables().end())
      if (!declare(init->first, init->second)) return false;
    bool local = false;
    if (f && !f->blocks.empty())
      for (const spirv::Instruction& inst : f->blocks[0].body)
        if (inst.opcode == spv::Op::OpVariable && inst.result == id) local = true;
    if (var.storage_class == spv::StorageClass::Function && !local) return true;  // another function's
    if (!add_variable(id, var)) return false;
    if (auto p = pointers_.find(id); p != pointers_.end()) p->second.coherent = is_coherent(m, id, var);
    return true;
  };
  for (const auto& [id, var] : m.variables())
    if (!declare(id, var)) return false;
  return true;
}

// Calls `leaf(address, bounds_ok, scalar_type)` for every scalar of `type` stored at `p`.
template <typename Leaf>
static void for_each_leaf(Translator& t, const Pointer& p, Id type, llvm::Value* addr, Leaf&& leaf) {
  auto& b = t.b();
  const spirv::Module& m = t.m;
  const spirv::Type& ty = m.type(type);
  auto at = [&](llvm::Value* base, uint64_t offset) { return offset ? b.CreateAdd(base, t.splat(b.getInt64(offset))) : base; };
  switch (ty.kind) {
    case spirv::TypeKind::Vector: {
      const uint32_t scalar = spirv::type_size(m, ty.element);
      const uint32_t stride = p.component_stride ? p.component_stride : scalar;
      for (uint32_t i = 0; i < ty.count; ++i) for_each_leaf(t, Pointer{}, ty.element, at(addr, uint64_t{i} * stride), leaf);
      return;
    }
    case spirv::TypeKind::Matrix: {
      const spirv::Type& column = m.type(ty.element);
      const uint32_t scalar = spirv::type_size(m, column.element);
      const uint32_t matrix_stride = p.matrix_stride ? p.matrix_stride : spirv::type_size(m, ty.element);
      for (uint32_t c = 0; c < ty.count; ++c)
        for (uint32_t r = 0; r < column.count; ++r) {
          const uint64_t offset = p.row_major ? uint64_t{c} * scalar + uint64_t{r} * matrix_stride
                                              : uint64_t{c} * matrix_stride + uint64_t{r} * scalar;
          for_each_leaf(t, Pointer{}, column.element, at(addr, offset), leaf);
        }
      return;
    }
    case spirv::TypeKind::Array: {  // the elements keep the member's matrix layout (p)
      const uint32_t stride = spirv::array_stride(m, type);
      for (uint32_t i = 0; i < ty.count; ++i) for_each_leaf(t, p, ty.element, at(addr, uint64_t{i} * stride), leaf);
      return;
    }
    case spirv::TypeKind::Struct: {
      for (uint32_t i = 0; i < ty.members.size(); ++i) {
        Pointer member;
        if (i < ty.member_matrix_strides.size()) member.matrix_stride = ty.member_matrix_strides[i];
        if (i < ty.member_row_major.size()) member.row_major = ty.member_row_major[i];
        for_each_leaf(t, member, ty.members[i], at(addr, spirv::member_offset(m, type, i)), leaf);
      }
      return;
    }
    case spirv::TypeKind::Pointer:
      if (ty.storage_class == spv::StorageClass::PhysicalStorageBuffer) {
        leaf(addr, type);
      } else {  // a logical pointer in Function/Private memory: its leaves addr, lo, hi
        for (uint32_t i = 0; i < 3; ++i) leaf(at(addr, uint64_t{i} * 8), type);
      }
      return;
    default:
      leaf(addr, type);
  }
}

// Whether [addr, addr + size) lies in [lo, hi). `end >= addr` rejects an access whose end wraps
// past 2^64: with a null descriptor (lo = hi = 0) element -1 is at 2^64 - size, and its end, 0,
// would otherwise pass `end <= hi`.
static llvm::Value* in_bounds(Translator& t, const Pointer& p, llvm::Value* addr, uint32_t size) {
  auto& b = t.b();
  llvm::Value* end = b.CreateAdd(addr, t.splat(b.getInt64(size)));
  return b.CreateAnd(b.CreateAnd(b.CreateICmpUGE(addr, p.lo), b.CreateICmpULE(end, p.hi)), b.CreateICmpUGE(end, addr));
}

llvm::Value* Translator::physical_address(const Pointer& p, llvm::Value* addr, uint32_t scalar_size) {
  if (!p.lanes_interleaved) return addr;
  auto& b = builder_;
  llvm::Type* i64_lanes = lane_type(b.getInt64Ty());
  llvm::Value* element = b.CreateMul(b.CreateSub(addr, p.lo), splat(b.getInt64(width())));
  llvm::Value* lane = b.CreateMul(b.CreateZExt(lane_index(), i64_lanes), splat(b.getInt64(scalar_size)));
  return b.CreateAdd(p.lo, b.CreateAdd(element, lane));
}

llvm::Value* Translator::lanes_in_bounds(const Pointer& p, llvm::Value* addr, uint32_t size) {
  if (!p.bounded) return mask_;  // PhysicalStorageBuffer: the application owns the address
  llvm::Value* inside = in_bounds(*this, p, addr, size);
  if (reports(abi::kShaderFaultBufferBounds)) note_out_of_bounds(builder_.CreateAnd(mask_, builder_.CreateNot(inside)), p);
  return builder_.CreateAnd(mask_, inside);
}

// Loads (store_value == nullptr) or stores one scalar per lane at per-lane addresses, for the
// lanes in `lanes`. When the lanes' addresses are consecutive (a[gl_GlobalInvocationID.x] and
// the like — the common case) one masked vector load/store replaces the gather/scatter.
llvm::Value* access_lanes(Translator& t, llvm::Value* addr, llvm::Value* lanes, llvm::Type* scalar, uint32_t size,
                          llvm::Value* store_value) {
  auto& b = t.b();
  llvm::Type* vec = t.lane_type(scalar);
  const llvm::Align align(std::min(size, 8u));
  llvm::Value* first = b.CreateExtractElement(addr, uint64_t{0});
  llvm::Value* expected = b.CreateAdd(t.splat(first), b.CreateMul(b.CreateZExt(t.lane_index(), addr->getType()),
                                                                   t.splat(b.getInt64(size))));
  llvm::Value* consecutive = b.CreateAndReduce(b.CreateICmpEQ(addr, expected));
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  auto* dense = llvm::BasicBlock::Create(t.ctx, "dense", fn);
  auto* sparse = llvm::BasicBlock::Create(t.ctx, "sparse", fn);
  auto* join = llvm::BasicBlock::Create(t.ctx, "access_done", fn);
  b.CreateCondBr(consecutive, dense, sparse);
  llvm::Value* zero = llvm::Constant::getNullValue(vec);
  b.SetInsertPoint(dense);
  llvm::Value* dense_value = nullptr;
  llvm::Value* base = b.CreateIntToPtr(first, b.getPtrTy());
  if (store_value) b.CreateMaskedStore(store_value, base, align, lanes);
  else dense_value = b.CreateMaskedLoad(vec, base, align, lanes, zero);
  b.CreateBr(join);
  b.SetInsertPoint(sparse);
  llvm::Value* sparse_value = nullptr;
  llvm::Value* pointers = b.CreateIntToPtr(addr, t.lane_type(b.getPtrTy()));
  if (store_value) b.CreateMaskedScatter(store_value, pointers, align, lanes);
  else sparse_value = b.CreateMaskedGather(vec, pointers, align, lanes, zero);
  b.CreateBr(join);
  b.SetInsertPoint(join);
  if (store_value) return nullptr;
  auto* phi = b.CreatePHI(vec, 2);
  phi->addIncoming(dense_value, dense);
  phi->addIncoming(sparse_value, sparse);
  return phi;
}

// A load whose address and bounds check are the same in every lane (push constants, uniform
// buffer members at constant offsets, descriptor records): one scalar load, splatted, instead
// of a gather. When no lane is active or the access is out of bounds it reads the zero record,
// so it never touches memory outside the object. Lanes outside the mask get the value too, which
// nothing observes. nullptr when the access is not provably uniform.
static llvm::Value* uniform_load(Translator& t, const Pointer& p, llvm::Value* addr, llvm::Type* scalar, uint32_t size) {
  if (p.lanes_interleaved || size > abi::kDescriptorRecordSize) return nullptr;  // per-lane copies
  auto& b = t.b();
  llvm::Value* address = t.uniform_scalar(addr);
  if (!address) return nullptr;
  llvm::Value* valid = t.any_lane(t.mask());
  if (p.bounded) {
    llvm::Value* bounds = t.uniform_scalar(in_bounds(t, p, addr, size));
    if (!bounds) return nullptr;
    valid = b.CreateAnd(valid, bounds);
    if (t.reports(abi::kShaderFaultBufferBounds)) t.note_out_of_bounds(b.CreateAnd(t.mask(), t.splat(b.CreateNot(bounds))), p);
  }
  llvm::Value* at = b.CreateSelect(valid, b.CreateIntToPtr(address, b.getPtrTy()), t.zero_record());
  return t.splat(b.CreateAlignedLoad(scalar, at, llvm::Align(std::min(size, 8u))));
}

llvm::Value* Translator::builtin_value(spv::BuiltIn builtin, uint32_t component) {
  // A Kiln device group holds one physical device, so DeviceIndex is 0 in every stage.
  if (builtin == spv::BuiltIn::DeviceIndex) return splat(builder_.getInt32(0));
  if (llvm::Value* v = stage_->builtin(builtin, component)) return v;
  return subgroup_builtin(builtin, component);
}

Value Translator::load(const Pointer& p, Id type) {
  Value out;
  auto& b = builder_;
  if (p.kind == PointerKind::Image) {  // an image's value is its record's address
    if (m.type(type).sampled_image) return Value{{p.addr, p.addr}};  // combined: image and sampler in one record
    return Value{{p.addr}};
  }
  if (p.kind == PointerKind::Register) {
    const auto& slots = register_slots_[p.variable];
    const uint32_t count = leaf_count(type);
    for (uint32_t i = 0; i < count && p.first_leaf + i < slots.size(); ++i) {
      llvm::AllocaInst* slot = slots[p.first_leaf + i];
      out.leaves.push_back(b.CreateLoad(slot->getAllocatedType(), slot));
    }
    if (out.leaves.size() < count) {  // a constant index past the array's end: undefined, read as 0
      std::vector<Id> scalars;
      scalar_types(type, &scalars);
      for (size_t i = out.leaves.size(); i < count && i < scalars.size(); ++i)
        out.leaves.push_back(llvm::Constant::getNullValue(lane_type(leaf_type(scalars[i]))));
    }
    return out;
  }
  if (p.kind == PointerKind::Builtin) {
    const uint32_t n = p.component >= 0 ? 1 : std::max(1u, m.type(type).count);
    for (uint32_t c = 0; c < n; ++c) {
      llvm::Value* v = builtin_value(p.builtin, p.component >= 0 ? p.component : c);
      if (!v) return Value{};
      out.leaves.push_back(v);
    }
    return out;
  }
  for_each_leaf(*this, p, type, p.addr, [&](llvm::Value* addr, Id scalar) {
    const spirv::Type& st = m.type(scalar);
    const bool is_bool = st.kind == spirv::TypeKind::Bool;
    llvm::Type* memory_type = is_bool ? b.getInt32Ty() : leaf_type(scalar);
    const uint32_t size = is_bool ? 4 : spirv::type_size(m, scalar);
    llvm::Value* v = uniform_load(*this, p, addr, memory_type, size);
    if (!v) v = access_lanes(*this, physical_address(p, addr, size), lanes_in_bounds(p, addr, size), memory_type, size, nullptr);
    if (reports(abi::kShaderFaultPoisonRead)) note_poison_read(p, v);
    if (is_bool) v = b.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    out.leaves.push_back(v);
  });
  return out;
}

void Translator::store(const Pointer& p, Id type, const Value& value) {
  auto& b = builder_;
  if (p.kind == PointerKind::Register) {
    // Only active lanes change their copy of the variable.
    const auto& slots = register_slots_[p.variable];
    for (size_t i = 0; i < value.leaves.size() && p.first_leaf + i < slots.size(); ++i) {
      llvm::AllocaInst* slot = slots[p.first_leaf + i];
      llvm::Value* old = b.CreateLoad(slot->getAllocatedType(), slot);
      b.CreateStore(b.CreateSelect(mask_, value.leaves[i], old), slot);
    }
    return;
  }
  size_t next = 0;
  for_each_leaf(*this, p, type, p.addr, [&](llvm::Value* addr, Id scalar) {
    if (next >= value.leaves.size()) return;
    llvm::Value* v = value.leaves[next++];
    const bool is_bool = m.type(scalar).kind == spirv::TypeKind::Bool;
    if (is_bool) v = b.CreateZExt(v, lane_type(b.getInt32Ty()));
    const uint32_t size = is_bool ? 4 : spirv::type_size(m, scalar);
    llvm::Value* lanes = lanes_in_bounds(p, addr, size);
    if (!p.lanes_interleaved) lanes = stage_->without_helpers(lanes);  // shared memory: helpers never write it
    access_lanes(*this, physical_address(p, addr, size), lanes, v->getType()->getScalarType(), size, v);
  });
}

// Applies one access-chain index to `p`.
static bool step(Translator& t, Pointer& p, Id index_id, const spirv::Instruction& inst) {
  auto& b = t.b();
  const spirv::Module& m = t.m;
  llvm::Type* i64 = b.getInt64Ty();
  const spirv::Type& ty = m.type(p.pointee);
  auto index_vector = [&]() {
    llvm::Value* v = t.get(index_id).leaves.at(0);
    return b.CreateSExtOrTrunc(v, t.lane_type(i64));
  };
  auto constant_index = [&]() -> std::optional<uint64_t> { return m.constant_uint(index_id); };

  if (p.kind == PointerKind::DescriptorArray && (t.m.type(ty.element).kind == spirv::TypeKind::Image ||
                                                 t.m.type(ty.element).kind == spirv::TypeKind::Sampler)) {
    auto loc = t.options_.bindings(p.set, p.binding);
    p.kind = PointerKind::Image;
    p.addr = t.descriptor_record(p.set, *loc, t.get(index_id).leaves.at(0));
    p.pointee = ty.element;
    return true;
  }
  if (p.kind == PointerKind::DescriptorArray) {
    auto loc = t.options_.bindings(p.set, p.binding);
    llvm::Value *address, *range;
    load_buffer_descriptor(t, p.set, *loc, t.get(index_id).leaves.at(0), &address, &range);
    const bool coherent = p.coherent;
    p = buffer_pointer(t, ty.element, address, range);
    p.coherent = coherent;
    return true;
  }
  if (p.kind == PointerKind::Register) {
    auto c = constant_index();
    if (!c) return t.fail(inst, "dynamic index into a register variable");  // excluded by the use scan
    p.first_leaf += t.leaf_offset(p.pointee, static_cast<uint32_t>(*c));
    p.pointee = t.element_type(p.pointee, static_cast<uint32_t>(*c));
    return true;
  }
  if (p.kind == PointerKind::Builtin) {
    auto c = constant_index();
    if (c) {
      p.component = static_cast<int>(*c);
      p.pointee = ty.element;
      return true;
    }
    return t.fail(inst, "dynamic index into a built-in");
  }
  switch (ty.kind) {
    case spirv::TypeKind::Struct: {
      auto c = constant_index();
      if (!c || *c >= ty.members.size()) return t.fail(inst, "struct index is not a valid constant");
      const uint32_t member = static_cast<uint32_t>(*c);
      p.addr = b.CreateAdd(p.addr, t.splat(b.getInt64(spirv::member_offset(m, p.pointee, member))));
      p.matrix_stride = member < ty.member_matrix_strides.size() ? ty.member_matrix_strides[member] : 0;
      p.row_major = member < ty.member_row_major.size() && ty.member_row_major[member];
      p.component_stride = 0;
      p.pointee = ty.members[member];
      return true;
    }
    case spirv::TypeKind::Array:
    case spirv::TypeKind::RuntimeArray: {
      const uint32_t stride = spirv::array_stride(m, p.pointee);
      p.addr = b.CreateAdd(p.addr, b.CreateMul(index_vector(), t.splat(b.getInt64(stride))));
      p.pointee = ty.element;
      // A member's MatrixStride/RowMajor apply to the matrices of an array member too: keep them.
      return true;
    }
    case spirv::TypeKind::Matrix: {
      const uint32_t scalar = spirv::type_size(m, m.type(ty.element).element);
      const uint32_t matrix_stride = p.matrix_stride ? p.matrix_stride : spirv::type_size(m, ty.element);
      if (p.row_major) {
        p.addr = b.CreateAdd(p.addr, b.CreateMul(index_vector(), t.splat(b.getInt64(scalar))));
        p.component_stride = matrix_stride;
      } else {
        p.addr = b.CreateAdd(p.addr, b.CreateMul(index_vector(), t.splat(b.getInt64(matrix_stride))));
        p.component_stride = 0;
      }
      p.pointee = ty.element;
      return true;
    }
    case spirv::TypeKind::Vector: {
      const uint32_t stride = p.component_stride ? p.component_stride : spirv::type_size(m, ty.element);
      p.addr = b.CreateAdd(p.addr, b.CreateMul(index_vector(), t.splat(b.getInt64(stride))));
      p.pointee = ty.element;
      p.component_stride = 0;
      return true;
    }
    default:
      return t.fail(inst, "access chain into a non-composite type");
  }
}

static llvm::AtomicRMWInst::BinOp rmw_op(spv::Op op, bool* ok) {
  *ok = true;
  switch (op) {
    case spv::Op::OpAtomicIAdd:
    case spv::Op::OpAtomicIIncrement: return llvm::AtomicRMWInst::Add;
    case spv::Op::OpAtomicISub:
    case spv::Op::OpAtomicIDecrement: return llvm::AtomicRMWInst::Sub;
    case spv::Op::OpAtomicSMin: return llvm::AtomicRMWInst::Min;
    case spv::Op::OpAtomicUMin: return llvm::AtomicRMWInst::UMin;
    case spv::Op::OpAtomicSMax: return llvm::AtomicRMWInst::Max;
    case spv::Op::OpAtomicUMax: return llvm::AtomicRMWInst::UMax;
    case spv::Op::OpAtomicAnd: return llvm::AtomicRMWInst::And;
    case spv::Op::OpAtomicOr: return llvm::AtomicRMWInst::Or;
    case spv::Op::OpAtomicXor: return llvm::AtomicRMWInst::Xor;
    case spv::Op::OpAtomicExchange: return llvm::AtomicRMWInst::Xchg;
    case spv::Op::OpAtomicFAddEXT: return llvm::AtomicRMWInst::FAdd;
    // GLSL.std.450 FMin/FMax leave the result with a NaN operand open; LLVM's minnum/maxnum
    // semantics (the other operand) is one of the allowed answers.
    case spv::Op::OpAtomicFMinEXT: return llvm::AtomicRMWInst::FMin;
    case spv::Op::OpAtomicFMaxEXT: return llvm::AtomicRMWInst::FMax;
    default: *ok = false; return llvm::AtomicRMWInst::Add;
  }
}

// Bytes between the elements that OpPtrAccessChain and OpPtrDiff count in: the pointer type's
// ArrayStride (required for buffer storage classes), else the pointee's natural size.
// OpPtrAccessChain's Element steps by the pointer type's ArrayStride where memory has an explicit
// layout; Workgroup memory without one (and Function/Private memory) is laid out naturally and
// the decoration, meaningless there, is ignored (CTS ptr_access_chain.workgroup_bad_stride).
static uint32_t element_stride(const spirv::Module& m, Id pointer_type) {
  const spirv::Type& ty = m.type(pointer_type);
  const auto& caps = m.capabilities();
  const bool explicit_workgroup_layout =
      std::find(caps.begin(), caps.end(), spv::Capability::WorkgroupMemoryExplicitLayoutKHR) != caps.end();
  const bool natural_layout = ty.storage_class == spv::StorageClass::Function ||
                              ty.storage_class == spv::StorageClass::Private ||
                              (ty.storage_class == spv::StorageClass::Workgroup && !explicit_workgroup_layout);
  return ty.array_stride && !natural_layout ? ty.array_stride : spirv::natural_stride(m, ty.element);
}

// The pointer operand `id` of `inst`, or a failure when it has no address (a pointer Kiln could
// not follow, e.g. an OpSelect between descriptor arrays).
static bool memory_pointer(Translator& t, const spirv::Instruction& inst, Id id, Pointer* p) {
  *p = t.get_pointer(id);
  if (p->kind == PointerKind::Memory && !p->addr) return t.fail(inst, "pointer operand is not an address Kiln can follow");
  return true;
}

bool Translator::is_descriptor_array(Id pointer) const {
  const auto p = pointers_.find(pointer);
  return (p != pointers_.end() && p->second.kind == PointerKind::DescriptorArray) || descriptor_array_selects_.contains(pointer);
}

// The pointer access chain `inst` gives from `base`. A base that is an OpSelect between descriptor
// arrays takes the chain down both arms (each picks its descriptor) and selects per lane.
static bool access_chain(Translator& t, const spirv::Instruction& inst, Id base, Pointer* p) {
  if (const auto select = t.descriptor_array_selects_.find(base); select != t.descriptor_array_selects_.end()) {
    const Translator::DescriptorArraySelect arms = select->second;
    Pointer x, y;
    if (!access_chain(t, inst, arms.if_true, &x) || !access_chain(t, inst, arms.if_false, &y)) return false;
    if (x.kind != PointerKind::Memory || y.kind != PointerKind::Memory)
      return t.fail(inst, "an OpSelect between descriptor arrays used without choosing a descriptor");
    llvm::Value* condition = t.get(base).leaves.at(0);
    auto& b = t.b();
    *p = x;
    p->addr = b.CreateSelect(condition, x.addr, y.addr);
    p->lo = b.CreateSelect(condition, x.lo, y.lo);
    p->hi = b.CreateSelect(condition, x.hi, y.hi);
    p->coherent = x.coherent || y.coherent;
    return true;
  }
  if (!memory_pointer(t, inst, base, p)) return false;
  for (size_t i = 1; i < inst.operands.size(); ++i)
    if (!step(t, *p, inst.operands[i], inst)) return false;
  return true;
}

// Atomics serialize per address: each active in-bounds lane performs its own atomic, in lane order.
static bool atomic(Translator& t, const spirv::Instruction& inst) {
  auto& b = t.b();
  const spv::Op op = inst.opcode;
  Pointer p;
  if (!memory_pointer(t, inst, inst.operands[0], &p)) return false;
  if (p.kind != PointerKind::Memory) return t.fail(inst, "atomic on a non-memory pointer");
  const bool is_store = op == spv::Op::OpAtomicStore;
  const Id value_type = is_store ? p.pointee : inst.result_type;
  llvm::Type* scalar = t.leaf_type(value_type);
  if (!scalar) return t.fail(inst, "atomic on a non-scalar");
  const uint32_t size = scalar->getPrimitiveSizeInBits() / 8;
  llvm::Value* lanes = t.lanes_in_bounds(p, p.addr, size);
  if (!p.lanes_interleaved) lanes = t.stage().without_helpers(lanes);  // helper lanes never touch memory
  llvm::Value* operand = nullptr;
  llvm::Value* comparator = nullptr;
  switch (op) {
    case spv::Op::OpAtomicLoad: break;
    case spv::Op::OpAtomicStore: operand = t.get(inst.operands[3]).leaves.at(0); break;
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIDecrement: operand = t.splat(llvm::ConstantInt::get(scalar, 1)); break;
    case spv::Op::OpAtomicCompareExchange:
      operand = t.get(inst.operands[4]).leaves.at(0);
      comparator = t.get(inst.operands[5]).leaves.at(0);
      break;
    default: operand = t.get(inst.operands[3]).leaves.at(0); break;
  }
  // Kiln's atomics are all sequentially consistent, which every Vulkan memory-model semantics
  // (relaxed, acquire, release, acq_rel, seq_cst; MakeAvailable/MakeVisible) is allowed to be.
  // Volatile semantics additionally forbid LLVM to merge or drop the access.
  const auto semantics = t.m.constant_uint(inst.operands[2]);
  const bool is_volatile = semantics && (*semantics & static_cast<uint32_t>(spv::MemorySemanticsMask::Volatile));
  // Workgroup memory is only reachable from the workgroup's own subgroups, and the engine runs
  // those as fibers on one thread that switch only at barriers (pipeline/compute_dispatch.cpp):
  // no other thread can see the read-modify-write half done, so it needs no locked instruction.
  // Plain accesses in lane order give the same results at a fraction of a `lock xadd`'s cost.
  const Id pointer_type = t.type_of(inst.operands[0]);
  const bool thread_local_memory =
      pointer_type && t.m.type(pointer_type).storage_class == spv::StorageClass::Workgroup;
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  llvm::Value* physical = t.physical_address(p, p.addr, size);
  // Lanes that do not run (out of bounds, helpers, inactive) return zero, not undef: LLVM may fold
  // arithmetic on an undef lane into anything, and even drop the stores it reaches.
  llvm::Value* result = llvm::Constant::getNullValue(t.lane_type(scalar));
  for (uint32_t lane = 0; lane < t.width(); ++lane) {
    llvm::BasicBlock* run = llvm::BasicBlock::Create(t.ctx, "atomic_lane", fn);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(t.ctx, "atomic_next", fn);
    llvm::BasicBlock* from = b.GetInsertBlock();
    b.CreateCondBr(b.CreateExtractElement(lanes, lane), run, done);
    b.SetInsertPoint(run);
    llvm::Value* address = b.CreateIntToPtr(b.CreateExtractElement(physical, lane), b.getPtrTy());
    llvm::Value* old = nullptr;
    const auto order = llvm::AtomicOrdering::SequentiallyConsistent;
    if (thread_local_memory) {
      llvm::Value* loaded = nullptr;
      if (op != spv::Op::OpAtomicStore) loaded = b.CreateAlignedLoad(scalar, address, llvm::Align(size), is_volatile);
      llvm::Value* stored = nullptr;
      if (op == spv::Op::OpAtomicStore) {
        stored = b.CreateExtractElement(operand, lane);
      } else if (op == spv::Op::OpAtomicCompareExchange) {
        llvm::Value* equal = b.CreateICmpEQ(loaded, b.CreateExtractElement(comparator, lane));
        stored = b.CreateSelect(equal, b.CreateExtractElement(operand, lane), loaded);
      } else if (op != spv::Op::OpAtomicLoad) {
        bool ok;
        auto binop = rmw_op(op, &ok);
        if (!ok) return t.fail(inst, "unsupported atomic");
        stored = llvm::buildAtomicRMWValue(binop, b, loaded, b.CreateExtractElement(operand, lane));
      }
      if (stored) b.CreateAlignedStore(stored, address, llvm::Align(size), is_volatile);
      old = loaded;
    } else if (op == spv::Op::OpAtomicLoad) {
      auto* load = b.CreateLoad(scalar, address);
      load->setAtomic(order);
      load->setAlignment(llvm::Align(size));
      load->setVolatile(is_volatile);
      old = load;
    } else if (op == spv::Op::OpAtomicStore) {
      auto* st = b.CreateStore(b.CreateExtractElement(operand, lane), address);
      st->setAtomic(order);
      st->setAlignment(llvm::Align(size));
      st->setVolatile(is_volatile);
    } else if (op == spv::Op::OpAtomicCompareExchange) {
      auto* cx = b.CreateAtomicCmpXchg(address, b.CreateExtractElement(comparator, lane),
                                       b.CreateExtractElement(operand, lane), llvm::MaybeAlign(size), order, order);
      cx->setVolatile(is_volatile);
      old = b.CreateExtractValue(cx, 0);
    } else {
      bool ok;
      auto binop = rmw_op(op, &ok);
      if (!ok) return t.fail(inst, "unsupported atomic");
      auto* rmw = b.CreateAtomicRMW(binop, address, b.CreateExtractElement(operand, lane), llvm::MaybeAlign(size), order);
      rmw->setVolatile(is_volatile);
      old = rmw;
    }
    llvm::Value* updated = old ? b.CreateInsertElement(result, old, lane) : nullptr;
    llvm::BasicBlock* run_end = b.GetInsertBlock();
    b.CreateBr(done);
    b.SetInsertPoint(done);
    if (updated) {
      auto* phi = b.CreatePHI(t.lane_type(scalar), 2);
      phi->addIncoming(result, from);
      phi->addIncoming(updated, run_end);
      result = phi;
    }
  }
  if (!is_store) t.set(inst.result, Value{{result}});
  return true;
}

// Whether an OpLoad/OpStore/OpCopyMemory must access memory exactly where and as often as the
// shader says: through a Coherent/Volatile variable, or with a Volatile, MakePointerAvailable or
// MakePointerVisible memory operand (the Vulkan memory model's per-access visibility; the mask
// is operand `mask_index`, the later words are its scope ids or a second mask). CPU caches are
// coherent, so the only hazard is the compiler keeping a value in a register — e.g. LLVM hoisting
// the load of a flag out of a spin loop.
static bool must_happen_here(const Pointer& p, const spirv::Instruction& inst, size_t mask_index) {
  if (p.coherent) return true;
  using Mask = spv::MemoryAccessMask;
  auto has = [](uint32_t mask, Mask bit) { return (mask & static_cast<uint32_t>(bit)) != 0; };
  // OpCopyMemory may have a second mask after the first one's extra operands.
  for (size_t at = mask_index; at < inst.operands.size();) {
    const uint32_t mask = inst.operands[at++];
    if (has(mask, Mask::Volatile) || has(mask, Mask::MakePointerAvailable) || has(mask, Mask::MakePointerVisible))
      return true;
    at += has(mask, Mask::Aligned);  // its alignment literal (the scopes of the two Make* bits need not be skipped: they pin)
  }
  return false;
}

// A fence for the compiler only (no instruction on x86): LLVM may not move memory accesses across
// it, cache a load's value past it or merge stores over it.
static void compiler_barrier(llvm::IRBuilder<>& b) {
  b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent, llvm::SyncScope::SingleThread);
}

bool Translator::memory_instruction(const spirv::Instruction& inst, bool* handled) {
  *handled = true;
  auto& b = builder_;
  switch (inst.opcode) {
    case spv::Op::OpVariable:
      return true;  // created by setup_variables
    case spv::Op::OpLoad: {
      Pointer p;
      if (!memory_pointer(*this, inst, inst.operands[0], &p)) return false;
      const bool pinned = must_happen_here(p, inst, 1);
      if (pinned) compiler_barrier(b);
      Value v = load(p, inst.result_type);
      if (pinned) compiler_barrier(b);
      // An empty struct has no leaves to load; anything else without them is a load Kiln lacks.
      if (v.leaves.empty() && leaf_count(inst.result_type) != 0) return fail(inst, "unsupported load (built-in or type)");
      set(inst.result, std::move(v));
      return true;
    }
    case spv::Op::OpStore: {
      Pointer p;
      if (!memory_pointer(*this, inst, inst.operands[0], &p)) return false;
      if (p.kind != PointerKind::Memory && p.kind != PointerKind::Register)
        return fail(inst, "store through a non-memory pointer");
      const bool pinned = must_happen_here(p, inst, 2);
      if (pinned) compiler_barrier(b);
      store(p, p.pointee, get(inst.operands[1]));
      if (pinned) compiler_barrier(b);
      return true;
    }
    case spv::Op::OpCopyMemory: {
      Pointer dst, src;
      if (!memory_pointer(*this, inst, inst.operands[0], &dst) || !memory_pointer(*this, inst, inst.operands[1], &src))
        return false;
      // The operands may carry one memory-access mask for both pointers or one each; either way
      // any of them (or a coherent pointer) pins the copy.
      const bool pinned = must_happen_here(dst, inst, 2) || must_happen_here(src, inst, 2);
      if (pinned) compiler_barrier(b);
      store(dst, dst.pointee, load(src, src.pointee));
      if (pinned) compiler_barrier(b);
      return true;
    }
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain: {
      Pointer p;
      if (!access_chain(*this, inst, inst.operands[0], &p)) return false;
      set_pointer(inst.result, p);
      return true;
    }
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain: {
      // The first index moves the base pointer by whole elements, as if it pointed into an array.
      Pointer p;
      if (!memory_pointer(*this, inst, inst.operands[0], &p)) return false;
      if (p.kind != PointerKind::Memory) return fail(inst, "OpPtrAccessChain on a non-memory pointer");
      llvm::Type* i64 = b.getInt64Ty();
      llvm::Value* element = b.CreateSExtOrTrunc(get(inst.operands[1]).leaves.at(0), lane_type(i64));
      const uint32_t stride = element_stride(m, type_of(inst.operands[0]));
      p.addr = b.CreateAdd(p.addr, b.CreateMul(element, splat(b.getInt64(stride))));
      for (size_t i = 2; i < inst.operands.size(); ++i)
        if (!step(*this, p, inst.operands[i], inst)) return false;
      set_pointer(inst.result, p);
      return true;
    }
    case spv::Op::OpConvertUToPtr: {
      llvm::Value* address = b.CreateZExtOrTrunc(get(inst.operands[0]).leaves.at(0), lane_type(b.getInt64Ty()));
      set(inst.result, Value{{address}});
      return true;
    }
    case spv::Op::OpConvertPtrToU: {
      Pointer p;
      if (!memory_pointer(*this, inst, inst.operands[0], &p)) return false;
      set(inst.result, Value{{b.CreateZExtOrTrunc(p.addr, lane_type(leaf_type(inst.result_type)))}});
      return true;
    }
    case spv::Op::OpPtrEqual:
    case spv::Op::OpPtrNotEqual:
    case spv::Op::OpPtrDiff: {
      Pointer x, y;
      if (!memory_pointer(*this, inst, inst.operands[0], &x) || !memory_pointer(*this, inst, inst.operands[1], &y))
        return false;
      if (x.kind != PointerKind::Memory || y.kind != PointerKind::Memory)
        return fail(inst, "pointer comparison of non-memory pointers");
      llvm::Value* r;
      if (inst.opcode == spv::Op::OpPtrEqual) {
        r = b.CreateICmpEQ(x.addr, y.addr);
      } else if (inst.opcode == spv::Op::OpPtrNotEqual) {
        r = b.CreateICmpNE(x.addr, y.addr);
      } else {
        const uint32_t stride = std::max(1u, element_stride(m, type_of(inst.operands[0])));
        r = b.CreateSDiv(b.CreateSub(x.addr, y.addr), splat(b.getInt64(stride)));
        r = b.CreateSExtOrTrunc(r, lane_type(leaf_type(inst.result_type)));
      }
      set(inst.result, Value{{r}});
      return true;
    }
    case spv::Op::OpCopyObject:
      if (pointers_.count(inst.operands[0])) {
        set_pointer(inst.result, get_pointer(inst.operands[0]));
        return true;
      }
      *handled = false;
      return true;
    case spv::Op::OpArrayLength: {
      // Elements of the runtime array member: (bytes in range past the member's offset) / stride.
      const Pointer p = get_pointer(inst.operands[0]);
      const spirv::Type& st = m.type(p.pointee);
      const uint32_t member = inst.operands[1];
      if (member >= st.members.size()) return fail(inst, "bad member");
      const uint64_t offset = spirv::member_offset(m, p.pointee, member);
      const uint64_t stride = std::max(1u, spirv::array_stride(m, st.members[member]));
      llvm::Value* bytes = b.CreateSub(p.hi, b.CreateAdd(p.addr, splat(b.getInt64(offset))));
      llvm::Value* positive = b.CreateICmpUGT(p.hi, b.CreateAdd(p.addr, splat(b.getInt64(offset))));
      llvm::Value* count = b.CreateSelect(positive, b.CreateUDiv(bytes, splat(b.getInt64(stride))),
                                          llvm::Constant::getNullValue(lane_type(b.getInt64Ty())));
      set(inst.result, Value{{b.CreateTrunc(count, lane_type(b.getInt32Ty()))}});
      return true;
    }
    // Barrier fences are acquire-release: the Vulkan memory model treats SequentiallyConsistent
    // semantics as AcquireRelease, and on x86 an acq_rel fence orders without an instruction (a
    // seq_cst one is an mfence, twice per subgroup per workgroup barrier).
    case spv::Op::OpControlBarrier: {
      const auto scope = m.constant_uint(inst.operands[0]);
      b.CreateFence(llvm::AtomicOrdering::AcquireRelease);
      if (scope && *scope == static_cast<uint32_t>(spv::Scope::Workgroup)) {
        if (!stage_->workgroup_barrier(inst)) return false;
        b.CreateFence(llvm::AtomicOrdering::AcquireRelease);
      }
      return true;
    }
    case spv::Op::OpMemoryBarrier:
      b.CreateFence(llvm::AtomicOrdering::AcquireRelease);
      return true;
    default:
      if (spirv::is_atomic_instruction(inst.opcode)) return atomic(*this, inst);
      *handled = false;
      return true;
  }
}

}  // namespace kiln::compiler
