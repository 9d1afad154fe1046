// GLSL.std.450 extended instructions, leaf by leaf (vector forms apply per component).
#include <spirv/unified1/GLSL.std.450.h>

#include <llvm/IR/Intrinsics.h>

#include <cmath>
#include <numbers>

#include "compiler/stage_emitter.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

// How a float type is encoded, for the bit-level functions below.
struct FloatFormat {
  unsigned bits;           // total width
  unsigned fraction_bits;  // stored fraction (23 for float)
  int max_exponent;        // largest unbiased exponent of a normal number (127), also the bias
  int min_exponent;        // smallest (-126)
};

FloatFormat format_of(llvm::Type* scalar) {
  const llvm::fltSemantics& s = scalar->getFltSemantics();
  return {static_cast<unsigned>(scalar->getPrimitiveSizeInBits()), llvm::APFloat::semanticsPrecision(s) - 1,
          llvm::APFloat::semanticsMaxExponent(s), llvm::APFloat::semanticsMinExponent(s)};
}

// 2^e for per-lane exponents in the normal range, assembled from the bit pattern.
llvm::Value* power_of_two(llvm::IRBuilder<>& b, llvm::Value* e, const FloatFormat& f, llvm::Type* float_type) {
  llvm::Value* biased = b.CreateAdd(e, llvm::ConstantInt::get(e->getType(), f.max_exponent));
  return b.CreateBitCast(b.CreateShl(biased, llvm::ConstantInt::get(e->getType(), f.fraction_bits)), float_type);
}

llvm::Value* float_power_of_two(llvm::Type* float_type, int e) {
  return llvm::ConstantFP::get(float_type, std::ldexp(1.0, e));
}

// ldexp(x, e) = x * 2^e, inline (LLVM would call libm per lane), for float and double lanes. An
// exponent outside the normal range is applied in steps first; a downward step stops
// fraction_bits + 1 short of the smallest normal exponent, so a subnormal result is still rounded
// only once, by the last multiply. (Two steps of each kind cover float's and double's range, not
// half's: half lanes go through float, see GLSLstd450Ldexp.)
llvm::Value* inline_ldexp(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* e) {
  llvm::Type* float_type = x->getType();
  const FloatFormat f = format_of(float_type->getScalarType());
  // 8- and 16-bit exponents are widened so that the clamping constants below fit.
  if (e->getType()->getScalarSizeInBits() < 32)
    e = b.CreateSExt(e, llvm::VectorType::get(b.getInt32Ty(), llvm::cast<llvm::VectorType>(e->getType())->getElementCount()));
  // Beyond this every result is 0 or infinity (or x itself for 0, inf and NaN).
  const int limit = f.max_exponent - f.min_exponent + static_cast<int>(f.fraction_bits) + 2;
  e = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, e, llvm::ConstantInt::getSigned(e->getType(), -limit));
  e = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, e, llvm::ConstantInt::getSigned(e->getType(), limit));
  auto* int_type = llvm::VectorType::get(b.getIntNTy(f.bits), llvm::cast<llvm::VectorType>(float_type)->getElementCount());
  e = b.CreateSExtOrTrunc(e, int_type);
  auto constant = [&](int v) { return llvm::ConstantInt::getSigned(int_type, v); };
  const int down_step = f.min_exponent + static_cast<int>(f.fraction_bits) + 1;  // -102 for float
  llvm::Value* y = x;
  for (int round = 0; round < 2; ++round) {  // two steps of each kind cover the clamped range
    llvm::Value* above = b.CreateICmpSGT(e, constant(f.max_exponent));
    y = b.CreateSelect(above, b.CreateFMul(y, float_power_of_two(float_type, f.max_exponent)), y);
    e = b.CreateSelect(above, b.CreateSub(e, constant(f.max_exponent)), e);
    llvm::Value* below = b.CreateICmpSLT(e, constant(f.min_exponent));
    y = b.CreateSelect(below, b.CreateFMul(y, float_power_of_two(float_type, down_step)), y);
    e = b.CreateSelect(below, b.CreateSub(e, constant(down_step)), e);
  }
  return b.CreateFMul(y, power_of_two(b, e, f, float_type));
}

// frexp: (mantissa in [0.5, 1), exponent) with x = mantissa * 2^exponent, inline from the bits;
// zero, infinity and NaN give (x, 0). The exponent is returned as <W x i32>.
std::pair<llvm::Value*, llvm::Value*> inline_frexp(llvm::IRBuilder<>& b, llvm::Value* x) {
  llvm::Type* float_type = x->getType();
  const FloatFormat f = format_of(float_type->getScalarType());
  const auto count = llvm::cast<llvm::VectorType>(float_type)->getElementCount();
  auto* int_type = llvm::VectorType::get(b.getIntNTy(f.bits), count);
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(int_type, v); };
  const uint64_t exponent_mask = (uint64_t{1} << (f.bits - 1 - f.fraction_bits)) - 1;
  auto exponent_field = [&](llvm::Value* bits) {
    return b.CreateAnd(b.CreateLShr(bits, constant(f.fraction_bits)), constant(exponent_mask));
  };
  llvm::Value* field = exponent_field(b.CreateBitCast(x, int_type));
  // Subnormals are scaled into the normal range first.
  const int scale = static_cast<int>(f.fraction_bits) + 1;
  llvm::Value* zero = llvm::ConstantFP::get(float_type, 0.0);
  llvm::Value* subnormal = b.CreateAnd(b.CreateICmpEQ(field, constant(0)), b.CreateFCmpONE(x, zero));
  llvm::Value* scaled = b.CreateSelect(subnormal, b.CreateFMul(x, float_power_of_two(float_type, scale)), x);
  llvm::Value* bits = b.CreateBitCast(scaled, int_type);
  const uint64_t half_exponent = static_cast<uint64_t>(f.max_exponent - 1);  // biased exponent of [0.5, 1)
  llvm::Value* exponent = b.CreateSub(exponent_field(bits), constant(half_exponent));
  exponent = b.CreateSub(exponent, b.CreateSelect(subnormal, constant(scale), constant(0)));
  llvm::Value* mantissa_bits = b.CreateOr(b.CreateAnd(bits, constant(~(exponent_mask << f.fraction_bits))),
                                          constant(half_exponent << f.fraction_bits));
  llvm::Value* special = b.CreateOr(b.CreateFCmpUEQ(x, zero), b.CreateICmpEQ(field, constant(exponent_mask)));
  llvm::Value* mantissa = b.CreateSelect(special, x, b.CreateBitCast(mantissa_bits, float_type));
  exponent = b.CreateSelect(special, constant(0), exponent);
  return {mantissa, b.CreateSExtOrTrunc(exponent, llvm::VectorType::get(b.getInt32Ty(), count))};
}

