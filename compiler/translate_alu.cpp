// Arithmetic, logic, comparisons, conversions, composites and GLSL.std.450, leaf by leaf.
//
// Operations SPIR-V leaves undefined but x86 would trap on (integer division by zero, INT_MIN/-1)
// are given a harmless divisor first, and shifts are masked to the operand width, so no shader
// can crash the driver; float→int conversions saturate instead of producing poison.
#include <spirv/unified1/GLSL.std.450.h>

#include <llvm/IR/Intrinsics.h>

#include <cmath>

#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

// double → half with one rounding and no library call (x86 converts to half only from float;
// LLVM would call __truncdfhf2 per lane). The double is first rounded to float with round-to-odd —
// truncated, then the last bit set if anything was lost — which keeps enough information for the
// final float → half rounding to be the correct one (float has more than 11 + 2 bits).
llvm::Value* double_to_half(llvm::IRBuilder<>& b, llvm::Value* d, llvm::Type* half_lanes) {
  const auto count = llvm::cast<llvm::VectorType>(d->getType())->getElementCount();
  llvm::Type* float_lanes = llvm::VectorType::get(b.getFloatTy(), count);
  llvm::Type* int_lanes = llvm::VectorType::get(b.getInt32Ty(), count);
  llvm::Value* nearest = b.CreateFPTrunc(d, float_lanes);
  llvm::Value* back = b.CreateFPExt(nearest, d->getType());
  llvm::Value* bits = b.CreateBitCast(nearest, int_lanes);
  // Rounded away from zero: one step back (toward zero) in magnitude. Overflow to infinity steps
  // back to the largest float, which still becomes half's infinity.
  llvm::Value* away = b.CreateFCmpOGT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, back),
                                      b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, d));
  bits = b.CreateSelect(away, b.CreateSub(bits, llvm::ConstantInt::get(int_lanes, 1)), bits);
  llvm::Value* inexact = b.CreateFCmpUNE(back, d);  // NaN too: it stays a NaN
  bits = b.CreateOr(bits, b.CreateZExt(inexact, int_lanes));
  return b.CreateFPTrunc(b.CreateBitCast(bits, float_lanes), half_lanes);
}

// Re-rounds `nearest` (the round-to-nearest-even conversion of `source` to a narrower float type)
// toward zero, for FPRoundingMode RTZ (Vulkan allows only RTE and RTZ). The narrower value converts
// back exactly, so comparing magnitudes tells whether rounding went away from zero; then one step
// back on the bit pattern (sign-magnitude, so minus one ulp of magnitude) is the truncated value.
// Overflow to infinity thereby becomes the largest finite value, as RTZ means; NaN and exact
// results compare unordered/equal and stay.
llvm::Value* round_toward_zero(llvm::IRBuilder<>& b, llvm::Value* source, llvm::Value* nearest) {
  llvm::Type* narrow = nearest->getType();
  const auto count = llvm::cast<llvm::VectorType>(narrow)->getElementCount();
  llvm::Type* bits_type = llvm::VectorType::get(b.getIntNTy(narrow->getScalarSizeInBits()), count);
  llvm::Value* back = b.CreateFPExt(nearest, source->getType());
  llvm::Value* away = b.CreateFCmpOGT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, back),
                                      b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, source));
  llvm::Value* bits = b.CreateBitCast(nearest, bits_type);
  bits = b.CreateSelect(away, b.CreateSub(bits, llvm::ConstantInt::get(bits_type, 1)), bits);
  return b.CreateBitCast(bits, narrow);
}

// The bits of a scalar constant of `width` bits from its literal words: one word up to 32 bits,
// two (low first) for 64. SPIRV-Tools 2023.1 folds an OpBitcast of a constant vector of 8- or
// 16-bit components to a wider scalar (f16vec2 → uint, u16vec4 → uint64) into a constant with one
// word per component instead, which the validator would reject; such a constant (more words than
// its width needs) is packed component by component, as the bit cast means.
uint64_t scalar_constant_bits(const std::vector<uint32_t>& words, unsigned width) {
  const size_t needed = width > 32 ? 2 : 1;
  if (words.size() <= needed) {
    uint64_t bits = words.empty() ? 0 : words[0];
    if (words.size() > 1) bits |= uint64_t{words[1]} << 32;
    return bits;
  }
  const unsigned part = width / static_cast<unsigned>(words.size());
  uint64_t bits = 0;
  for (size_t i = 0; i < words.size(); ++i) bits |= (uint64_t{words[i]} & ((uint64_t{1} << part) - 1)) << (i * part);
  return bits;
}

}  // namespace

