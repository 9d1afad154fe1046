// Kernel setup and structured control flow under lane masks.
//
// Blocks are emitted once each, in structured order (compiler/spirv_module.cpp). Every block has
// an "arriving lanes" mask in memory; a branch ORs its edge's lanes into the target's mask, and a
// block whose mask is empty is skipped. A loop header is also a loop top: after the loop's last
// block, if any lanes went back to the header, control jumps back into its body. So divergent
// lanes simply sit out the parts they do not take, and a region no lane takes costs one test.
// A block entered only by its predecessor's unconditional branch shares that block's test.
// SSA values that live across blocks are kept in allocas (LLVM's mem2reg turns them back into
// registers), because a skipped block's values do not dominate later uses.
#include "compiler/translator_internal.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Intrinsics.h>

#include "compiler/jit.h"
#include "compiler/stage_emitter.h"
#include "common/abi/kernel_abi.h"

namespace kiln::compiler {

Translator::Translator(const spirv::Module& module, const spirv::EntryPoint& entry_point, const TranslateOptions& options,
                       llvm::LLVMContext& context, const std::string& symbol)
    : m(module), entry(entry_point), options_(options), ctx(context),
      llvm_module(std::make_unique<llvm::Module>("kiln_kernel", context)), builder_(context), alloca_builder_(context),
      strict_reports_(options.strict_reports), stage_(make_stage_emitter(*this)) {
  auto* fn_type = llvm::FunctionType::get(stage_->return_type(), {llvm::PointerType::get(ctx, 0)}, false);
  function = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, symbol, llvm_module.get());
  function->addParamAttr(0, llvm::Attribute::NoAlias);
  function->addParamAttr(0, llvm::Attribute::ReadOnly);
}

Translator::~Translator() = default;

bool Translator::fail(const spirv::Instruction& inst, const std::string& what) {
  if (error_.empty())
    error_ = "SPIR-V word " + std::to_string(inst.word_offset) + " (opcode " +
             std::to_string(static_cast<unsigned>(inst.opcode)) + "): " + what;
  return false;
}

llvm::Type* Translator::leaf_type(Id scalar) {
  const spirv::Type& t = m.type(scalar);
  switch (t.kind) {
    case spirv::TypeKind::Bool: return llvm::Type::getInt1Ty(ctx);
    case spirv::TypeKind::Int: return llvm::Type::getIntNTy(ctx, t.width);
    case spirv::TypeKind::Float:
      return t.width == 16 ? llvm::Type::getHalfTy(ctx) : t.width == 64 ? llvm::Type::getDoubleTy(ctx) : llvm::Type::getFloatTy(ctx);
    case spirv::TypeKind::Pointer: return llvm::Type::getInt64Ty(ctx);  // physical pointers as integers
    case spirv::TypeKind::Image:  // the descriptor record's address (sampled images: two, see below)
    case spirv::TypeKind::Sampler: return llvm::Type::getInt64Ty(ctx);
    default: return nullptr;
  }
}

llvm::VectorType* Translator::lane_type(llvm::Type* scalar) { return llvm::FixedVectorType::get(scalar, width()); }

llvm::Value* Translator::splat(llvm::Value* scalar) { return builder_.CreateVectorSplat(width(), scalar); }

llvm::Value* Translator::lane_index() {
  std::vector<llvm::Constant*> lanes;
  for (uint32_t i = 0; i < width(); ++i) lanes.push_back(builder_.getInt32(i));
  return llvm::ConstantVector::get(lanes);
}

void Translator::scalar_types(Id type, std::vector<Id>* out) const {
  const spirv::Type& t = m.type(type);
  switch (t.kind) {
    case spirv::TypeKind::Vector:
    case spirv::TypeKind::Matrix:
    case spirv::TypeKind::Array:
      for (uint32_t i = 0; i < t.count; ++i) scalar_types(t.element, out);
      break;
    case spirv::TypeKind::Struct:
      for (Id member : t.members) scalar_types(member, out);
      break;
    case spirv::TypeKind::Pointer:
      // A logical pointer as a value is [addr, lo, hi]; a physical one is just its address.
      out->insert(out->end(), t.storage_class == spv::StorageClass::PhysicalStorageBuffer ? 1 : 3, type);
      break;
    case spirv::TypeKind::Image:
      // A sampled image is [image record, sampler record] (translate_sample.cpp).
      out->insert(out->end(), t.sampled_image ? 2 : 1, type);
      break;
    default:
      out->push_back(type);
  }
}