// --- Vector math -----------------------------------------------------------------------------
// GLSL.std.450's transcendental functions on float lanes, inline: a range reduction, then a
// polynomial (truncated Taylor series, whose truncation error is below float's precision on the
// reduced range). No library call, so all lanes compute at once and the JIT needs no external
// symbols. Accuracy, checked against Vulkan's requirements by tests/e2e/compute_instructions_test:
// exp, exp2, log, log2 and atan within a few ULP; sin and cos within about 1e-7 absolute on
// [-pi, pi]. Functions Vulkan specifies through others (tan, asin, acos, sinh, cosh, tanh, asinh,
// acosh, atanh, pow) follow those formulas, rearranged where a formula would overflow or cancel.
class VectorMath {
 public:
  VectorMath(llvm::IRBuilder<>& b, llvm::Type* float_lanes) : b_(b), type_(float_lanes) {}

  llvm::Value* exp2(llvm::Value* x) {
    // 2^x = 2^n * e^(f ln 2) with n = round(x), |f| <= 1/2.
    x = clamp(x, -160, 160);  // the result is 0 or infinity beyond
    llvm::Value* n = round(x);
    return scale(exp_series(mul(sub(x, n), c(std::numbers::ln2))), n);
  }

  llvm::Value* exp(llvm::Value* x) {
    // e^x = 2^n * e^r with n = round(x / ln 2), r = x - n ln 2 (|r| <= ln2 / 2). ln 2 is split so
    // that n * kLn2High is exact and r is computed almost exactly.
    x = clamp(x, -110, 90);
    llvm::Value* n = round(mul(x, c(std::numbers::log2e)));
    llvm::Value* r = sub(sub(x, mul(n, c(kLn2High))), mul(n, c(kLn2Low)));
    return scale(exp_series(r), n);
  }

  llvm::Value* log(llvm::Value* x) {
    auto [e, log_m] = log_parts(x);
    return log_special_cases(x, add(mul(e, c(kLn2High)), add(mul(e, c(kLn2Low)), log_m)));
  }

  llvm::Value* log2(llvm::Value* x) {
    auto [e, log_m] = log_parts(x);
    return log_special_cases(x, add(e, mul(log_m, c(std::numbers::log2e))));
  }

  llvm::Value* pow(llvm::Value* x, llvm::Value* y) { return exp2(mul(y, log2(x))); }  // Vulkan's definition

  llvm::Value* sin(llvm::Value* x) {
    // Quadrants 0..3: sin r, cos r, -sin r, -cos r.
    const Reduced r = reduce(x);
    llvm::Value* value = b_.CreateSelect(quadrant_bit(r, 1), r.cos, r.sin);
    return b_.CreateSelect(quadrant_bit(r, 2), b_.CreateFNeg(value), value);
  }

  llvm::Value* cos(llvm::Value* x) {
    // Quadrants 0..3: cos r, -sin r, -cos r, sin r.
    const Reduced r = reduce(x);
    llvm::Value* value = b_.CreateSelect(quadrant_bit(r, 1), r.sin, r.cos);
    llvm::Value* negate = b_.CreateXor(quadrant_bit(r, 1), quadrant_bit(r, 2));
    return b_.CreateSelect(negate, b_.CreateFNeg(value), value);
  }

  llvm::Value* tan(llvm::Value* x) {
    // sin / cos: sin r / cos r in even quadrants, -cos r / sin r in odd ones.
    const Reduced r = reduce(x);
    llvm::Value* odd = quadrant_bit(r, 1);
    return div(b_.CreateSelect(odd, b_.CreateFNeg(r.cos), r.sin), b_.CreateSelect(odd, r.sin, r.cos));
  }

  llvm::Value* atan(llvm::Value* x) {
    // atan(|x|) = pi/2 - atan(1 / |x|) above 1.
    llvm::Value* a = abs(x);
    llvm::Value* inverted = b_.CreateFCmpOGT(a, c(1));
    llvm::Value* core = atan_unit(b_.CreateSelect(inverted, div(c(1), a), a));
    return copysign(b_.CreateSelect(inverted, sub(c(std::numbers::pi / 2), core), core), x);
  }

  llvm::Value* atan2(llvm::Value* y, llvm::Value* x) {
    // The angle of (|x|, |y|) from the smaller over the larger, then reflected into x's half and
    // given y's sign. Both zero (or both infinite) is undefined and gives NaN.
    llvm::Value *ax = abs(x), *ay = abs(y);
    llvm::Value* steep = b_.CreateFCmpOGT(ay, ax);
    llvm::Value* angle = atan_unit(div(b_.CreateSelect(steep, ax, ay), b_.CreateSelect(steep, ay, ax)));
    angle = b_.CreateSelect(steep, sub(c(std::numbers::pi / 2), angle), angle);
    angle = b_.CreateSelect(sign_bit(x), sub(c(std::numbers::pi), angle), angle);
    return copysign(angle, y);
  }

