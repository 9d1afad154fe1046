// Subgroup operations (OpGroupNonUniform*). A subgroup is exactly the W lanes of one kernel call
// and "active invocations" are the lanes of the current block's mask, so every operation is a
// cross-lane operation on the leaves' vectors: reductions and clustered reductions as butterfly
// (xor) shuffles, scans as Hillis–Steele shifts, shuffles through a small stack array. Inactive
// lanes are replaced by the operation's identity first, so they never contribute.
#include <llvm/IR/Intrinsics.h>

#include <limits>

#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

struct GroupArithmetic {
  std::function<llvm::Value*(llvm::IRBuilder<>&, llvm::Value*, llvm::Value*)> combine;
  std::function<llvm::Constant*(llvm::Type* scalar)> identity;
};

bool arithmetic_of(spv::Op op, GroupArithmetic* out) {
  using B = llvm::IRBuilder<>;
  auto int_const = [](int64_t v) {
    return [v](llvm::Type* t) { return llvm::ConstantInt::get(t, static_cast<uint64_t>(v), true); };
  };
  auto float_const = [](double v) { return [v](llvm::Type* t) { return llvm::ConstantFP::get(t, v); }; };
  switch (op) {
    case spv::Op::OpGroupNonUniformIAdd: *out = {[](B& b, auto x, auto y) { return b.CreateAdd(x, y); }, int_const(0)}; return true;
    case spv::Op::OpGroupNonUniformFAdd: *out = {[](B& b, auto x, auto y) { return b.CreateFAdd(x, y); }, float_const(0.0)}; return true;
    case spv::Op::OpGroupNonUniformIMul: *out = {[](B& b, auto x, auto y) { return b.CreateMul(x, y); }, int_const(1)}; return true;
    case spv::Op::OpGroupNonUniformFMul: *out = {[](B& b, auto x, auto y) { return b.CreateFMul(x, y); }, float_const(1.0)}; return true;
    case spv::Op::OpGroupNonUniformSMin:
      *out = {[](B& b, auto x, auto y) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x, y); },
              [](llvm::Type* t) { return llvm::ConstantInt::get(t, llvm::APInt::getSignedMaxValue(t->getIntegerBitWidth())); }};
      return true;
    case spv::Op::OpGroupNonUniformUMin:
      *out = {[](B& b, auto x, auto y) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, x, y); },
              [](llvm::Type* t) { return llvm::ConstantInt::get(t, llvm::APInt::getMaxValue(t->getIntegerBitWidth())); }};
      return true;
    case spv::Op::OpGroupNonUniformFMin:
      *out = {[](B& b, auto x, auto y) { return float_min_max(b, llvm::Intrinsic::minnum, x, y); },
              [](llvm::Type* t) { return llvm::ConstantFP::getInfinity(t, false); }};
      return true;
    case spv::Op::OpGroupNonUniformSMax:
      *out = {[](B& b, auto x, auto y) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, y); },
              [](llvm::Type* t) { return llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(t->getIntegerBitWidth())); }};
      return true;
    case spv::Op::OpGroupNonUniformUMax: *out = {[](B& b, auto x, auto y) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, x, y); }, int_const(0)}; return true;
    case spv::Op::OpGroupNonUniformFMax:
      *out = {[](B& b, auto x, auto y) { return float_min_max(b, llvm::Intrinsic::maxnum, x, y); },
              [](llvm::Type* t) { return llvm::ConstantFP::getInfinity(t, true); }};
      return true;
    case spv::Op::OpGroupNonUniformBitwiseAnd:
    case spv::Op::OpGroupNonUniformLogicalAnd:
      *out = {[](B& b, auto x, auto y) { return b.CreateAnd(x, y); }, [](llvm::Type* t) { return llvm::Constant::getAllOnesValue(t); }};
      return true;
    case spv::Op::OpGroupNonUniformBitwiseOr:
    case spv::Op::OpGroupNonUniformLogicalOr: *out = {[](B& b, auto x, auto y) { return b.CreateOr(x, y); }, int_const(0)}; return true;
    case spv::Op::OpGroupNonUniformBitwiseXor:
    case spv::Op::OpGroupNonUniformLogicalXor: *out = {[](B& b, auto x, auto y) { return b.CreateXor(x, y); }, int_const(0)}; return true;
    default: return false;
  }
}