llvm::Value* Translator::undefined_leaf(Id scalar) {
  llvm::Type* t = lane_type(leaf_type(scalar));
  if (m.type(scalar).kind == spirv::TypeKind::Pointer) return llvm::Constant::getNullValue(t);
  return llvm::UndefValue::get(t);
}

uint32_t Translator::leaf_count(Id type) const {
  std::vector<Id> s;
  scalar_types(type, &s);
  return static_cast<uint32_t>(s.size());
}

uint32_t Translator::leaf_offset(Id type, uint32_t index) const {
  const spirv::Type& ty = m.type(type);
  if (ty.kind == spirv::TypeKind::Struct) {
    uint32_t offset = 0;
    for (uint32_t i = 0; i < index && i < ty.members.size(); ++i) offset += leaf_count(ty.members[i]);
    return offset;
  }
  return index * leaf_count(ty.element);
}

Id Translator::element_type(Id type, uint32_t index) const {
  const spirv::Type& ty = m.type(type);
  return ty.kind == spirv::TypeKind::Struct ? ty.members.at(index) : ty.element;
}

llvm::Value* Translator::any_lane(llvm::Value* mask) { return builder_.CreateOrReduce(mask); }

namespace {

// Translator::uniform_scalar's walk. `known` holds the answer for every vector already visited in
// this walk (nullptr: not uniform), so shared subexpressions are cloned once and the walk stays
// linear. It lives for one walk only: a clone sits at that walk's insertion point and need not
// dominate a later one.
class UniformWalk {
 public:
  explicit UniformWalk(llvm::IRBuilder<>& b) : b_(b) {}

  llvm::Value* scalar(llvm::Value* v, int depth) {
    if (!v->getType()->isVectorTy()) return nullptr;
    if (auto it = known_.find(v); it != known_.end()) return it->second;
    llvm::Value* s = compute(v, depth);
    known_[v] = s;
    return s;
  }

 private:
  llvm::Value* compute(llvm::Value* v, int depth) {
    if (llvm::Value* s = llvm::getSplatValue(v)) return s;
    // Address arithmetic is rarely deeper than this.
    constexpr int kMaxDepth = 12;
    if (depth >= kMaxDepth) return nullptr;
    auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst) return nullptr;
    auto operand = [&](unsigned i) { return scalar(inst->getOperand(i), depth + 1); };
    if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(inst)) {
      llvm::Value* x = operand(0);
      llvm::Value* y = x ? operand(1) : nullptr;
      if (!y) return nullptr;
      llvm::Value* r = b_.CreateBinOp(bin->getOpcode(), x, y);
      if (auto* ri = llvm::dyn_cast<llvm::Instruction>(r)) ri->copyIRFlags(bin);
      return r;
    }
    if (auto* cmp = llvm::dyn_cast<llvm::CmpInst>(inst)) {
      llvm::Value* x = operand(0);
      llvm::Value* y = x ? operand(1) : nullptr;
      if (!y) return nullptr;
      return cmp->isFPPredicate() ? b_.CreateFCmp(cmp->getPredicate(), x, y) : b_.CreateICmp(cmp->getPredicate(), x, y);
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(inst)) {
      llvm::Value* x = operand(0);
      if (!x) return nullptr;
      return b_.CreateCast(cast->getOpcode(), x, cast->getDestTy()->getScalarType());
    }
    if (llvm::isa<llvm::SelectInst>(inst)) {
      llvm::Value* c = operand(0);
      llvm::Value* x = c ? operand(1) : nullptr;
      llvm::Value* y = x ? operand(2) : nullptr;
      if (!y) return nullptr;
      return b_.CreateSelect(c, x, y);
    }
    return nullptr;
  }

  llvm::IRBuilder<>& b_;
  std::unordered_map<llvm::Value*, llvm::Value*> known_;
};

}  // namespace

llvm::Value* Translator::uniform_scalar(llvm::Value* v) { return UniformWalk(builder_).scalar(v, 0); }