  llvm::Value* asin(llvm::Value* x) { return atan2(x, sqrt(cosine_from_sine(x))); }  // Vulkan's definitions,
  llvm::Value* acos(llvm::Value* x) { return atan2(sqrt(cosine_from_sine(x)), x); }  // with 1 - x² factored

  llvm::Value* sinh(llvm::Value* x) {
    // (e^x - e^-x) / 2, which cancels for small |x|: there the Taylor series.
    llvm::Value* a = abs(x);
    llvm::Value* z = mul(a, a);
    llvm::Value* series = add(a, mul(mul(a, z), polynomial(z, {1.0 / 6, 1.0 / 120, 1.0 / 5040, 1.0 / 362880})));
    llvm::Value* e = exp(a);
    llvm::Value* formula = mul(sub(e, div(c(1), e)), c(0.5));
    return copysign(b_.CreateSelect(b_.CreateFCmpOLT(a, c(1)), series, formula), x);
  }

  llvm::Value* cosh(llvm::Value* x) {
    llvm::Value* e = exp(abs(x));
    return mul(add(e, div(c(1), e)), c(0.5));
  }

  llvm::Value* tanh(llvm::Value* x) {
    // sinh / cosh, for |x| <= 9 (beyond, tanh is ±1 in float and e^x would overflow the quotient).
    llvm::Value* t = clamp(x, -9, 9);
    return div(sinh(t), cosh(t));
  }

  llvm::Value* asinh(llvm::Value* x) {
    // log(|x| + sqrt(x² + 1)) with x's sign (the formula cancels for negative x); for huge |x|,
    // log(2 |x|) (x² would overflow); for tiny |x|, x itself (log(1 + tiny) loses the digits).
    llvm::Value* a = abs(x);
    llvm::Value* huge = b_.CreateFCmpOGT(a, c(4096));
    llvm::Value* argument = b_.CreateSelect(huge, a, add(a, sqrt(add(mul(a, a), c(1)))));
    llvm::Value* r = add(log(argument), b_.CreateSelect(huge, c(std::numbers::ln2), c(0)));
    r = b_.CreateSelect(b_.CreateFCmpOLT(a, c(0x1p-12)), a, r);
    return copysign(r, x);
  }

  llvm::Value* acosh(llvm::Value* x) {
    // log(x + sqrt(x² - 1)); log(2x) for huge x.
    llvm::Value* huge = b_.CreateFCmpOGT(x, c(4096));
    llvm::Value* argument = b_.CreateSelect(huge, x, add(x, sqrt(sub(mul(x, x), c(1)))));
    return add(log(argument), b_.CreateSelect(huge, c(std::numbers::ln2), c(0)));
  }

  llvm::Value* atanh(llvm::Value* x) { return mul(log(div(add(c(1), x), sub(c(1), x))), c(0.5)); }

 private:
  static constexpr double kLn2High = 0.693359375;  // 355/512: n * kLn2High is exact for |n| < 2^15
  static constexpr double kLn2Low = std::numbers::ln2 - kLn2High;
  // pi/2 in three parts; the first two have few significant bits, so k * part is exact for the
  // quadrant counts k of arguments up to a few thousand.
  static constexpr double kHalfPi1 = 1.5703125;
  static constexpr double kHalfPi2 = 4.837512969970703125e-4;
  static constexpr double kHalfPi3 = std::numbers::pi / 2 - kHalfPi1 - kHalfPi2;

  struct Reduced {
    llvm::Value* sin;       // sin r
    llvm::Value* cos;       // cos r
    llvm::Value* quadrant;  // <W x i32>: k (x = k pi/2 + r, |r| <= pi/4)
  };

  Reduced reduce(llvm::Value* x) {
    llvm::Value* k = round(mul(x, c(2 / std::numbers::pi)));
    llvm::Value* r = sub(sub(sub(x, mul(k, c(kHalfPi1))), mul(k, c(kHalfPi2))), mul(k, c(kHalfPi3)));
    llvm::Value* z = mul(r, r);
    llvm::Value* sin_r = add(r, mul(mul(r, z), polynomial(z, {-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880})));
    llvm::Value* cos_r = polynomial(z, {1, -1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800});
    return {sin_r, cos_r, to_int(k)};
  }

  llvm::Value* quadrant_bit(const Reduced& r, int bit) {
    llvm::Value* mask = llvm::ConstantInt::get(r.quadrant->getType(), bit);
    return b_.CreateICmpNE(b_.CreateAnd(r.quadrant, mask), llvm::Constant::getNullValue(r.quadrant->getType()));
  }

  // atan on [0, 1]: above tan(pi/8), atan(a) = pi/4 + atan((a - 1) / (a + 1)), so the series
  // argument stays within tan(pi/8) ~ 0.414.
  llvm::Value* atan_unit(llvm::Value* a) {
    llvm::Value* shifted = b_.CreateFCmpOGT(a, c(0.41421356237309503));
    llvm::Value* t = b_.CreateSelect(shifted, div(sub(a, c(1)), add(a, c(1))), a);
    llvm::Value* z = mul(t, t);
    llvm::Value* series = add(t, mul(mul(t, z), polynomial(z, {-1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9, -1.0 / 11,
                                                                1.0 / 13, -1.0 / 15})));
    return b_.CreateSelect(shifted, add(series, c(std::numbers::pi / 4)), series);
  }