// shufflevector(v, fill, mask) where mask[i] picks lane source(i) of v, or -1 for `fill`.
llvm::Value* permute(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Value* fill, uint32_t width,
                     const std::function<int(uint32_t)>& source) {
  std::vector<int> mask(width);
  for (uint32_t i = 0; i < width; ++i) {
    const int s = source(i);
    mask[i] = s >= 0 && s < static_cast<int>(width) ? s : static_cast<int>(width + i);
  }
  return b.CreateShuffleVector(v, fill, mask);
}

}  // namespace

// Lanes of `mask` as an integer bit mask (bit i = lane i).
static llvm::Value* mask_bits(Translator& t, llvm::Value* mask) {
  return t.b().CreateBitCast(mask, t.b().getIntNTy(t.width()));
}

// Per-lane gather from `v`: lane i gets v[index[i]] (indices outside the subgroup give lane 0's).
static llvm::Value* shuffle_dynamic(Translator& t, llvm::Value* v, llvm::Value* index) {
  auto& b = t.b();
  if (v->getType()->getScalarType()->isIntegerTy(1)) {
    // A vector of i1 is stored as packed bits, so the byte-addressed gather below needs bytes.
    llvm::Value* bytes = shuffle_dynamic(t, b.CreateZExt(v, t.lane_type(b.getInt8Ty())), index);
    return b.CreateTrunc(bytes, v->getType());
  }
  auto* slot = t.alloca_builder_.CreateAlloca(v->getType());  // entry block: no stack growth in loops
  b.CreateStore(v, slot);
  llvm::Value* i32 = b.CreateZExtOrTrunc(index, t.lane_type(b.getInt32Ty()));
  llvm::Value* clamped = b.CreateSelect(b.CreateICmpULT(i32, t.splat(b.getInt32(t.width()))), i32,
                                        llvm::Constant::getNullValue(i32->getType()));
  llvm::Type* scalar = v->getType()->getScalarType();
  llvm::Value* pointers = b.CreateGEP(scalar, slot, {clamped});
  return b.CreateMaskedGather(v->getType(), pointers, llvm::Align(1),
                              llvm::Constant::getAllOnesValue(t.lane_type(b.getInt1Ty())), llvm::UndefValue::get(v->getType()));
}

static llvm::Value* first_active_lane(Translator& t) {
  auto& b = t.b();
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, mask_bits(t, t.mask()), b.getTrue());
}

llvm::Value* Translator::subgroup_builtin(spv::BuiltIn builtin, uint32_t component) {
  auto& b = builder_;
  switch (builtin) {
    case spv::BuiltIn::SubgroupSize: return splat(b.getInt32(width()));
    case spv::BuiltIn::SubgroupLocalInvocationId: return lane_index();
    case spv::BuiltIn::SubgroupEqMask:
    case spv::BuiltIn::SubgroupGeMask:
    case spv::BuiltIn::SubgroupGtMask:
    case spv::BuiltIn::SubgroupLeMask:
    case spv::BuiltIn::SubgroupLtMask: {
      // uvec4 of lane bits relative to this lane; only .x holds lanes (W ≤ 32).
      if (component != 0) return splat(b.getInt32(0));
      llvm::Value* one = splat(b.getInt32(1));
      llvm::Value* eq = b.CreateShl(one, lane_index());
      llvm::Value* lt = b.CreateSub(eq, one);
      llvm::Value* all = splat(b.getInt32(width() == 32 ? 0xFFFFFFFFu : (1u << width()) - 1));
      switch (builtin) {
        case spv::BuiltIn::SubgroupEqMask: return eq;
        case spv::BuiltIn::SubgroupLtMask: return lt;
        case spv::BuiltIn::SubgroupLeMask: return b.CreateOr(lt, eq);
        case spv::BuiltIn::SubgroupGtMask: return b.CreateAnd(all, b.CreateNot(b.CreateOr(lt, eq)));
        default: return b.CreateAnd(all, b.CreateNot(lt));  // GeMask
      }
    }
    default: return nullptr;
  }
}