llvm::Value* float_min_max(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y) {
  if (!x->getType()->getScalarType()->isHalfTy()) return b.CreateBinaryIntrinsic(id, x, y);
  llvm::Value* x_wins = id == llvm::Intrinsic::minnum ? b.CreateFCmpOLT(x, y) : b.CreateFCmpOGT(x, y);
  return b.CreateSelect(b.CreateOr(x_wins, b.CreateFCmpUNO(y, y)), x, y);
}

Value Translator::constant_value(Id id) {
  Value out;
  const spirv::Constant* c = m.constant(id);
  if (!c) return out;
  std::vector<Id> scalars;
  scalar_types(c->type, &scalars);
  if (c->null || c->undef) {
    for (Id s : scalars)
      out.leaves.push_back(c->null ? llvm::Constant::getNullValue(lane_type(leaf_type(s))) : undefined_leaf(s));
    return out;
  }
  if (!c->constituents.empty()) {
    for (Id part : c->constituents) {
      Value v = get(part);
      out.leaves.insert(out.leaves.end(), v.leaves.begin(), v.leaves.end());
    }
    return out;
  }
  llvm::Type* t = leaf_type(c->type);
  if (!t) return out;
  const uint64_t bits = scalar_constant_bits(c->words, t->getPrimitiveSizeInBits());
  llvm::Constant* scalar;
  if (t->isIntegerTy()) {
    scalar = llvm::ConstantInt::get(t, bits);
  } else {
    const unsigned width = t->getPrimitiveSizeInBits();
    scalar = llvm::ConstantFP::get(ctx, llvm::APFloat(t->getFltSemantics(), llvm::APInt(width, bits)));
  }
  out.leaves.push_back(llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(width()), scalar));
  return out;
}