  // e^r for |r| <= ln2 / 2: Taylor series to degree 7.
  llvm::Value* exp_series(llvm::Value* r) {
    return polynomial(r, {1, 1, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040});
  }

  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); log(m) = 2 atanh(s) with s = (m - 1) / (m + 1),
  // |s| <= 0.172, by its series. Returns (e as float, log(m)).
  std::pair<llvm::Value*, llvm::Value*> log_parts(llvm::Value* x) {
    auto [m, exponent] = inline_frexp(b_, x);  // m in [0.5, 1)
    llvm::Value* e = b_.CreateSIToFP(exponent, type_);
    llvm::Value* low = b_.CreateFCmpOLT(m, c(std::numbers::sqrt2 / 2));
    m = b_.CreateSelect(low, mul(m, c(2)), m);
    e = b_.CreateSelect(low, sub(e, c(1)), e);
    llvm::Value* s = div(sub(m, c(1)), add(m, c(1)));
    llvm::Value* z = mul(s, s);
    return {e, mul(mul(s, c(2)), polynomial(z, {1, 1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9, 1.0 / 11}))};
  }

  // log of 0 is -infinity, of +infinity +infinity, of negative numbers and NaN a NaN.
  llvm::Value* log_special_cases(llvm::Value* x, llvm::Value* r) {
    r = b_.CreateSelect(b_.CreateFCmpOEQ(x, llvm::ConstantFP::getInfinity(type_)), x, r);
    r = b_.CreateSelect(b_.CreateFCmpULT(x, c(0)), llvm::ConstantFP::getNaN(type_), r);
    return b_.CreateSelect(b_.CreateFCmpOEQ(x, c(0)), llvm::ConstantFP::getInfinity(type_, true), r);
  }

  llvm::Value* cosine_from_sine(llvm::Value* x) { return mul(sub(c(1), x), add(c(1), x)); }  // 1 - x²

  // p * 2^n for integral float n.
  llvm::Value* scale(llvm::Value* p, llvm::Value* n) { return inline_ldexp(b_, p, to_int(n)); }

  // c0 + c1 z + c2 z² + … by Horner's rule.
  llvm::Value* polynomial(llvm::Value* z, std::initializer_list<double> coefficients) {
    auto it = std::rbegin(coefficients);
    llvm::Value* acc = c(*it);
    for (++it; it != std::rend(coefficients); ++it)
      acc = b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {type_}, {acc, z, c(*it)});
    return acc;
  }

  // lo <= x <= hi, keeping NaN.
  llvm::Value* clamp(llvm::Value* x, double lo, double hi) {
    x = b_.CreateSelect(b_.CreateFCmpOLT(x, c(lo)), c(lo), x);
    return b_.CreateSelect(b_.CreateFCmpOGT(x, c(hi)), c(hi), x);
  }

  llvm::Value* sign_bit(llvm::Value* x) {
    llvm::Type* int_type = llvm::VectorType::getInteger(llvm::cast<llvm::VectorType>(type_));
    return b_.CreateICmpSLT(b_.CreateBitCast(x, int_type), llvm::Constant::getNullValue(int_type));
  }

  llvm::Value* to_int(llvm::Value* integral) {
    auto* int_type = llvm::VectorType::get(b_.getInt32Ty(), llvm::cast<llvm::VectorType>(type_)->getElementCount());
    return b_.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {int_type, type_}, {integral});  // NaN → 0
  }

  llvm::Value* c(double v) { return llvm::ConstantFP::get(type_, v); }
  llvm::Value* add(llvm::Value* x, llvm::Value* y) { return b_.CreateFAdd(x, y); }
  llvm::Value* sub(llvm::Value* x, llvm::Value* y) { return b_.CreateFSub(x, y); }
  llvm::Value* mul(llvm::Value* x, llvm::Value* y) { return b_.CreateFMul(x, y); }
  llvm::Value* div(llvm::Value* x, llvm::Value* y) { return b_.CreateFDiv(x, y); }
  llvm::Value* abs(llvm::Value* x) { return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); }
  llvm::Value* sqrt(llvm::Value* x) { return b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x); }
  llvm::Value* round(llvm::Value* x) { return b_.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, x); }
  llvm::Value* copysign(llvm::Value* magnitude, llvm::Value* sign) {
    return b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, magnitude, sign);
  }

  llvm::IRBuilder<>& b_;
  llvm::Type* type_;  // <W x float>
};

// Determinant of the square submatrix of `m` (column-major leaves with `n` rows) made of `rows`
// and `cols`, by Laplace expansion along its first column.
llvm::Value* sub_determinant(llvm::IRBuilder<>& b, const std::vector<llvm::Value*>& m, size_t n,
                             const std::vector<size_t>& rows, const std::vector<size_t>& cols) {
  auto at = [&](size_t col, size_t row) { return m[col * n + row]; };
  if (rows.size() == 1) return at(cols[0], rows[0]);
  if (rows.size() == 2)
    return b.CreateFSub(b.CreateFMul(at(cols[0], rows[0]), at(cols[1], rows[1])),
                        b.CreateFMul(at(cols[1], rows[0]), at(cols[0], rows[1])));
  const std::vector<size_t> rest_cols(cols.begin() + 1, cols.end());
  llvm::Value* sum = nullptr;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<size_t> rest_rows = rows;
    rest_rows.erase(rest_rows.begin() + static_cast<std::ptrdiff_t>(i));
    llvm::Value* term = b.CreateFMul(at(cols[0], rows[i]), sub_determinant(b, m, n, rest_rows, rest_cols));
    sum = !sum ? term : i % 2 ? b.CreateFSub(sum, term) : b.CreateFAdd(sum, term);
  }
  return sum;
}

std::vector<size_t> indices_except(size_t n, size_t skip) {
  std::vector<size_t> out;
  for (size_t i = 0; i < n; ++i)
    if (i != skip) out.push_back(i);
  return out;
}

}  // namespace

