#include "e2e/typed_rows.h"

#include "e2e/grouped_failures.h"

#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

namespace kiln::test {

uint16_t half_from_double(double x) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return sign | 0x7E00;
  const double a = std::fabs(x);
  if (a >= 65520.0) return sign | 0x7C00;  // 65504 + half an ULP and beyond round to infinity
  // Scaling by powers of two is exact, so nearbyint (ties to even) does the one rounding.
  if (a < 0x1p-14) return sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24));  // may round up to 2^-14
  int exponent = std::ilogb(a);                                                      // a in [2^e, 2^(e+1))
  uint32_t fraction = static_cast<uint32_t>(std::nearbyint((std::ldexp(a, -exponent) - 1.0) * 1024.0));
  if (fraction == 1024) {
    fraction = 0;
    ++exponent;
  }
  if (exponent > 15) return sign | 0x7C00;
  return sign | static_cast<uint16_t>(((exponent + 15) << 10) | fraction);
}

double double_from_half(uint16_t bits) {
  const double sign = bits & 0x8000 ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1F;
  const int fraction = bits & 0x3FF;
  if (exponent == 0x1F) return fraction ? std::nan("") : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(1024 + fraction, exponent - 25);
}

namespace {

// ULP of a binary float with `precision` significand bits and smallest normal exponent `min_exponent`.
double ulp_of(double x, int precision, int min_exponent) {
  const double a = std::fabs(x);
  // Infinities and NaNs are compared exactly (TypedExpectation::matches); ilogb of them is INT_MIN
  // or INT_MAX, and INT_MIN - precision overflowed (UBSan).
  if (!std::isfinite(a)) return std::numeric_limits<double>::infinity();
  if (a < std::ldexp(1.0, min_exponent)) return std::ldexp(1.0, min_exponent - precision + 1);
  return std::ldexp(1.0, std::ilogb(a) - precision + 1);
}

}  // namespace

double half_ulp(double x) { return ulp_of(x, 11, -14); }
double float_ulp(double x) { return ulp_of(x, 24, -126); }
double double_ulp(double x) { return ulp_of(x, 53, -1022); }

bool is_subnormal(double x, int bits) {
  const double smallest_normal = bits == 16 ? 0x1p-14 : bits == 32 ? 0x1p-126 : 0x1p-1022;
  return x != 0 && std::fabs(x) < smallest_normal;
}

uint64_t float_bits_of(double v, int float_bits) {
  if (float_bits == 16) return half_from_double(v);
  if (float_bits == 32) return std::bit_cast<uint32_t>(static_cast<float>(v));
  return std::bit_cast<uint64_t>(v);
}

namespace {

double value_of(uint64_t bits, int float_bits) {
  if (float_bits == 16) return double_from_half(static_cast<uint16_t>(bits));
  if (float_bits == 32) return std::bit_cast<float>(static_cast<uint32_t>(bits));
  return std::bit_cast<double>(bits);
}

}  // namespace

bool TypedExpectation::matches(uint64_t got) const {
  if (kind == Kind::Undefined) return true;
  if (float_bits == 16 && (got >> 16) != 0) return false;  // a float16 word has a clear high half
  switch (kind) {
    case Kind::Bits: return got == bits;
    case Kind::Float:
    case Kind::Near: {
      const double v = value_of(got, float_bits);
      if (std::isnan(value)) return std::isnan(v);
      if (kind == Kind::Float || std::isinf(value)) return v == value;
      return std::fabs(v - value) <= tolerance;
    }
    case Kind::OneOf:
      for (uint64_t o : options) {
        if (!float_bits && o == got) return true;
        if (float_bits) {
          const double want = value_of(o, float_bits), v = value_of(got, float_bits);
          if ((std::isnan(want) && std::isnan(v)) || want == v) return true;
        }
      }
      return false;
    case Kind::Undefined: break;
  }
  return true;
}

std::string TypedExpectation::describe() const {
  std::ostringstream s;
  s.precision(17);
  switch (kind) {
    case Kind::Bits: s << "0x" << std::hex << bits << std::dec; break;
    case Kind::Float: s << value << " exactly (f" << float_bits << ")"; break;
    case Kind::Near: s << value << " ± " << tolerance << " (f" << float_bits << ")"; break;
    case Kind::OneOf:
      s << "one of";
      for (uint64_t o : options) {
        s << " 0x" << std::hex << o << std::dec;
        if (float_bits) s << " (" << value_of(o, float_bits) << ")";
      }
      break;
    case Kind::Undefined: s << "anything"; break;
  }
  return s.str();
}

std::string TypedExpectation::describe_result(uint64_t got) const {
  std::ostringstream s;
  s.precision(17);
  s << "0x" << std::hex << got << std::dec;
  if (float_bits) s << " (" << value_of(float_bits == 16 ? got & 0xFFFF : got, float_bits) << ")";
  else if (words == 2) s << " (" << static_cast<int64_t>(got) << ")";
  else s << " (" << static_cast<int32_t>(got) << ")";
  return s.str();
}

void TypedExpected::add_float(const std::string& op, int float_bits, double v) {
  TypedExpectation e{op, TypedExpectation::Kind::Float, float_bits, float_bits == 64 ? 2u : 1u};
  e.value = v;
  add(std::move(e));
}

void TypedExpected::near(const std::string& op, int float_bits, double v, double tolerance) {
  TypedExpectation e{op, TypedExpectation::Kind::Near, float_bits, float_bits == 64 ? 2u : 1u};
  e.value = v;
  e.tolerance = tolerance;
  add(std::move(e));
}

void TypedExpected::float_or_flushed(const std::string& op, int float_bits, double v) {
  if (!is_subnormal(v, float_bits)) return add_float(op, float_bits, v);
  one_of_values(op, float_bits, {v, 0.0});  // by value: either zero
}

void TypedExpected::one_of_values(const std::string& op, int float_bits, const std::vector<double>& values) {
  TypedExpectation e{op, TypedExpectation::Kind::OneOf, float_bits, float_bits == 64 ? 2u : 1u};
  for (double v : values) e.options.push_back(float_bits_of(v, float_bits));
  add(std::move(e));
}

void TypedExpected::one_of(const std::string& op, uint32_t words, std::vector<uint64_t> options) {
  TypedExpectation e{op, TypedExpectation::Kind::OneOf, 0, words};
  e.options = std::move(options);
  add(std::move(e));
}

uint32_t TypedExpected::words() const {
  uint32_t total = 0;
  for (const TypedExpectation& e : list_) total += e.words;
  return total;
}

void check_typed_rows(const std::vector<TypedExpected>& expected, const uint32_t* rows, uint32_t row_words,
                      const std::function<std::string(size_t)>& describe) {
  GroupedFailures failures(describe);
  for (size_t i = 0; i < expected.size(); ++i) {
    const uint32_t* row = rows + i * row_words;
    if (row[0] != row_words) {
      failures.add_bad_row(i, row[0], row_words);
      continue;
    }
    uint32_t at = 1;
    for (const TypedExpectation& e : expected[i].list()) {
      uint64_t got = row[at];
      if (e.words == 2) got |= uint64_t{row[at + 1]} << 32;
      at += e.words;
      if (!e.matches(got)) failures.add(e.op, i, e.describe_result(got), e.describe());
    }
  }
  failures.report(expected.size());
}

}  // namespace kiln::test