llvm::GlobalVariable* Translator::zero_record() {
  if (!null_record) {
    auto* type = llvm::ArrayType::get(builder_.getInt8Ty(), abi::kDescriptorRecordSize);
    null_record = new llvm::GlobalVariable(*llvm_module, type, true, llvm::GlobalValue::PrivateLinkage,
                                           llvm::ConstantAggregateZero::get(type), "kiln_null_descriptor");
    null_record->setAlignment(llvm::Align(16));
  }
  return null_record;
}

void Translator::spill(Id id) {
  // Only this block's active lanes are written: inactive lanes keep the value they computed in
  // an earlier pass through the block (a loop iteration they have since left).
  auto& slots = spills_[id];
  size_t next = 0;
  auto keep = [&](llvm::Value* v) {
    if (next == slots.size()) {
      auto* slot = alloca_builder_.CreateAlloca(v->getType());
      slots.push_back(slot);
    }
    llvm::AllocaInst* slot = slots[next++];
    llvm::Value* old = builder_.CreateLoad(slot->getAllocatedType(), slot);
    llvm::Value* lanes = mask_;
    if (!v->getType()->isVectorTy()) lanes = any_lane(mask_);
    builder_.CreateStore(builder_.CreateSelect(lanes, v, old), slot);
  };
  if (auto p = pointers_.find(id); p != pointers_.end() && p->second.kind == PointerKind::Memory) {
    keep(p->second.addr);
    keep(p->second.lo);
    keep(p->second.hi);
  } else if (auto v = values_.find(id); v != values_.end()) {
    for (llvm::Value* leaf : v->second.leaves) keep(leaf);
  }
}

void Translator::set(Id id, Value value) {
  values_[id] = std::move(value);
  if (escaping_.count(id)) spill(id);
}

void Translator::set_pointer(Id id, Pointer pointer) {
  pointers_[id] = std::move(pointer);
  if (escaping_.count(id)) spill(id);
}

Value Translator::get(Id id) {
  // A pointer used as a value (stored, selected, passed to a phi, converted to an integer).
  if (auto p = pointers_.find(id); p != pointers_.end() && p->second.kind == PointerKind::Memory) {
    const Pointer pointer = get_pointer(id);
    if (!pointer.bounded) return Value{{pointer.addr}};
    return Value{{pointer.addr, pointer.lo, pointer.hi}};
  }
  auto def = def_block_.find(id);
  if (def != def_block_.end() && def->second != current_block_ && spills_.count(id)) {
    // Defined in another block: reload from its slots (the register copy may not dominate here).
    Value reloaded;
    for (llvm::AllocaInst* slot : spills_[id]) reloaded.leaves.push_back(builder_.CreateLoad(slot->getAllocatedType(), slot));
    return reloaded;
  }
  auto it = values_.find(id);
  if (it != values_.end()) return it->second;
  Value constant = constant_value(id);
  values_[id] = constant;
  return constant;
}

Id Translator::type_of(Id id) const {
  if (Id type = composite_type(id)) return type;
  if (const spirv::Variable* var = m.variable(id)) return var->type;
  return 0;
}

Pointer Translator::get_pointer(Id id) {
  auto it = pointers_.find(id);
  if (it == pointers_.end()) return pointer_from_value(id);
  Pointer p = it->second;
  auto def = def_block_.find(id);
  if (def != def_block_.end() && def->second != current_block_ && spills_.count(id) && p.kind == PointerKind::Memory) {
    auto& slots = spills_[id];
    p.addr = builder_.CreateLoad(slots[0]->getAllocatedType(), slots[0]);
    p.lo = builder_.CreateLoad(slots[1]->getAllocatedType(), slots[1]);
    p.hi = builder_.CreateLoad(slots[2]->getAllocatedType(), slots[2]);
  }
  return p;
}

Id Translator::composite_type(Id id) const {
  if (auto it = value_types_.find(id); it != value_types_.end()) return it->second;
  if (const spirv::Constant* c = m.constant(id)) return c->type;
  return 0;
}