bool Translator::alu_instruction(const spirv::Instruction& inst, bool* handled) {
  *handled = true;
  auto& b = builder_;
  const auto& ops = inst.operands;
  using Fn2 = std::function<llvm::Value*(llvm::Value*, llvm::Value*)>;
  using Fn1 = std::function<llvm::Value*(llvm::Value*)>;
  auto unary = [&](Fn1 fn) {
    Value a = get(ops[0]), r;
    for (llvm::Value* leaf : a.leaves) r.leaves.push_back(fn(leaf));
    set(inst.result, std::move(r));
    return true;
  };
  auto binary = [&](Fn2 fn) {
    Value x = get(ops[0]), y = get(ops[1]), r;
    if (x.leaves.size() != y.leaves.size()) return fail(inst, "operand shapes differ");
    for (size_t i = 0; i < x.leaves.size(); ++i) r.leaves.push_back(fn(x.leaves[i], y.leaves[i]));
    set(inst.result, std::move(r));
    return true;
  };
  auto result_scalar = [&]() {
    std::vector<Id> s;
    scalar_types(inst.result_type, &s);
    return leaf_type(s.at(0));
  };
  // Division helpers: a zero divisor becomes 1 and INT_MIN / -1 is computed as a negation.
  auto safe_divisor = [&](llvm::Value* d) {
    return b.CreateSelect(b.CreateICmpEQ(d, llvm::Constant::getNullValue(d->getType())), llvm::ConstantInt::get(d->getType(), 1), d);
  };
  auto signed_div = [&](llvm::Value* x, llvm::Value* y, bool remainder) -> llvm::Value* {
    llvm::Value* minus_one = b.CreateICmpEQ(y, llvm::Constant::getAllOnesValue(y->getType()));
    llvm::Value* divisor = b.CreateSelect(minus_one, llvm::ConstantInt::get(y->getType(), 1), safe_divisor(y));
    llvm::Value* q = remainder ? b.CreateSRem(x, divisor) : b.CreateSDiv(x, divisor);
    llvm::Value* special = remainder ? llvm::Constant::getNullValue(x->getType()) : b.CreateNeg(x);
    return b.CreateSelect(minus_one, special, q);
  };
  auto masked_shift = [&](llvm::Value* amount, llvm::Value* base) {
    amount = b.CreateZExtOrTrunc(amount, base->getType());
    return b.CreateAnd(amount, llvm::ConstantInt::get(base->getType(), base->getType()->getScalarSizeInBits() - 1));
  };
  auto intrinsic1 = [&](llvm::Intrinsic::ID id) {
    return [&, id](llvm::Value* v) { return b.CreateUnaryIntrinsic(id, v); };
  };

  switch (inst.opcode) {
    case spv::Op::OpUndef: {
      std::vector<Id> s;
      scalar_types(inst.result_type, &s);
      Value r;
      for (Id t : s) r.leaves.push_back(undefined_leaf(t));
      set(inst.result, std::move(r));
      return true;
    }
    case spv::Op::OpReadClockKHR: {
      // Subgroup and Device scope read the same counter, the CPU's time-stamp counter: invariant
      // and synchronised across cores on the CPUs Kiln runs on, so it never goes back for an
      // invocation, whichever worker runs it next. A 64-bit integer, or a uvec2 (low, high).
      llvm::Value* ticks = b.CreateIntrinsic(llvm::Intrinsic::readcyclecounter, {}, {});
      std::vector<Id> s;
      scalar_types(inst.result_type, &s);
      Value r;
      if (s.size() == 1 && leaf_type(s[0]) == b.getInt64Ty()) {
        r.leaves.push_back(splat(ticks));
      } else if (s.size() == 2 && leaf_type(s[0]) == b.getInt32Ty()) {
        r.leaves.push_back(splat(b.CreateTrunc(ticks, b.getInt32Ty())));
        r.leaves.push_back(splat(b.CreateTrunc(b.CreateLShr(ticks, 32), b.getInt32Ty())));
      } else {
        return fail(inst, "OpReadClockKHR result is not a 64-bit integer or a vector of two 32-bit integers");
      }
      set(inst.result, std::move(r));
      return true;
    }
    case spv::Op::OpCopyObject:
    // Leaves carry no layout, so copying between types that differ only in layout (e.g. a struct
    // loaded from a buffer into a function-storage struct) copies the leaves.
    case spv::Op::OpCopyLogical: return unary([](llvm::Value* v) { return v; });
    // Integer arithmetic
    case spv::Op::OpIAdd: return binary([&](auto x, auto y) { return b.CreateAdd(x, y); });
    case spv::Op::OpISub: return binary([&](auto x, auto y) { return b.CreateSub(x, y); });
    case spv::Op::OpIMul: return binary([&](auto x, auto y) { return b.CreateMul(x, y); });
    case spv::Op::OpUDiv: return binary([&](auto x, auto y) { return b.CreateUDiv(x, safe_divisor(y)); });
    case spv::Op::OpUMod: return binary([&](auto x, auto y) { return b.CreateURem(x, safe_divisor(y)); });
    case spv::Op::OpSDiv: return binary([&](auto x, auto y) { return signed_div(x, y, false); });
    case spv::Op::OpSRem: return binary([&](auto x, auto y) { return signed_div(x, y, true); });
    case spv::Op::OpSMod:
      // Sign follows the divisor: adjust a remainder whose sign differs from it.
      return binary([&](auto x, auto y) {
        llvm::Value* r = signed_div(x, y, true);
        llvm::Value* zero = llvm::Constant::getNullValue(r->getType());
        llvm::Value* fix = b.CreateAnd(b.CreateICmpNE(r, zero), b.CreateICmpSLT(b.CreateXor(r, y), zero));
        return b.CreateSelect(fix, b.CreateAdd(r, y), r);
      });
    case spv::Op::OpSNegate: return unary([&](auto v) { return b.CreateNeg(v); });
    case spv::Op::OpShiftLeftLogical: return binary([&](auto x, auto y) { return b.CreateShl(x, masked_shift(y, x)); });
    case spv::Op::OpShiftRightLogical: return binary([&](auto x, auto y) { return b.CreateLShr(x, masked_shift(y, x)); });
    case spv::Op::OpShiftRightArithmetic: return binary([&](auto x, auto y) { return b.CreateAShr(x, masked_shift(y, x)); });
    case spv::Op::OpBitwiseAnd: return binary([&](auto x, auto y) { return b.CreateAnd(x, y); });
    case spv::Op::OpBitwiseOr: return binary([&](auto x, auto y) { return b.CreateOr(x, y); });
    case spv::Op::OpBitwiseXor: return binary([&](auto x, auto y) { return b.CreateXor(x, y); });
    case spv::Op::OpNot: return unary([&](auto v) { return b.CreateNot(v); });
    case spv::Op::OpBitReverse: return unary(intrinsic1(llvm::Intrinsic::bitreverse));
    case spv::Op::OpBitCount:
      return unary([&](auto v) {
        return b.CreateZExtOrTrunc(b.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, v), lane_type(result_scalar()));
      });
    case spv::Op::OpBitFieldInsert: {
      Value base = get(ops[0]), insert = get(ops[1]), offset = get(ops[2]), count = get(ops[3]), r;
      for (size_t i = 0; i < base.leaves.size(); ++i) {
        llvm::Type* t = base.leaves[i]->getType();
        llvm::Value* off = b.CreateZExtOrTrunc(offset.leaves[0], t);
        llvm::Value* cnt = b.CreateZExtOrTrunc(count.leaves[0], t);
        // mask = ((1 << count) - 1) << offset, computed so count == width works.
        llvm::Value* ones = llvm::Constant::getAllOnesValue(t);
        llvm::Value* width_v = llvm::ConstantInt::get(t, t->getScalarSizeInBits());
        llvm::Value* low = b.CreateSelect(b.CreateICmpUGE(cnt, width_v), ones,
                                          b.CreateSub(b.CreateShl(llvm::ConstantInt::get(t, 1), masked_shift(cnt, base.leaves[i])),
                                                      llvm::ConstantInt::get(t, 1)));
        llvm::Value* mask = b.CreateShl(low, masked_shift(off, base.leaves[i]));
        r.leaves.push_back(b.CreateOr(b.CreateAnd(base.leaves[i], b.CreateNot(mask)),
                                      b.CreateAnd(b.CreateShl(insert.leaves[i], masked_shift(off, base.leaves[i])), mask)));
      }
      set(inst.result, std::move(r));
      return true;
    }
    case spv::Op::OpBitFieldSExtract:
    case spv::Op::OpBitFieldUExtract: {
      const bool is_signed = inst.opcode == spv::Op::OpBitFieldSExtract;
      Value base = get(ops[0]), offset = get(ops[1]), count = get(ops[2]), r;
      for (llvm::Value* v : base.leaves) {
        llvm::Type* t = v->getType();
        const unsigned bits = t->getScalarSizeInBits();
        llvm::Value* off = b.CreateZExtOrTrunc(offset.leaves[0], t);
        llvm::Value* cnt = b.CreateZExtOrTrunc(count.leaves[0], t);
        // Shift the field to the top, then back down (arithmetic for signed): count == 0 gives 0.
        llvm::Value* up = b.CreateSub(llvm::ConstantInt::get(t, bits), b.CreateAdd(off, cnt));
        llvm::Value* top = b.CreateShl(v, masked_shift(up, v));
        llvm::Value* down = b.CreateSub(llvm::ConstantInt::get(t, bits), cnt);
        llvm::Value* field = is_signed ? b.CreateAShr(top, masked_shift(down, v)) : b.CreateLShr(top, masked_shift(down, v));
        r.leaves.push_back(b.CreateSelect(b.CreateICmpEQ(cnt, llvm::Constant::getNullValue(t)), llvm::Constant::getNullValue(t), field));
      }
      set(inst.result, std::move(r));
      return true;
    }
    case spv::Op::OpIAddCarry:
    case spv::Op::OpISubBorrow:
    case spv::Op::OpUMulExtended:
    case spv::Op::OpSMulExtended: {
      Value x = get(ops[0]), y = get(ops[1]);
      Value lo, hi;
      for (size_t i = 0; i < x.leaves.size(); ++i) {
        llvm::Value* a = x.leaves[i];
        llvm::Value* c = y.leaves[i];
        llvm::Type* t = a->getType();
        if (inst.opcode == spv::Op::OpIAddCarry) {
          llvm::Value* sum = b.CreateAdd(a, c);
          lo.leaves.push_back(sum);
          hi.leaves.push_back(b.CreateZExt(b.CreateICmpULT(sum, a), t));
        } else if (inst.opcode == spv::Op::OpISubBorrow) {
          lo.leaves.push_back(b.CreateSub(a, c));
          hi.leaves.push_back(b.CreateZExt(b.CreateICmpULT(a, c), t));
        } else {
          const bool is_signed = inst.opcode == spv::Op::OpSMulExtended;
          const unsigned bits = t->getScalarSizeInBits();
          llvm::Type* wide = lane_type(b.getIntNTy(bits * 2));
          llvm::Value* product = is_signed ? b.CreateMul(b.CreateSExt(a, wide), b.CreateSExt(c, wide))
                                           : b.CreateMul(b.CreateZExt(a, wide), b.CreateZExt(c, wide));
          lo.leaves.push_back(b.CreateTrunc(product, t));
          hi.leaves.push_back(b.CreateTrunc(b.CreateLShr(product, llvm::ConstantInt::get(wide, bits)), t));
        }
      }
      lo.leaves.insert(lo.leaves.end(), hi.leaves.begin(), hi.leaves.end());
      set(inst.result, std::move(lo));
      return true;
    }
    // Floating point
    case spv::Op::OpFAdd: return binary([&](auto x, auto y) { return b.CreateFAdd(x, y); });
    case spv::Op::OpFSub: return binary([&](auto x, auto y) { return b.CreateFSub(x, y); });
    case spv::Op::OpFMul: return binary([&](auto x, auto y) { return b.CreateFMul(x, y); });
    case spv::Op::OpFDiv: return binary([&](auto x, auto y) { return b.CreateFDiv(x, y); });
    case spv::Op::OpFRem:
      // x - y * trunc(x / y), the formula Vulkan's precision rules give (the sign follows x); LLVM's
      // frem would call libm's fmod once per lane.
      return binary([&](auto x, auto y) {
        return b.CreateFSub(x, b.CreateFMul(y, b.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, b.CreateFDiv(x, y))));
      });
    case spv::Op::OpFMod:
      // x - y * floor(x / y): the sign follows y.
      return binary([&](auto x, auto y) {
        return b.CreateFSub(x, b.CreateFMul(y, b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b.CreateFDiv(x, y))));
      });
    case spv::Op::OpFNegate: return unary([&](auto v) { return b.CreateFNeg(v); });
    // Comparisons and logic
    case spv::Op::OpIEqual:
    case spv::Op::OpLogicalEqual: return binary([&](auto x, auto y) { return b.CreateICmpEQ(x, y); });
    case spv::Op::OpINotEqual:
    case spv::Op::OpLogicalNotEqual: return binary([&](auto x, auto y) { return b.CreateICmpNE(x, y); });
    case spv::Op::OpUGreaterThan: return binary([&](auto x, auto y) { return b.CreateICmpUGT(x, y); });
    case spv::Op::OpSGreaterThan: return binary([&](auto x, auto y) { return b.CreateICmpSGT(x, y); });
    case spv::Op::OpUGreaterThanEqual: return binary([&](auto x, auto y) { return b.CreateICmpUGE(x, y); });
    case spv::Op::OpSGreaterThanEqual: return binary([&](auto x, auto y) { return b.CreateICmpSGE(x, y); });
    case spv::Op::OpULessThan: return binary([&](auto x, auto y) { return b.CreateICmpULT(x, y); });
    case spv::Op::OpSLessThan: return binary([&](auto x, auto y) { return b.CreateICmpSLT(x, y); });
    case spv::Op::OpULessThanEqual: return binary([&](auto x, auto y) { return b.CreateICmpULE(x, y); });
    case spv::Op::OpSLessThanEqual: return binary([&](auto x, auto y) { return b.CreateICmpSLE(x, y); });
    case spv::Op::OpFOrdEqual: return binary([&](auto x, auto y) { return b.CreateFCmpOEQ(x, y); });
    case spv::Op::OpFUnordEqual: return binary([&](auto x, auto y) { return b.CreateFCmpUEQ(x, y); });
    case spv::Op::OpFOrdNotEqual: return binary([&](auto x, auto y) { return b.CreateFCmpONE(x, y); });
    case spv::Op::OpFUnordNotEqual: return binary([&](auto x, auto y) { return b.CreateFCmpUNE(x, y); });
    case spv::Op::OpFOrdLessThan: return binary([&](auto x, auto y) { return b.CreateFCmpOLT(x, y); });
    case spv::Op::OpFUnordLessThan: return binary([&](auto x, auto y) { return b.CreateFCmpULT(x, y); });
    case spv::Op::OpFOrdGreaterThan: return binary([&](auto x, auto y) { return b.CreateFCmpOGT(x, y); });
    case spv::Op::OpFUnordGreaterThan: return binary([&](auto x, auto y) { return b.CreateFCmpUGT(x, y); });
    case spv::Op::OpFOrdLessThanEqual: return binary([&](auto x, auto y) { return b.CreateFCmpOLE(x, y); });
    case spv::Op::OpFUnordLessThanEqual: return binary([&](auto x, auto y) { return b.CreateFCmpULE(x, y); });
    case spv::Op::OpFOrdGreaterThanEqual: return binary([&](auto x, auto y) { return b.CreateFCmpOGE(x, y); });
    case spv::Op::OpFUnordGreaterThanEqual: return binary([&](auto x, auto y) { return b.CreateFCmpUGE(x, y); });
    case spv::Op::OpLogicalOr: return binary([&](auto x, auto y) { return b.CreateOr(x, y); });
    case spv::Op::OpLogicalAnd: return binary([&](auto x, auto y) { return b.CreateAnd(x, y); });
    case spv::Op::OpLogicalNot: return unary([&](auto v) { return b.CreateNot(v); });
    case spv::Op::OpIsNan: return unary([&](auto v) { return b.CreateFCmpUNO(v, v); });
    case spv::Op::OpIsInf:
      return unary([&](auto v) {
        llvm::Value* inf = llvm::ConstantFP::getInfinity(v->getType());
        return b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v), inf);
      });
    case spv::Op::OpAny:
    case spv::Op::OpAll: {
      Value v = get(ops[0]);
      llvm::Value* r = v.leaves.at(0);
      for (size_t i = 1; i < v.leaves.size(); ++i)
        r = inst.opcode == spv::Op::OpAny ? b.CreateOr(r, v.leaves[i]) : b.CreateAnd(r, v.leaves[i]);
      set(inst.result, Value{{r}});
      return true;
    }
    case spv::Op::OpSelect: {
      if (is_descriptor_array(ops[1]) && is_descriptor_array(ops[2])) {
        descriptor_array_selects_[inst.result] = {ops[1], ops[2]};
        set(inst.result, get(ops[0]));
        return true;
      }
      Value c = get(ops[0]), x = get(ops[1]), y = get(ops[2]), r;
      for (size_t i = 0; i < x.leaves.size(); ++i)
        r.leaves.push_back(b.CreateSelect(c.leaves[c.leaves.size() == 1 ? 0 : i], x.leaves[i], y.leaves[i]));
      set(inst.result, std::move(r));
      return true;
    }
    // Conversions
    case spv::Op::OpConvertFToU:
      return unary([&](auto v) { return b.CreateIntrinsic(llvm::Intrinsic::fptoui_sat, {lane_type(result_scalar()), v->getType()}, {v}); });
    case spv::Op::OpConvertFToS:
      return unary([&](auto v) { return b.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {lane_type(result_scalar()), v->getType()}, {v}); });
    case spv::Op::OpConvertSToF: return unary([&](auto v) { return b.CreateSIToFP(v, lane_type(result_scalar())); });
    case spv::Op::OpConvertUToF: return unary([&](auto v) { return b.CreateUIToFP(v, lane_type(result_scalar())); });
    case spv::Op::OpUConvert: return unary([&](auto v) { return b.CreateZExtOrTrunc(v, lane_type(result_scalar())); });
    case spv::Op::OpSConvert: return unary([&](auto v) { return b.CreateSExtOrTrunc(v, lane_type(result_scalar())); });
    case spv::Op::OpFConvert:
      return unary([&](auto v) {
        llvm::Type* target = lane_type(result_scalar());
        llvm::Value* converted = v->getType()->getScalarType()->isDoubleTy() && target->getScalarType()->isHalfTy()
                                     ? double_to_half(b, v, target)
                                     : b.CreateFPCast(v, target);
        const bool toward_zero = m.decorations(inst.result).rounding == spv::FPRoundingMode::RTZ;
        const bool narrowing = target->getScalarSizeInBits() < v->getType()->getScalarSizeInBits();
        return toward_zero && narrowing ? round_toward_zero(b, v, converted) : converted;
      });
    case spv::Op::OpQuantizeToF16:
      // Round to half precision and back. Results below half's normal range must become zero
      // (of either sign); the plain round trip would keep them as half subnormals.
      return unary([&](auto v) {
        llvm::Type* type = v->getType();
        llvm::Value* q = b.CreateFPExt(b.CreateFPTrunc(v, lane_type(b.getHalfTy())), type);
        llvm::Value* tiny = b.CreateFCmpOLT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, q), llvm::ConstantFP::get(type, 0x1p-14));
        llvm::Value* zero = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, llvm::ConstantFP::get(type, 0.0), q);
        return b.CreateSelect(tiny, zero, q);
      });
    case spv::Op::OpBitcast: {
      Value v = get(ops[0]);
      std::vector<Id> out_types;
      scalar_types(inst.result_type, &out_types);
      // A pointer operand (e.g. an Input variable, which spirv-val lets through in logical
      // addressing) holds no data leaves: refuse it rather than index an empty list (found by the
      // fuzzer: tests/fuzz/regressions/bitcast-of-pointer.spv).
      if (v.leaves.empty() || out_types.empty()) return fail(inst, "OpBitcast of a pointer or to a type without data");
      Value r;
      if (v.leaves.size() == out_types.size()) {
        for (size_t i = 0; i < out_types.size(); ++i) r.leaves.push_back(b.CreateBitCast(v.leaves[i], lane_type(leaf_type(out_types[i]))));
      } else {
        // Different component counts (e.g. uvec2 ↔ uint64): regroup the bits lane by lane.
        const unsigned in_bits = v.leaves[0]->getType()->getScalarSizeInBits();
        const unsigned out_bits = leaf_type(out_types[0])->getPrimitiveSizeInBits();
        // The leaves must hold as many bits as the result: a storage buffer variable's address
        // leaf cast to a uint does not (spirv-val lets it through; found by the fuzzer).
        if (in_bits == 0 || out_bits == 0 || v.leaves.size() * in_bits != out_types.size() * out_bits)
          return fail(inst, "OpBitcast between values of different sizes");
        llvm::Type* in_int = lane_type(b.getIntNTy(in_bits));
        llvm::Type* out_int = lane_type(b.getIntNTy(out_bits));
        if (out_bits > in_bits) {
          const unsigned ratio = out_bits / in_bits;
          for (size_t o = 0; o < out_types.size(); ++o) {
            llvm::Value* acc = llvm::Constant::getNullValue(out_int);
            for (unsigned k = 0; k < ratio; ++k) {
              llvm::Value* part = b.CreateZExt(b.CreateBitCast(v.leaves[o * ratio + k], in_int), out_int);
              acc = b.CreateOr(acc, b.CreateShl(part, llvm::ConstantInt::get(out_int, k * in_bits)));
            }
            r.leaves.push_back(b.CreateBitCast(acc, lane_type(leaf_type(out_types[o]))));
          }
        } else {
          const unsigned ratio = in_bits / out_bits;
          for (size_t i = 0; i < v.leaves.size(); ++i) {
            llvm::Value* whole = b.CreateBitCast(v.leaves[i], in_int);
            for (unsigned k = 0; k < ratio; ++k) {
              llvm::Value* part = b.CreateTrunc(b.CreateLShr(whole, llvm::ConstantInt::get(in_int, k * out_bits)), out_int);
              r.leaves.push_back(b.CreateBitCast(part, lane_type(leaf_type(out_types[i * ratio + k]))));
            }
          }
        }
      }
      set(inst.result, std::move(r));
      return true;
    }
    // Composites
    case spv::Op::OpCompositeConstruct: {
      Value r;
      for (Id part : ops) {
        Value v = get(part);
        r.leaves.insert(r.leaves.end(), v.leaves.begin(), v.leaves.end());
      }
      set(inst.result, std::move(r));
      return true;
    }
    case spv::Op::OpCompositeExtract:
    case spv::Op::OpCompositeInsert: {
      const bool insert = inst.opcode == spv::Op::OpCompositeInsert;
      const Id composite = insert ? ops[1] : ops[0];
      Value whole = get(composite);
      Id type = insert ? inst.result_type : 0;
      if (!insert) {
        // The composite's type: find it from its definition's result type via the value's origin.
        type = composite_type(composite);
        if (!type) return fail(inst, "cannot determine composite type");
      }
      uint32_t first = 0;
      for (size_t i = insert ? 2 : 1; i < ops.size(); ++i) {
        first += leaf_offset(type, ops[i]);
        type = element_type(type, ops[i]);
      }
      const uint32_t count = leaf_count(type);
      if (first + count > whole.leaves.size()) return fail(inst, "composite index out of range");
      if (insert) {
        Value part = get(ops[0]);
        for (uint32_t i = 0; i < count; ++i) whole.leaves[first + i] = part.leaves[i];
        set(inst.result, std::move(whole));
      } else {
        set(inst.result, Value{{whole.leaves.begin() + first, whole.leaves.begin() + first + count}});
      }
      return true;
    }
    case spv::Op::OpVectorShuffle: {
      Value x = get(ops[0]), y = get(ops[1]), r;
      for (size_t i = 2; i < ops.size(); ++i) {
        const uint32_t c = ops[i];
        if (c == 0xFFFFFFFFu) r.leaves.push_back(llvm::UndefValue::get(x.leaves[0]->getType()));
        else r.leaves.push_back(c < x.leaves.size() ? x.leaves[c] : y.leaves.at(c - x.leaves.size()));
      }
      set(inst.result, std::move(r));
      return true;
    }
    case spv::Op::OpVectorExtractDynamic: {
      Value v = get(ops[0]);
      llvm::Value* index = get(ops[1]).leaves.at(0);
      llvm::Value* r = v.leaves[0];
      for (size_t i = 1; i < v.leaves.size(); ++i)
        r = b.CreateSelect(b.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), i)), v.leaves[i], r);
      set(inst.result, Value{{r}});
      return true;
    }
    case spv::Op::OpVectorInsertDynamic: {
      Value v = get(ops[0]);
      llvm::Value* component = get(ops[1]).leaves.at(0);
      llvm::Value* index = get(ops[2]).leaves.at(0);
      for (size_t i = 0; i < v.leaves.size(); ++i)
        v.leaves[i] = b.CreateSelect(b.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), i)), component, v.leaves[i]);
      set(inst.result, std::move(v));
      return true;
    }
    case spv::Op::OpTranspose: {
      Value v = get(ops[0]);
      const spirv::Type& rt = m.type(inst.result_type);
      const uint32_t cols = rt.count, rows = m.type(rt.element).count;  // of the result
      Value r;
      for (uint32_t c = 0; c < cols; ++c)
        for (uint32_t row = 0; row < rows; ++row) r.leaves.push_back(v.leaves[row * cols + c]);
      set(inst.result, std::move(r));
      return true;
    }
    // Linear algebra
    case spv::Op::OpDot: {
      Value x = get(ops[0]), y = get(ops[1]);
      llvm::Value* acc = b.CreateFMul(x.leaves[0], y.leaves[0]);
      for (size_t i = 1; i < x.leaves.size(); ++i) acc = b.CreateFAdd(acc, b.CreateFMul(x.leaves[i], y.leaves[i]));
      set(inst.result, Value{{acc}});
      return true;
    }
    case spv::Op::OpVectorTimesScalar:
    case spv::Op::OpMatrixTimesScalar: {
      Value v = get(ops[0]);
      llvm::Value* s = get(ops[1]).leaves.at(0);
      for (auto& leaf : v.leaves) leaf = b.CreateFMul(leaf, s);
      set(inst.result, std::move(v));
      return true;
    }
    case spv::Op::OpMatrixTimesVector:
    case spv::Op::OpVectorTimesMatrix:
    case spv::Op::OpMatrixTimesMatrix:
    case spv::Op::OpOuterProduct: {
      Value x = get(ops[0]), y = get(ops[1]), r;
      const spirv::Type& rt = m.type(inst.result_type);
      if (inst.opcode == spv::Op::OpMatrixTimesVector) {
        // result[row] = sum_c M[c][row] * v[c]; M has v.size() columns of rt.count rows.
        const uint32_t rows = rt.count, cols = static_cast<uint32_t>(y.leaves.size());
        for (uint32_t row = 0; row < rows; ++row) {
          llvm::Value* acc = b.CreateFMul(x.leaves[row], y.leaves[0]);
          for (uint32_t c = 1; c < cols; ++c) acc = b.CreateFAdd(acc, b.CreateFMul(x.leaves[c * rows + row], y.leaves[c]));
          r.leaves.push_back(acc);
        }
      } else if (inst.opcode == spv::Op::OpVectorTimesMatrix) {
        // result[c] = dot(v, M[c])
        const uint32_t rows = static_cast<uint32_t>(x.leaves.size()), cols = rt.count;
        for (uint32_t c = 0; c < cols; ++c) {
          llvm::Value* acc = b.CreateFMul(x.leaves[0], y.leaves[c * rows]);
          for (uint32_t row = 1; row < rows; ++row) acc = b.CreateFAdd(acc, b.CreateFMul(x.leaves[row], y.leaves[c * rows + row]));
          r.leaves.push_back(acc);
        }
      } else if (inst.opcode == spv::Op::OpMatrixTimesMatrix) {
        const uint32_t rows = m.type(rt.element).count, cols = rt.count;
        const uint32_t inner = static_cast<uint32_t>(x.leaves.size()) / rows;
        for (uint32_t c = 0; c < cols; ++c)
          for (uint32_t row = 0; row < rows; ++row) {
            llvm::Value* acc = b.CreateFMul(x.leaves[row], y.leaves[c * inner]);
            for (uint32_t k = 1; k < inner; ++k) acc = b.CreateFAdd(acc, b.CreateFMul(x.leaves[k * rows + row], y.leaves[c * inner + k]));
            r.leaves.push_back(acc);
          }
      } else {  // OuterProduct: column c = x * y[c]
        for (llvm::Value* yc : y.leaves)
          for (llvm::Value* xr : x.leaves) r.leaves.push_back(b.CreateFMul(xr, yc));
      }
      set(inst.result, std::move(r));
      return true;
    }
    case spv::Op::OpExtInst:
      if (ops[0] != 0 && ops[0] == m.debug_printf()) return debug_printf_instruction(inst);
      if (ops[0] != m.glsl_std_450()) return fail(inst, "unsupported extended instruction set");
      return glsl_instruction(inst);
    default:
      *handled = false;
      return true;
  }
}

}  // namespace kiln::compiler