bool Translator::glsl_instruction(const spirv::Instruction& inst) {
  auto& b = builder_;
  const auto& ops = inst.operands;
  const uint32_t op = ops[1];
  // Their first operand is a pointer to an input, not a value: the stage's (a fragment kernel's).
  if (op == GLSLstd450InterpolateAtCentroid || op == GLSLstd450InterpolateAtSample || op == GLSLstd450InterpolateAtOffset)
    return stage_->interpolate_at(inst);
  std::vector<Value> args;
  for (size_t i = 2; i < ops.size(); ++i) args.push_back(get(ops[i]));
  auto arg = [&](size_t i, size_t leaf) -> llvm::Value* {
    const Value& v = args.at(i);
    return v.leaves.size() == 1 ? v.leaves[0] : v.leaves.at(leaf);
  };
  const size_t leaves = args.empty() ? 0 : args[0].leaves.size();
  auto per_leaf = [&](auto fn) {
    Value r;
    for (size_t i = 0; i < leaves; ++i) r.leaves.push_back(fn(i));
    set(inst.result, std::move(r));
    return true;
  };
  auto intrinsic = [&](llvm::Intrinsic::ID id) {
    return per_leaf([&](size_t i) { return b.CreateUnaryIntrinsic(id, arg(0, i)); });
  };
  auto intrinsic2 = [&](llvm::Intrinsic::ID id) {
    return per_leaf([&](size_t i) { return b.CreateBinaryIntrinsic(id, arg(0, i), arg(1, i)); });
  };
  // Transcendental functions (VectorMath): float lanes inline, half lanes through float (whose
  // error rounded to half is far inside half's bounds). GLSL.std.450 defines them for 16- and
  // 32-bit floats only; the validator rejects doubles.
  auto math = [&](auto fn) {
    return per_leaf([&](size_t i) {
      std::vector<llvm::Value*> xs;
      for (size_t a = 0; a < args.size(); ++a) xs.push_back(arg(a, i));
      llvm::Type* type = xs[0]->getType();
      llvm::Type* float_lanes = lane_type(b.getFloatTy());
      for (llvm::Value*& x : xs) x = b.CreateFPCast(x, float_lanes);
      VectorMath vm(b, float_lanes);
      return b.CreateFPCast(fn(vm, xs), type);
    });
  };
  auto fconst = [&](llvm::Value* like, double v) { return llvm::ConstantFP::get(like->getType(), v); };
  auto dot = [&](size_t x, size_t y) {
    llvm::Value* acc = b.CreateFMul(args[x].leaves[0], args[y].leaves[0]);
    for (size_t i = 1; i < args[x].leaves.size(); ++i) acc = b.CreateFAdd(acc, b.CreateFMul(args[x].leaves[i], args[y].leaves[i]));
    return acc;
  };

  switch (op) {
    case GLSLstd450Round: return intrinsic(llvm::Intrinsic::round);
    case GLSLstd450RoundEven: return intrinsic(llvm::Intrinsic::roundeven);
    case GLSLstd450Trunc: return intrinsic(llvm::Intrinsic::trunc);
    case GLSLstd450FAbs: return intrinsic(llvm::Intrinsic::fabs);
    case GLSLstd450SAbs: return per_leaf([&](size_t i) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, arg(0, i), b.getFalse()); });
    case GLSLstd450FSign:
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        llvm::Value* pos = b.CreateSelect(b.CreateFCmpOGT(x, fconst(x, 0)), fconst(x, 1), fconst(x, 0));
        return b.CreateSelect(b.CreateFCmpOLT(x, fconst(x, 0)), fconst(x, -1), pos);
      });
    case GLSLstd450SSign:
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        llvm::Value* zero = llvm::Constant::getNullValue(x->getType());
        llvm::Value* pos = b.CreateZExt(b.CreateICmpSGT(x, zero), x->getType());
        return b.CreateSelect(b.CreateICmpSLT(x, zero), llvm::Constant::getAllOnesValue(x->getType()), pos);
      });
    case GLSLstd450Floor: return intrinsic(llvm::Intrinsic::floor);
    case GLSLstd450Ceil: return intrinsic(llvm::Intrinsic::ceil);
    case GLSLstd450Fract:
      return per_leaf([&](size_t i) { return b.CreateFSub(arg(0, i), b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, arg(0, i))); });
    case GLSLstd450Radians:
      return per_leaf([&](size_t i) { return b.CreateFMul(arg(0, i), fconst(arg(0, i), std::numbers::pi / 180.0)); });
    case GLSLstd450Degrees:
      return per_leaf([&](size_t i) { return b.CreateFMul(arg(0, i), fconst(arg(0, i), 180.0 / std::numbers::pi)); });
    case GLSLstd450Sin: return math([](VectorMath& vm, const auto& x) { return vm.sin(x[0]); });
    case GLSLstd450Cos: return math([](VectorMath& vm, const auto& x) { return vm.cos(x[0]); });
    case GLSLstd450Tan: return math([](VectorMath& vm, const auto& x) { return vm.tan(x[0]); });
    case GLSLstd450Asin: return math([](VectorMath& vm, const auto& x) { return vm.asin(x[0]); });
    case GLSLstd450Acos: return math([](VectorMath& vm, const auto& x) { return vm.acos(x[0]); });
    case GLSLstd450Atan: return math([](VectorMath& vm, const auto& x) { return vm.atan(x[0]); });
    case GLSLstd450Sinh: return math([](VectorMath& vm, const auto& x) { return vm.sinh(x[0]); });
    case GLSLstd450Cosh: return math([](VectorMath& vm, const auto& x) { return vm.cosh(x[0]); });
    case GLSLstd450Tanh: return math([](VectorMath& vm, const auto& x) { return vm.tanh(x[0]); });
    case GLSLstd450Asinh: return math([](VectorMath& vm, const auto& x) { return vm.asinh(x[0]); });
    case GLSLstd450Acosh: return math([](VectorMath& vm, const auto& x) { return vm.acosh(x[0]); });
    case GLSLstd450Atanh: return math([](VectorMath& vm, const auto& x) { return vm.atanh(x[0]); });
    case GLSLstd450Atan2: return math([](VectorMath& vm, const auto& x) { return vm.atan2(x[0], x[1]); });
    case GLSLstd450Pow: return math([](VectorMath& vm, const auto& x) { return vm.pow(x[0], x[1]); });
    case GLSLstd450Exp: return math([](VectorMath& vm, const auto& x) { return vm.exp(x[0]); });
    case GLSLstd450Log: return math([](VectorMath& vm, const auto& x) { return vm.log(x[0]); });
    case GLSLstd450Exp2: return math([](VectorMath& vm, const auto& x) { return vm.exp2(x[0]); });
    case GLSLstd450Log2: return math([](VectorMath& vm, const auto& x) { return vm.log2(x[0]); });
    case GLSLstd450Sqrt: return intrinsic(llvm::Intrinsic::sqrt);
    case GLSLstd450InverseSqrt:
      return per_leaf([&](size_t i) { return b.CreateFDiv(fconst(arg(0, i), 1.0), b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, arg(0, i))); });
    case GLSLstd450FMin:
    case GLSLstd450NMin: return per_leaf([&](size_t i) { return float_min_max(b, llvm::Intrinsic::minnum, arg(0, i), arg(1, i)); });
    case GLSLstd450FMax:
    case GLSLstd450NMax: return per_leaf([&](size_t i) { return float_min_max(b, llvm::Intrinsic::maxnum, arg(0, i), arg(1, i)); });
    case GLSLstd450UMin: return intrinsic2(llvm::Intrinsic::umin);
    case GLSLstd450SMin: return intrinsic2(llvm::Intrinsic::smin);
    case GLSLstd450UMax: return intrinsic2(llvm::Intrinsic::umax);
    case GLSLstd450SMax: return intrinsic2(llvm::Intrinsic::smax);
    case GLSLstd450FClamp:
    case GLSLstd450NClamp:
      return per_leaf([&](size_t i) {
        return float_min_max(b, llvm::Intrinsic::minnum, float_min_max(b, llvm::Intrinsic::maxnum, arg(0, i), arg(1, i)), arg(2, i));
      });
    case GLSLstd450UClamp:
      return per_leaf([&](size_t i) {
        return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, arg(0, i), arg(1, i)), arg(2, i));
      });
    case GLSLstd450SClamp:
      return per_leaf([&](size_t i) {
        return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, arg(0, i), arg(1, i)), arg(2, i));
      });
    case GLSLstd450FMix:
      return per_leaf([&](size_t i) {
        llvm::Value *x = arg(0, i), *y = arg(1, i), *a = arg(2, i);
        return b.CreateFAdd(x, b.CreateFMul(b.CreateFSub(y, x), a));
      });
    case GLSLstd450Step:
      return per_leaf([&](size_t i) {
        llvm::Value *edge = arg(0, i), *x = arg(1, i);
        return b.CreateSelect(b.CreateFCmpOLT(x, edge), fconst(x, 0), fconst(x, 1));
      });
    case GLSLstd450SmoothStep:
      return per_leaf([&](size_t i) {
        llvm::Value *e0 = arg(0, i), *e1 = arg(1, i), *x = arg(2, i);
        llvm::Value* t = b.CreateFDiv(b.CreateFSub(x, e0), b.CreateFSub(e1, e0));
        t = float_min_max(b, llvm::Intrinsic::minnum, float_min_max(b, llvm::Intrinsic::maxnum, t, fconst(t, 0)), fconst(t, 1));
        return b.CreateFMul(b.CreateFMul(t, t), b.CreateFSub(fconst(t, 3), b.CreateFMul(fconst(t, 2), t)));
      });
    case GLSLstd450Fma:
      // Vulkan's precision for fma is that of a multiply followed by an add, so fusing is optional:
      // fmuladd fuses on hosts with FMA instructions and avoids a libm call on the others.
      return per_leaf([&](size_t i) {
        return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {arg(0, i)->getType()}, {arg(0, i), arg(1, i), arg(2, i)});
      });
    case GLSLstd450Ldexp:
      // Half lanes go through float: a half times 2^e is exact in float for every e that does not
      // already make the result 0 or infinity in half, so the one rounding is the conversion back.
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        if (!x->getType()->getScalarType()->isHalfTy()) return inline_ldexp(b, x, arg(1, i));
        llvm::Value* wide = inline_ldexp(b, b.CreateFPExt(x, lane_type(b.getFloatTy())), arg(1, i));
        return b.CreateFPTrunc(wide, x->getType());
      });
    case GLSLstd450PackDouble2x32: {
      // A bit cast of the uvec2 (low word first) to a double.
      llvm::Type* i64 = lane_type(b.getInt64Ty());
      llvm::Value* low = b.CreateZExt(args[0].leaves[0], i64);
      llvm::Value* high = b.CreateShl(b.CreateZExt(args[0].leaves[1], i64), llvm::ConstantInt::get(i64, 32));
      set(inst.result, Value{{b.CreateBitCast(b.CreateOr(low, high), lane_type(b.getDoubleTy()))}});
      return true;
    }
    case GLSLstd450UnpackDouble2x32: {
      llvm::Value* bits = b.CreateBitCast(args[0].leaves[0], lane_type(b.getInt64Ty()));
      llvm::Type* i32 = lane_type(b.getInt32Ty());
      set(inst.result, Value{{b.CreateTrunc(bits, i32), b.CreateTrunc(b.CreateLShr(bits, 32), i32)}});
      return true;
    }
    case GLSLstd450Length:
      set(inst.result, Value{{b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, dot(0, 0))}});
      return true;
    case GLSLstd450Distance: {
      llvm::Value* acc = nullptr;
      for (size_t i = 0; i < args[0].leaves.size(); ++i) {
        llvm::Value* d = b.CreateFSub(args[0].leaves[i], args[1].leaves[i]);
        acc = acc ? b.CreateFAdd(acc, b.CreateFMul(d, d)) : b.CreateFMul(d, d);
      }
      set(inst.result, Value{{b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, acc)}});
      return true;
    }
    case GLSLstd450Normalize: {
      llvm::Value* inv = b.CreateFDiv(fconst(args[0].leaves[0], 1.0), b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, dot(0, 0)));
      return per_leaf([&](size_t i) { return b.CreateFMul(arg(0, i), inv); });
    }
    case GLSLstd450Cross: {
      auto x = args[0].leaves, y = args[1].leaves;
      auto cross = [&](int a, int c) { return b.CreateFSub(b.CreateFMul(x[a], y[c]), b.CreateFMul(y[a], x[c])); };
      set(inst.result, Value{{cross(1, 2), cross(2, 0), cross(0, 1)}});
      return true;
    }
    case GLSLstd450FaceForward: {
      llvm::Value* flip = b.CreateFCmpOLT(dot(2, 1), fconst(args[0].leaves[0], 0));
      return per_leaf([&](size_t i) { return b.CreateSelect(flip, arg(0, i), b.CreateFNeg(arg(0, i))); });
    }
    case GLSLstd450Reflect: {
      llvm::Value* d2 = b.CreateFMul(fconst(args[0].leaves[0], 2), dot(1, 0));
      return per_leaf([&](size_t i) { return b.CreateFSub(arg(0, i), b.CreateFMul(d2, arg(1, i))); });
    }
    case GLSLstd450Refract: {
      llvm::Value* eta = args[2].leaves[0];
      llvm::Value* d = dot(1, 0);
      llvm::Value* one = fconst(d, 1);
      llvm::Value* k = b.CreateFSub(one, b.CreateFMul(b.CreateFMul(eta, eta), b.CreateFSub(one, b.CreateFMul(d, d))));
      llvm::Value* total = b.CreateFCmpOLT(k, fconst(k, 0));
      llvm::Value* scale = b.CreateFAdd(b.CreateFMul(eta, d), b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, k));
      return per_leaf([&](size_t i) {
        llvm::Value* r = b.CreateFSub(b.CreateFMul(eta, arg(0, i)), b.CreateFMul(scale, arg(1, i)));
        return b.CreateSelect(total, fconst(r, 0), r);
      });
    }
    case GLSLstd450FindILsb:
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        llvm::Value* tz = b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, x, b.getTrue());
        return b.CreateSelect(b.CreateICmpEQ(x, llvm::Constant::getNullValue(x->getType())), llvm::Constant::getAllOnesValue(x->getType()), tz);
      });
    case GLSLstd450FindUMsb:
    case GLSLstd450FindSMsb:
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        llvm::Type* t = x->getType();
        // For signed values the most significant bit that differs from the sign bit.
        if (op == GLSLstd450FindSMsb)
          x = b.CreateSelect(b.CreateICmpSLT(x, llvm::Constant::getNullValue(t)), b.CreateNot(x), x);
        llvm::Value* lz = b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, b.getFalse());
        return b.CreateSub(llvm::ConstantInt::get(t, t->getScalarSizeInBits() - 1), lz);  // 0 → -1
      });
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct: {
      Value fract, whole;
      for (size_t i = 0; i < leaves; ++i) {
        llvm::Value* w = b.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, arg(0, i));
        whole.leaves.push_back(w);
        fract.leaves.push_back(b.CreateFSub(arg(0, i), w));
      }
      if (op == GLSLstd450Modf) {
        const Pointer whole_out = get_pointer(ops[3]);
        store(whole_out, whole_out.pointee, whole);
        set(inst.result, std::move(fract));
      } else {
        fract.leaves.insert(fract.leaves.end(), whole.leaves.begin(), whole.leaves.end());
        set(inst.result, std::move(fract));
      }
      return true;
    }
    case GLSLstd450Frexp:
    case GLSLstd450FrexpStruct: {
      // The exponent has the shader's integer type (32-bit in GLSL; SPIR-V allows other widths).
      const Id exponent_type = op == GLSLstd450Frexp ? get_pointer(ops[3]).pointee : m.type(inst.result_type).members.at(1);
      std::vector<Id> exponent_scalars;
      scalar_types(exponent_type, &exponent_scalars);
      llvm::Type* exponent_lanes = lane_type(leaf_type(exponent_scalars.at(0)));
      Value mantissa, exponent;
      for (size_t i = 0; i < leaves; ++i) {
        auto [fraction, e] = inline_frexp(b, arg(0, i));
        mantissa.leaves.push_back(fraction);
        exponent.leaves.push_back(b.CreateSExtOrTrunc(e, exponent_lanes));
      }
      if (op == GLSLstd450Frexp) {
        const Pointer exponent_out = get_pointer(ops[3]);
        store(exponent_out, exponent_out.pointee, exponent);
      } else {
        mantissa.leaves.insert(mantissa.leaves.end(), exponent.leaves.begin(), exponent.leaves.end());
      }
      set(inst.result, std::move(mantissa));
      return true;
    }
    case GLSLstd450PackHalf2x16: {
      llvm::Type* i32 = lane_type(b.getInt32Ty());
      auto half_bits = [&](llvm::Value* f) {
        return b.CreateZExt(b.CreateBitCast(b.CreateFPTrunc(f, lane_type(b.getHalfTy())), lane_type(b.getInt16Ty())), i32);
      };
      llvm::Value* r = b.CreateOr(half_bits(args[0].leaves[0]), b.CreateShl(half_bits(args[0].leaves[1]), llvm::ConstantInt::get(i32, 16)));
      set(inst.result, Value{{r}});
      return true;
    }
    case GLSLstd450UnpackHalf2x16: {
      llvm::Value* x = args[0].leaves[0];
      auto from_half = [&](llvm::Value* bits16) {
        return b.CreateFPExt(b.CreateBitCast(b.CreateTrunc(bits16, lane_type(b.getInt16Ty())), lane_type(b.getHalfTy())),
                             lane_type(b.getFloatTy()));
      };
      set(inst.result, Value{{from_half(x), from_half(b.CreateLShr(x, llvm::ConstantInt::get(x->getType(), 16)))}});
      return true;
    }
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm4x8:
    case GLSLstd450PackUnorm2x16:
    case GLSLstd450PackSnorm2x16: {
      const bool snorm = op == GLSLstd450PackSnorm4x8 || op == GLSLstd450PackSnorm2x16;
      const unsigned bits = (op == GLSLstd450PackUnorm4x8 || op == GLSLstd450PackSnorm4x8) ? 8 : 16;
      llvm::Type* i32 = lane_type(b.getInt32Ty());
      llvm::Value* acc = llvm::Constant::getNullValue(i32);
      const double scale = snorm ? (1 << (bits - 1)) - 1 : (1u << bits) - 1;
      for (size_t c = 0; c < args[0].leaves.size(); ++c) {
        llvm::Value* f = args[0].leaves[c];
        f = b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, f, fconst(f, snorm ? -1 : 0)), fconst(f, 1));
        llvm::Value* q = b.CreateFPToSI(b.CreateUnaryIntrinsic(llvm::Intrinsic::round, b.CreateFMul(f, fconst(f, scale))), i32);
        q = b.CreateAnd(q, llvm::ConstantInt::get(i32, (1u << bits) - 1));
        acc = b.CreateOr(acc, b.CreateShl(q, llvm::ConstantInt::get(i32, c * bits)));
      }
      set(inst.result, Value{{acc}});
      return true;
    }
    case GLSLstd450UnpackUnorm4x8:
    case GLSLstd450UnpackSnorm4x8:
    case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackSnorm2x16: {
      const bool snorm = op == GLSLstd450UnpackSnorm4x8 || op == GLSLstd450UnpackSnorm2x16;
      const unsigned bits = (op == GLSLstd450UnpackUnorm4x8 || op == GLSLstd450UnpackSnorm4x8) ? 8 : 16;
      llvm::Value* x = args[0].leaves[0];
      llvm::Type* f32 = lane_type(b.getFloatTy());
      Value r;
      for (unsigned c = 0; c < 32 / bits; ++c) {
        llvm::Value* field = b.CreateTrunc(b.CreateLShr(x, llvm::ConstantInt::get(x->getType(), c * bits)), lane_type(b.getIntNTy(bits)));
        if (snorm) {
          llvm::Value* f = b.CreateFDiv(b.CreateSIToFP(field, f32), llvm::ConstantFP::get(f32, (1 << (bits - 1)) - 1));
          r.leaves.push_back(b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, f, llvm::ConstantFP::get(f32, -1.0)));
        } else {
          r.leaves.push_back(b.CreateFDiv(b.CreateUIToFP(field, f32), llvm::ConstantFP::get(f32, (1u << bits) - 1)));
        }
      }
      set(inst.result, std::move(r));
      return true;
    }
    case GLSLstd450Determinant: {
      const auto& m = args[0].leaves;
      const size_t n = m.size() == 4 ? 2 : m.size() == 9 ? 3 : 4;
      const std::vector<size_t> all = indices_except(n, n);
      set(inst.result, Value{{sub_determinant(b, m, n, all, all)}});
      return true;
    }
    case GLSLstd450MatrixInverse: {
      // The adjugate divided by the determinant: inverse[c][r] = cofactor(row c, column r) / det.
      const auto& m = args[0].leaves;
      const size_t n = m.size() == 4 ? 2 : m.size() == 9 ? 3 : 4;
      auto cofactor = [&](size_t row, size_t col) {
        llvm::Value* minor = sub_determinant(b, m, n, indices_except(n, row), indices_except(n, col));
        return (row + col) % 2 ? b.CreateFNeg(minor) : minor;
      };
      std::vector<llvm::Value*> cofactors(n * n);  // [row * n + col]
      for (size_t row = 0; row < n; ++row)
        for (size_t col = 0; col < n; ++col) cofactors[row * n + col] = cofactor(row, col);
      llvm::Value* det = nullptr;  // expansion along the first column
      for (size_t row = 0; row < n; ++row) {
        llvm::Value* term = b.CreateFMul(m[row], cofactors[row * n]);
        det = det ? b.CreateFAdd(det, term) : term;
      }
      llvm::Value* inverse_det = b.CreateFDiv(fconst(det, 1.0), det);
      Value r;
      for (size_t c = 0; c < n; ++c)
        for (size_t row = 0; row < n; ++row) r.leaves.push_back(b.CreateFMul(cofactors[c * n + row], inverse_det));
      set(inst.result, std::move(r));
      return true;
    }
    default:
      return fail(inst, "unsupported GLSL.std.450 instruction " + std::to_string(op));
  }
}

}  // namespace kiln::compiler