void Translator::analyse_escapes(const spirv::Function& f) {
  // Function variables are created at kernel entry (setup_variables), so they dominate every block.
  for (size_t i = 0; i < f.blocks.size(); ++i)
    for (const spirv::Instruction& inst : f.blocks[i].body) {
      if (inst.result && inst.result_type) value_types_[inst.result] = inst.result_type;
      if (inst.result && inst.opcode != spv::Op::OpVariable) def_block_[inst.result] = i;
    }
  auto note_use = [&](Id id, size_t block) {
    auto def = def_block_.find(id);
    if (def != def_block_.end() && def->second != block) escaping_.insert(id);
  };
  for (size_t i = 0; i < f.blocks.size(); ++i) {
    const spirv::Block& blk = f.blocks[i];
    for (const spirv::Instruction& inst : blk.body) {
      if (inst.opcode == spv::Op::OpPhi) {
        // Phi inputs are read at the end of their predecessor; phis themselves live in slots.
        for (size_t k = 0; k + 1 < inst.operands.size(); k += 2) {
          auto pred = f.block_index.find(inst.operands[k + 1]);
          if (pred != f.block_index.end()) note_use(inst.operands[k], pred->second);
        }
        escaping_.insert(inst.result);
        continue;
      }
      for (uint32_t word : inst.operands) note_use(word, i);
      if (inst.result_type) note_use(inst.result_type, i);
    }
    for (uint32_t word : blk.terminator.operands) note_use(word, i);
  }
}

void Translator::send_mask(const spirv::Function& f, size_t from, Id to_label, llvm::Value* edge_mask) {
  auto it = f.block_index.find(to_label);
  if (it == f.block_index.end()) return;
  const size_t to = it->second;
  llvm::AllocaInst* slot = in_masks_[to];
  builder_.CreateStore(builder_.CreateOr(builder_.CreateLoad(slot->getAllocatedType(), slot), edge_mask), slot);
  // Phi inputs for this edge: lanes on the edge take the value from this predecessor. A block's
  // phis take their inputs at once, so every input is read before any phi's slot is written: an
  // input may be another phi of the same block (a loop that swaps two variables), whose slot
  // must still hold its old value.
  std::vector<std::pair<Id, Value>> inputs;
  for (const spirv::Instruction& inst : f.blocks[to].body) {
    if (inst.opcode != spv::Op::OpPhi) break;
    for (size_t k = 0; k + 1 < inst.operands.size(); k += 2)
      if (inst.operands[k + 1] == f.blocks[from].label) inputs.emplace_back(inst.result, get(inst.operands[k]));
  }
  for (const auto& [phi, incoming] : inputs) {
    auto& slots = spills_[phi];
    for (size_t leaf = 0; leaf < slots.size() && leaf < incoming.leaves.size(); ++leaf) {
      llvm::Value* old = builder_.CreateLoad(slots[leaf]->getAllocatedType(), slots[leaf]);
      builder_.CreateStore(builder_.CreateSelect(edge_mask, incoming.leaves[leaf], old), slots[leaf]);
    }
  }
}

bool Translator::terminator(const spirv::Function& f, size_t index) {
  const spirv::Instruction& t = f.blocks[index].terminator;
  switch (t.opcode) {
    case spv::Op::OpBranch:
      send_mask(f, index, t.operands[0], mask_);
      return true;
    case spv::Op::OpBranchConditional: {
      llvm::Value* cond = get(t.operands[0]).leaves.at(0);
      send_mask(f, index, t.operands[1], builder_.CreateAnd(mask_, cond));
      send_mask(f, index, t.operands[2], builder_.CreateAnd(mask_, builder_.CreateNot(cond)));
      return true;
    }
    case spv::Op::OpSwitch: {
      // Operands: selector, default, then (literal, target) pairs; 64-bit selectors use 2-word literals.
      llvm::Value* selector = get(t.operands[0]).leaves.at(0);
      const unsigned bits = selector->getType()->getScalarSizeInBits();
      const size_t literal_words = bits > 32 ? 2 : 1;
      llvm::Value* taken = llvm::Constant::getNullValue(mask_->getType());
      for (size_t i = 2; i + literal_words < t.operands.size(); i += literal_words + 1) {
        uint64_t literal = t.operands[i];
        if (literal_words == 2) literal |= uint64_t{t.operands[i + 1]} << 32;
        const Id target = t.operands[i + literal_words];
        llvm::Value* hit = builder_.CreateICmpEQ(selector, splat(builder_.getIntN(bits, literal)));
        hit = builder_.CreateAnd(builder_.CreateAnd(mask_, hit), builder_.CreateNot(taken));
        taken = builder_.CreateOr(taken, hit);
        send_mask(f, index, target, hit);
      }
      send_mask(f, index, t.operands[1], builder_.CreateAnd(mask_, builder_.CreateNot(taken)));
      return true;
    }
    case spv::Op::OpReturn:
    case spv::Op::OpReturnValue:
    case spv::Op::OpUnreachable:
      return true;  // these lanes are done: they reach no other block
    default: {  // OpKill, OpEmitMeshTasksEXT, ...: the stage's
      bool handled = false;
      if (!stage_->terminator(t, &handled)) return false;
      return handled || fail(t, "unsupported terminator");
    }
  }
}