bool Translator::subgroup_instruction(const spirv::Instruction& inst, bool* handled) {
  *handled = true;
  auto& b = builder_;
  const auto& ops = inst.operands;
  const uint32_t W = width();
  auto per_leaf = [&](Id value, const std::function<llvm::Value*(llvm::Value*)>& fn) {
    Value v = get(value), r;
    for (llvm::Value* leaf : v.leaves) r.leaves.push_back(fn(leaf));
    set(inst.result, std::move(r));
    return true;
  };
  // SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote (VK_EXT_shader_subgroup_ballot/_vote): the
  // non-uniform operations without their Scope operand, which is always the subgroup.
  auto as_non_uniform = [&](spv::Op op) {
    std::vector<uint32_t> with_scope{uint32_t(spv::Scope::Subgroup)};  // never read: the subgroup
    with_scope.insert(with_scope.end(), ops.begin(), ops.end());
    spirv::Instruction scoped = inst;
    scoped.opcode = op;
    scoped.operands = with_scope;
    return subgroup_instruction(scoped, handled);
  };
  switch (inst.opcode) {
    case spv::Op::OpSubgroupBallotKHR: return as_non_uniform(spv::Op::OpGroupNonUniformBallot);
    case spv::Op::OpSubgroupFirstInvocationKHR: return as_non_uniform(spv::Op::OpGroupNonUniformBroadcastFirst);
    // The invocation id is dynamically uniform, as Broadcast's.
    case spv::Op::OpSubgroupReadInvocationKHR: return as_non_uniform(spv::Op::OpGroupNonUniformBroadcast);
    case spv::Op::OpSubgroupAllKHR: return as_non_uniform(spv::Op::OpGroupNonUniformAll);
    case spv::Op::OpSubgroupAnyKHR: return as_non_uniform(spv::Op::OpGroupNonUniformAny);
    case spv::Op::OpSubgroupAllEqualKHR: return as_non_uniform(spv::Op::OpGroupNonUniformAllEqual);
    case spv::Op::OpGroupNonUniformElect:
      set(inst.result, Value{{b.CreateICmpEQ(lane_index(), splat(b.CreateZExtOrTrunc(first_active_lane(*this), b.getInt32Ty())))}});
      return true;
    case spv::Op::OpGroupNonUniformAll:
    case spv::Op::OpGroupNonUniformAny: {
      llvm::Value* p = get(ops[1]).leaves.at(0);
      llvm::Value* r = inst.opcode == spv::Op::OpGroupNonUniformAll
                           ? b.CreateAndReduce(b.CreateOr(p, b.CreateNot(mask_)))
                           : b.CreateOrReduce(b.CreateAnd(p, mask_));
      set(inst.result, Value{{splat(r)}});
      return true;
    }
    case spv::Op::OpGroupNonUniformAllEqual: {
      Value v = get(ops[1]);
      llvm::Value* first = first_active_lane(*this);
      llvm::Value* all = b.getTrue();
      for (llvm::Value* leaf : v.leaves) {
        llvm::Value* f = splat(b.CreateExtractElement(leaf, first));
        llvm::Value* eq = leaf->getType()->isFPOrFPVectorTy() ? b.CreateFCmpOEQ(leaf, f) : b.CreateICmpEQ(leaf, f);
        all = b.CreateAnd(all, b.CreateAndReduce(b.CreateOr(eq, b.CreateNot(mask_))));
      }
      set(inst.result, Value{{splat(all)}});
      return true;
    }
    case spv::Op::OpGroupNonUniformBroadcast: {
      // The id is dynamically uniform (a constant before SPIR-V 1.5 / subgroupBroadcastDynamicId):
      // take it from an active lane (lane 0 may be inactive and hold anything), and keep it
      // inside the subgroup so an out-of-range id reads some lane rather than poison.
      llvm::Value* id = b.CreateExtractElement(get(ops[2]).leaves.at(0), first_active_lane(*this));
      id = b.CreateAnd(b.CreateZExtOrTrunc(id, b.getInt32Ty()), b.getInt32(W - 1));
      return per_leaf(ops[1], [&](llvm::Value* leaf) { return splat(b.CreateExtractElement(leaf, id)); });
    }
    case spv::Op::OpGroupNonUniformBroadcastFirst: {
      llvm::Value* first = first_active_lane(*this);
      return per_leaf(ops[1], [&](llvm::Value* leaf) { return splat(b.CreateExtractElement(leaf, first)); });
    }
    case spv::Op::OpGroupNonUniformBallot: {
      llvm::Value* bits = b.CreateZExt(mask_bits(*this, b.CreateAnd(get(ops[1]).leaves.at(0), mask_)), b.getInt32Ty());
      llvm::Value* zero = llvm::Constant::getNullValue(lane_type(b.getInt32Ty()));
      set(inst.result, Value{{splat(bits), zero, zero, zero}});
      return true;
    }
    case spv::Op::OpGroupNonUniformInverseBallot:
    case spv::Op::OpGroupNonUniformBallotBitExtract: {
      Value ballot = get(ops[1]);
      llvm::Value* index = inst.opcode == spv::Op::OpGroupNonUniformInverseBallot
                               ? lane_index()
                               : b.CreateZExtOrTrunc(get(ops[2]).leaves.at(0), lane_type(b.getInt32Ty()));
      // Bit `index` of the 128-bit ballot: only the x component can hold lanes (W ≤ 32).
      llvm::Value* in_x = b.CreateICmpULT(index, splat(b.getInt32(32)));
      llvm::Value* bit = b.CreateAnd(b.CreateLShr(ballot.leaves[0], b.CreateAnd(index, splat(b.getInt32(31)))), splat(b.getInt32(1)));
      set(inst.result, Value{{b.CreateAnd(in_x, b.CreateICmpNE(bit, splat(b.getInt32(0))))}});
      return true;
    }
    case spv::Op::OpGroupNonUniformBallotBitCount:
    case spv::Op::OpGroupNonUniformBallotFindLSB:
    case spv::Op::OpGroupNonUniformBallotFindMSB: {
      Value ballot = get(ops[inst.opcode == spv::Op::OpGroupNonUniformBallotBitCount ? 2 : 1]);
      llvm::Value* x = b.CreateAnd(ballot.leaves[0], splat(b.getInt32(W == 32 ? 0xFFFFFFFFu : (1u << W) - 1)));
      llvm::Value* r;
      if (inst.opcode == spv::Op::OpGroupNonUniformBallotFindLSB) {
        r = b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, x, b.getFalse());
      } else if (inst.opcode == spv::Op::OpGroupNonUniformBallotFindMSB) {
        r = b.CreateSub(splat(b.getInt32(31)), b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, b.getFalse()));
      } else {
        const auto group_op = static_cast<spv::GroupOperation>(ops[1]);
        llvm::Value* lanes_below = b.CreateSub(b.CreateShl(splat(b.getInt32(1)), lane_index()), splat(b.getInt32(1)));
        if (group_op == spv::GroupOperation::InclusiveScan) x = b.CreateAnd(x, b.CreateOr(lanes_below, b.CreateShl(splat(b.getInt32(1)), lane_index())));
        if (group_op == spv::GroupOperation::ExclusiveScan) x = b.CreateAnd(x, lanes_below);
        r = b.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x);
      }
      set(inst.result, Value{{r}});
      return true;
    }
    case spv::Op::OpGroupNonUniformShuffle:
    case spv::Op::OpGroupNonUniformShuffleXor:
    case spv::Op::OpGroupNonUniformShuffleUp:
    case spv::Op::OpGroupNonUniformShuffleDown: {
      llvm::Value* arg = b.CreateZExtOrTrunc(get(ops[2]).leaves.at(0), lane_type(b.getInt32Ty()));
      llvm::Value* index = arg;
      if (inst.opcode == spv::Op::OpGroupNonUniformShuffleXor) index = b.CreateXor(lane_index(), arg);
      if (inst.opcode == spv::Op::OpGroupNonUniformShuffleUp) index = b.CreateSub(lane_index(), arg);
      if (inst.opcode == spv::Op::OpGroupNonUniformShuffleDown) index = b.CreateAdd(lane_index(), arg);
      return per_leaf(ops[1], [&](llvm::Value* leaf) { return shuffle_dynamic(*this, leaf, index); });
    }
    case spv::Op::OpGroupNonUniformQuadBroadcast: {
      auto index = m.constant_uint(ops[2]);
      if (!index) {
        llvm::Value* quad_base = b.CreateAnd(lane_index(), splat(b.getInt32(~3u)));
        llvm::Value* dynamic = b.CreateAdd(quad_base, b.CreateZExtOrTrunc(get(ops[2]).leaves.at(0), lane_type(b.getInt32Ty())));
        return per_leaf(ops[1], [&](llvm::Value* leaf) { return shuffle_dynamic(*this, leaf, dynamic); });
      }
      return per_leaf(ops[1], [&](llvm::Value* leaf) {
        return permute(b, leaf, leaf, W, [&](uint32_t i) { return static_cast<int>((i & ~3u) + (*index & 3)); });
      });
    }
    case spv::Op::OpGroupNonUniformQuadSwap: {
      auto direction = m.constant_uint(ops[2]);
      if (!direction || *direction > 2) return fail(inst, "quad swap direction must be a constant 0, 1 or 2");
      const uint32_t flip = static_cast<uint32_t>(*direction) + 1;  // horizontal ^1, vertical ^2, diagonal ^3
      return per_leaf(ops[1], [&](llvm::Value* leaf) {
        return permute(b, leaf, leaf, W, [&](uint32_t i) { return static_cast<int>(i ^ flip); });
      });
    }
    default:
      break;
  }

  GroupArithmetic arith;
  if (!arithmetic_of(inst.opcode, &arith)) {
    *handled = false;
    return true;
  }
  const auto group_op = static_cast<spv::GroupOperation>(ops[1]);
  if (group_op != spv::GroupOperation::Reduce && group_op != spv::GroupOperation::ClusteredReduce &&
      group_op != spv::GroupOperation::InclusiveScan && group_op != spv::GroupOperation::ExclusiveScan)
    return fail(inst, "unsupported group operation");
  uint32_t cluster = W;
  if (group_op == spv::GroupOperation::ClusteredReduce) {
    auto size = ops.size() > 3 ? m.constant_uint(ops[3]) : std::nullopt;
    if (!size || *size == 0 || (*size & (*size - 1))) return fail(inst, "cluster size must be a constant power of two");
    cluster = static_cast<uint32_t>(std::min<uint64_t>(*size, W));
  }
  return per_leaf(ops[2], [&](llvm::Value* leaf) -> llvm::Value* {
    llvm::Type* scalar = leaf->getType()->getScalarType();
    llvm::Value* identity = llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(W), arith.identity(scalar));
    llvm::Value* v = b.CreateSelect(mask_, leaf, identity);
    switch (group_op) {
      case spv::GroupOperation::Reduce:
      case spv::GroupOperation::ClusteredReduce:
        // Butterfly: after step d every lane holds the combination of its 2d-lane block.
        for (uint32_t d = 1; d < cluster; d <<= 1)
          v = arith.combine(b, v, permute(b, v, v, W, [&](uint32_t i) { return static_cast<int>(i ^ d); }));
        return v;
      default:  // InclusiveScan / ExclusiveScan (checked above)
        if (group_op == spv::GroupOperation::ExclusiveScan)
          v = permute(b, v, identity, W, [](uint32_t i) { return static_cast<int>(i) - 1; });
        for (uint32_t d = 1; d < W; d <<= 1)
          v = arith.combine(b, v, permute(b, v, identity, W, [&](uint32_t i) { return static_cast<int>(i) - static_cast<int>(d); }));
        return v;
    }
  });
}

}  // namespace kiln::compiler