namespace {

// Float arithmetic whose multiply and add LLVM may fuse into one FMA (the `contract` flag):
// SPIR-V allows it unless the result is decorated NoContraction. The fused result is at least
// as precise, and it shortens dependency chains (Mandelbrot's loop is latency-bound).
bool contractible(spv::Op op) {
  switch (op) {
    case spv::Op::OpFAdd:
    case spv::Op::OpFSub:
    case spv::Op::OpFMul:
    case spv::Op::OpFNegate:
    case spv::Op::OpDot:
    case spv::Op::OpVectorTimesScalar:
    case spv::Op::OpMatrixTimesScalar:
    case spv::Op::OpVectorTimesMatrix:
    case spv::Op::OpMatrixTimesVector:
    case spv::Op::OpMatrixTimesMatrix:
    case spv::Op::OpOuterProduct:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool Translator::translate_block(const spirv::Function& f, size_t index) {
  current_block_ = index;
  const bool may_contract = stage_->contracts_float_arithmetic();
  const spirv::Instruction* previous = nullptr;
  for (const spirv::Instruction& inst : f.blocks[index].body) {
    if (previous) report_shader_faults(*previous);  // strict mode: what the previous one noted
    previous = &inst;
    llvm::FastMathFlags fast_math;
    if (may_contract && contractible(inst.opcode) && !m.decorations(inst.result).no_contraction)
      fast_math.setAllowContract();
    builder_.setFastMathFlags(fast_math);
    if (inst.opcode == spv::Op::OpPhi) {
      Value v;
      for (llvm::AllocaInst* slot : spills_[inst.result]) v.leaves.push_back(builder_.CreateLoad(slot->getAllocatedType(), slot));
      values_[inst.result] = std::move(v);
      continue;
    }
    bool handled = false;
    if (!stage_->instruction(inst, &handled)) return false;
    if (handled) continue;
    if (!image_instruction(inst, &handled)) return false;
    if (handled) continue;
    if (!memory_instruction(inst, &handled)) return false;
    if (handled) continue;
    if (!alu_instruction(inst, &handled)) return false;
    if (handled) continue;
    if (!subgroup_instruction(inst, &handled)) return false;
    if (handled) continue;
    if (!dot_instruction(inst, &handled)) return false;
    if (!handled) return fail(inst, "unsupported instruction");
  }
  if (previous) report_shader_faults(*previous);
  builder_.clearFastMathFlags();
  return terminator(f, index);
}

bool Translator::translate_function(const spirv::Function& f) {
  analyse_escapes(f);
  llvm::BasicBlock* entry_bb = &function->getEntryBlock();
  // Slots for masks and phis, created up front in the entry block.
  in_masks_.clear();
  llvm::Type* mask_type = lane_type(builder_.getInt1Ty());
  for (size_t i = 0; i < f.blocks.size(); ++i) {
    auto* slot = alloca_builder_.CreateAlloca(mask_type);
    builder_.CreateStore(llvm::Constant::getNullValue(mask_type), slot);
    in_masks_.push_back(slot);
  }
  for (const spirv::Block& blk : f.blocks)
    for (const spirv::Instruction& inst : blk.body)
      if (inst.opcode == spv::Op::OpPhi) {
        std::vector<Id> scalars;
        scalar_types(inst.result_type, &scalars);
        for (Id s : scalars) {
          auto* slot = alloca_builder_.CreateAlloca(lane_type(leaf_type(s)));
          builder_.CreateStore(undefined_leaf(s), slot);
          spills_[inst.result].push_back(slot);
        }
      }
  builder_.CreateStore(mask_, in_masks_[0]);
  (void)entry_bb;

  // Edges into each block, to find blocks that simply continue the one before them.
  std::vector<uint32_t> edges_in(f.blocks.size(), 0);
  for (const spirv::Block& blk : f.blocks) {
    const spirv::Instruction& t = blk.terminator;
    auto count = [&](Id label) {
      if (auto it = f.block_index.find(label); it != f.block_index.end()) ++edges_in[it->second];
    };
    if (t.opcode == spv::Op::OpBranch) count(t.operands[0]);
    if (t.opcode == spv::Op::OpBranchConditional) count(t.operands[1]), count(t.operands[2]);
    // Every switch operand that names a block counts (a literal equal to a label id only
    // overcounts, which costs a test, never correctness).
    if (t.opcode == spv::Op::OpSwitch)
      for (size_t k = 1; k < t.operands.size(); ++k) count(t.operands[k]);
  }
  // Block i runs with exactly the lanes of block i-1, and exactly when that block ran, when
  // block i-1's unconditional branch is its only way in: it then needs no "any lane?" test of its
  // own and is emitted inside block i-1's body (in a loop, a test and a branch per iteration).
  auto continues_previous = [&](size_t i) {
    if (i == 0 || f.blocks[i].is_loop_header || edges_in[i] != 1) return false;
    const spirv::Instruction& t = f.blocks[i - 1].terminator;
    return t.opcode == spv::Op::OpBranch && t.operands[0] == f.blocks[i].label;
  };

  struct OpenLoop {
    size_t header;
    Id merge;
    llvm::BasicBlock* header_body;  // where another iteration starts: the header's lanes are known
    llvm::PHINode* header_mask;     // the header body's mask: first arrival or a later iteration
  };
  std::vector<OpenLoop> loops;
  llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx, "block0", function);
  builder_.CreateBr(next);

  auto close_loop = [&](llvm::BasicBlock* after) {
    // Lanes that went back to the header run the loop again; the others wait at the merge.
    // They enter the header's body directly: the test that guards it on the first arrival
    // would only repeat this one.
    OpenLoop loop = loops.back();
    loops.pop_back();
    llvm::AllocaInst* slot = in_masks_[loop.header];
    llvm::Value* lanes = builder_.CreateLoad(slot->getAllocatedType(), slot);
    builder_.CreateStore(llvm::Constant::getNullValue(mask_type), slot);
    loop.header_mask->addIncoming(lanes, builder_.GetInsertBlock());
    // Cancellation (docs/design/device-loss.md): every back-edge reads the device's loss word
    // (volatile: the watchdog writes it from another thread, and the loop must not keep a copy);
    // once it is set the loop ends as if every lane had left it, so an endless loop terminates.
    // One load and one test per iteration, next to the lane test that is there anyway.
    llvm::Value* again = any_lane(lanes);
    if (cancel_) {
      llvm::Value* cancelled = builder_.CreateLoad(builder_.getInt32Ty(), cancel_, /*isVolatile=*/true);
      again = builder_.CreateAnd(again, builder_.CreateICmpEQ(cancelled, builder_.getInt32(0)));
    }
    builder_.CreateCondBr(again, loop.header_body, after);
  };

  bool body_open = false;  // the insertion point is still in the previous block's body
  for (size_t i = 0; i < f.blocks.size(); ++i) {
    const spirv::Block& blk = f.blocks[i];
    const bool loop_ends_here = !loops.empty() && loops.back().merge == blk.label;
    if (body_open && !loop_ends_here && continues_previous(i)) {
      llvm::AllocaInst* slot = in_masks_[i];
      mask_ = builder_.CreateLoad(slot->getAllocatedType(), slot);
      builder_.CreateStore(llvm::Constant::getNullValue(mask_type), slot);
      if (!translate_block(f, i)) return false;
      continue;
    }
    if (body_open) builder_.CreateBr(next);
    body_open = false;
    // Loops whose merge block this is end here.
    while (!loops.empty() && loops.back().merge == blk.label) {
      builder_.SetInsertPoint(next);
      llvm::BasicBlock* after = llvm::BasicBlock::Create(ctx, "loop_exit", function);
      close_loop(after);
      next = after;
    }
    builder_.SetInsertPoint(next);
    llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx, "body" + std::to_string(i), function);
    llvm::BasicBlock* top = next;
    next = llvm::BasicBlock::Create(ctx, "block" + std::to_string(i + 1), function);
    llvm::AllocaInst* slot = in_masks_[i];
    mask_ = builder_.CreateLoad(slot->getAllocatedType(), slot);
    builder_.CreateStore(llvm::Constant::getNullValue(mask_type), slot);
    builder_.CreateCondBr(any_lane(mask_), body, next);
    builder_.SetInsertPoint(body);
    if (blk.is_loop_header) {
      llvm::PHINode* lanes = builder_.CreatePHI(mask_type, 2);
      lanes->addIncoming(mask_, top);
      mask_ = lanes;
      loops.push_back({i, blk.merge_block, body, lanes});
    }
    if (!translate_block(f, i)) return false;
    body_open = true;
  }
  if (body_open) builder_.CreateBr(next);
  // Loops without a reachable merge block (no break) end with the function.
  builder_.SetInsertPoint(next);
  while (!loops.empty()) {
    llvm::BasicBlock* after = llvm::BasicBlock::Create(ctx, "loop_exit", function);
    close_loop(after);
    builder_.SetInsertPoint(after);
  }
  return true;  // run() adds the stage's epilogue and the return
}

std::unique_ptr<llvm::Module> Translator::run(std::string* error) {
  auto* entry_bb = llvm::BasicBlock::Create(ctx, "entry", function);
  builder_.SetInsertPoint(entry_bb);
  alloca_builder_.SetInsertPoint(entry_bb);
  invocation = function->getArg(0);
  auto failed = [&]() -> std::unique_ptr<llvm::Module> {
    *error = error_.empty() ? "translation failed" : error_;
    return nullptr;
  };
  stage_->begin_kernel();
  entry_mask_ = mask_;
  // The loss word loops poll (unused, and removed, in kernels without loops).
  cancel_ = builder_.CreateLoad(builder_.getPtrTy(), builder_.CreateConstGEP1_64(builder_.getInt8Ty(), resources,
                                                                                 offsetof(abi::ResourceContext, cancel)));

  // The allocas must stay at the top of the entry block: insert them before its first instruction.
  alloca_builder_.SetInsertPoint(entry_bb, entry_bb->getFirstInsertionPt());
  if (!setup_variables() || !stage_->prologue()) return failed();
  for (const spirv::Instruction& inst : m.deferred_spec_constants()) {
    value_types_[inst.result] = inst.result_type;
    bool handled = false;
    if (!alu_instruction(inst, &handled)) return failed();
    if (!handled) {
      fail(inst, "unsupported operation in OpSpecConstantOp");
      return failed();
    }
  }
  const spirv::Function* f = m.function(entry.function);
  if (!f) {
    error_ = "entry point function not found";
    return failed();
  }
  if (!translate_function(*f)) return failed();
  if (stage_->runs_on_fiber() && private_bytes_ > abi::kMaxPrivateBytesOnFiberStack &&
      !private_memory_too_large(abi::kMaxPrivateBytesOnFiberStack))
    return failed();
  mask_ = entry_mask_;
  if (!stage_->epilogue()) return failed();
  llvm_module->setTargetTriple(Jit::instance().target_triple());
  llvm_module->setDataLayout(Jit::instance().data_layout());
  return std::move(llvm_module);
}

bool Translator::private_memory_too_large(uint64_t limit) {
  error_ = "Function/Private variables need " + std::to_string(private_bytes_) + " bytes of stack per subgroup of " +
           std::to_string(width()) + " invocations, more than Kiln's limit of " + std::to_string(limit) +
           (limit == abi::kMaxPrivateBytesOnThreadStack ? "" : " for kernels with barriers");
  return false;
}

}  // namespace kiln::compiler
