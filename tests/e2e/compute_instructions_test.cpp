// Shader instructions family by family: each tests/shaders/ops_*.comp runs one invocation per
// test case and appends its results to a row (ops_results.glsl); every result is compared with a
// CPU reference computed here. Integer results and IEEE-exact float operations must match
// exactly; the others must be within the Vulkan spec's precision requirements (appendix
// "Precision and Operation of SPIR-V Instructions"), whose bounds are spelled out at each use.
//
// The SIMD width is chosen once per process: ctest runs these tests at KILN_SIMD_WIDTH=4 and 8
// as well as the default (16 on AVX-512 hosts). KILN_TEST_DRIVER=lavapipe checks the tests.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numbers>
#include <sstream>

#include "e2e/compute_job.h"
#include "e2e/grouped_failures.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr uint32_t kLocalSize = 32;  // local_size_x of every ops_*.comp shader
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();

uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }
float float_of(uint32_t u) { return std::bit_cast<float>(u); }

// One unit in the last place of a float of magnitude |x| (the subnormal spacing below the normal range).
double ulp(double x) {
  const double magnitude = std::fabs(x);
  if (magnitude < 0x1p-126) return 0x1p-149;
  return std::ldexp(1.0, std::ilogb(magnitude) - 23);
}

// Deterministic test data.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint32_t next() {  // splitmix64, upper half
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<uint32_t>((z ^ (z >> 31)) >> 32);
  }
  uint32_t below(uint32_t n) { return next() % n; }
  int32_t between(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(below(static_cast<uint32_t>(hi - lo + 1)));
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() >> 8) * 0x1p-24f; }
  // A multiple of `step` in [lo, hi].
  float grid(float lo, float hi, float step) {
    return lo + step * static_cast<float>(below(static_cast<uint32_t>((hi - lo) / step) + 1));
  }

 private:
  uint64_t state_;
};

// --- Expected results ------------------------------------------------------------------------

// What one result word must be.
struct Expectation {
  enum class Kind { Bits, Float, Near, OneOf, Undefined };
  std::string op;
  Kind kind = Kind::Bits;
  uint32_t bits = 0;              // Bits
  double value = 0;               // Float (exact; any NaN matches NaN), Near
  double tolerance = 0;           // Near: |result - value| <= tolerance
  std::vector<uint32_t> options;  // OneOf: any of these bit patterns

  bool matches(uint32_t got) const {
    const float f = float_of(got);
    switch (kind) {
      case Kind::Bits: return got == bits;
      case Kind::Float: return std::isnan(value) ? std::isnan(f) : f == value;
      case Kind::Near:
        if (std::isnan(value) || std::isinf(value)) return std::isnan(value) ? std::isnan(f) : f == value;
        return std::fabs(static_cast<double>(f) - value) <= tolerance;
      case Kind::OneOf:
        for (uint32_t o : options)
          if (o == got) return true;
        return false;
      case Kind::Undefined: return true;
    }
    return false;
  }

  std::string describe() const {
    std::ostringstream s;
    s.precision(9);
    switch (kind) {
      case Kind::Bits: s << "0x" << std::hex << bits << std::dec << " (" << static_cast<int32_t>(bits) << ")"; break;
      case Kind::Float: s << value << " exactly"; break;
      case Kind::Near: s << value << " ± " << tolerance; break;
      case Kind::OneOf:
        s << "one of";
        for (uint32_t o : options) s << " 0x" << std::hex << o << std::dec << " (" << float_of(o) << ")";
        break;
      case Kind::Undefined: s << "anything"; break;
    }
    return s.str();
  }
};

// The expected results of one invocation, in the order its shader emits them.
class Expected {
 public:
  // `kiln`: the driver under test is Kiln, which computes IEEE-exact operations (division,
  // sqrt) exactly; other drivers get the spec's tolerance for them.
  explicit Expected(bool kiln) : kiln_(kiln) {}

  void u32(const std::string& op, uint32_t v) { add({op, Expectation::Kind::Bits, v}); }
  void i32(const std::string& op, int32_t v) { u32(op, static_cast<uint32_t>(v)); }
  void boolean(const std::string& op, bool v) { u32(op, v ? 1u : 0u); }
  // Exactly this float (either zero matches zero; any NaN matches NaN).
  void f32(const std::string& op, float v) { add({op, Expectation::Kind::Float, 0, v}); }
  void near(const std::string& op, double v, double tolerance) { add({op, Expectation::Kind::Near, 0, v, tolerance}); }
  // A correctly rounded IEEE 754 operation (division, sqrt) for which the spec allows `spec_ulps`
  // ULP: Kiln computes it exactly, other drivers get the spec's tolerance.
  void ieee(const std::string& op, float v, double spec_ulps) { near(op, v, kiln_ ? 0.0 : spec_ulps * ulp(v)); }
  void one_of(const std::string& op, std::vector<uint32_t> options) {
    Expectation e{op, Expectation::Kind::OneOf};
    e.options = std::move(options);
    add(std::move(e));
  }
  void undefined(const std::string& op) { add({op, Expectation::Kind::Undefined}); }
  // A result the Vulkan environment leaves undefined but Kiln defines (as core SPIR-V does).
  void defined_on_kiln(const std::string& op, uint32_t v) { kiln_ ? u32(op, v) : undefined(op); }

  // Vector and matrix forms: one expectation per component, named op[0], op[1], …
  void f32s(const std::string& op, const std::vector<float>& v) {
    for (size_t i = 0; i < v.size(); ++i) f32(op + "[" + std::to_string(i) + "]", v[i]);
  }
  void i32s(const std::string& op, const std::vector<int32_t>& v) {
    for (size_t i = 0; i < v.size(); ++i) i32(op + "[" + std::to_string(i) + "]", v[i]);
  }

  const std::vector<Expectation>& list() const { return list_; }

 private:
  void add(Expectation e) { list_.push_back(std::move(e)); }
  bool kiln_;
  std::vector<Expectation> list_;
};

// --- Running a shader over test cases --------------------------------------------------------

// Compares each invocation's row with its expectations. Mismatches are grouped by operation and
// the first few of each are shown, so one broken instruction makes one readable failure.
template <typename Case>
void check_rows(const std::vector<Case>& cases, const std::vector<Expected>& expected, const uint32_t* rows,
                uint32_t row_words) {
  GroupedFailures failures([&](size_t i) { return cases[i].describe(); });
  for (size_t i = 0; i < cases.size(); ++i) {
    const uint32_t* row = rows + i * row_words;
    if (row[0] != row_words) {
      failures.add_bad_row(i, row[0], row_words);
      continue;
    }
    const auto& list = expected[i].list();
    for (size_t k = 0; k < list.size(); ++k) {
      const uint32_t got = row[1 + k];
      if (list[k].matches(got)) continue;
      std::ostringstream g;
      g.precision(9);
      g << "0x" << std::hex << got << std::dec << " (" << static_cast<int32_t>(got) << " / " << float_of(got) << ")";
      failures.add(list[k].op, i, g.str(), list[k].describe());
    }
  }
  failures.report(cases.size());
}

// Runs test shader `shader` with one invocation per case (binding 0 holds the cases as a std430
// array, binding 1 receives the rows) and checks every result against `reference`. Cases are
// repeated to fill whole workgroups.
template <typename Case>
void run_cases(TestDevice& device, bool kiln, const std::string& shader, std::vector<Case> cases,
               const std::function<void(const Case&, Expected&)>& reference) {
  ASSERT_FALSE(cases.empty());
  for (size_t i = 0; cases.size() % kLocalSize != 0; ++i) cases.push_back(cases[i]);
  std::vector<Expected> expected;
  for (const Case& c : cases) {
    expected.emplace_back(kiln);
    reference(c, expected.back());
    ASSERT_EQ(expected.back().list().size(), expected.front().list().size()) << "the reference must emit a fixed list";
  }
  const uint32_t row_words = static_cast<uint32_t>(expected.front().list().size()) + 1;
  const uint32_t count = static_cast<uint32_t>(cases.size());

  Buffer input = device.create_buffer(sizeof(Case) * count, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  std::memcpy(input.mapped, cases.data(), sizeof(Case) * count);
  Buffer rows = device.create_buffer(uint64_t{row_words} * count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  const VkSpecializationMapEntry entry{0, 0, 4};  // constant_id 0: kRowWords
  const VkSpecializationInfo specialization{1, &entry, 4, &row_words};
  ComputeJob job(device, shader, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0,
                 &specialization);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS) << shader;
  job.bind_buffer(0, input);
  job.bind_buffer(1, rows);
  job.run(count / kLocalSize);
  check_rows(cases, expected, mapped_as<uint32_t>(rows), row_words);
}

class ComputeInstructionsTest : public VulkanTest {
 protected:
  template <typename Case>
  void run(const std::string& shader, std::vector<Case> cases,
           const std::function<void(const Case&, Expected&)>& reference) {
    run_cases(device(), is_kiln(), shader, std::move(cases), reference);
  }
};

std::string join(std::initializer_list<std::pair<const char*, std::string>> fields) {
  std::string s;
  for (const auto& [name, value] : fields) s += (s.empty() ? "" : " ") + std::string(name) + "=" + value;
  return s;
}
std::string str(float f) {
  std::ostringstream s;
  s.precision(9);
  s << f;
  return s.str();
}
template <typename T>
std::string str(T v) {
  return std::to_string(v);
}

// --- Integer arithmetic ----------------------------------------------------------------------

struct IntArithCase {
  int32_t a, b;
  uint32_t ua, ub;
  std::string describe() const { return join({{"a", str(a)}, {"b", str(b)}, {"ua", str(ua)}, {"ub", str(ub)}}); }
};

// Wrapping two's-complement arithmetic, as SPIR-V defines it (C++ signed overflow is undefined).
int32_t wrap_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
int32_t wrap_sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
int32_t wrap_mul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}
// Signed division is undefined for a zero divisor and for INT_MIN / -1 (the quotient overflows).
bool signed_division_defined(int32_t a, int32_t b) { return b != 0 && !(a == kIntMin && b == -1); }

TEST_F(ComputeInstructionsTest, IntegerArithmeticSignedAndUnsigned) {
  const int32_t signed_values[] = {0,   1,   -1,   2,     -2,     3,       -3,      7,           -7,         13,
                                   -13, 100, -100, 12345, -98765, kIntMax, kIntMin, kIntMin + 1, 0x40000000, 65536};
  const uint32_t unsigned_values[] = {0,         1,           2,           3,           5,           7,          10,
                                      255,       256,         999,         1000,        1001,        65535,      65536,
                                      123456789, 0x7FFFFFFFu, 0x80000000u, 3000000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  std::vector<IntArithCase> cases;
  for (size_t x = 0; x < std::size(signed_values); ++x)
    for (size_t y = 0; y < std::size(signed_values); ++y)
      cases.push_back({signed_values[x], signed_values[y], unsigned_values[x], unsigned_values[y]});

  run<IntArithCase>("ops_int_arith.comp", cases, [](const IntArithCase& c, Expected& e) {
    const int32_t a = c.a, b = c.b;
    e.i32("a + b", wrap_add(a, b));
    e.i32("a - b", wrap_sub(a, b));
    e.i32("a * b", wrap_mul(a, b));
    if (signed_division_defined(a, b)) {
      e.i32("a / b (OpSDiv)", a / b);
      // Vulkan leaves OpSMod and OpSRem undefined for negative operands; Kiln follows SPIR-V's
      // definitions: the remainder takes the sign of the divisor (SMod) or the dividend (SRem).
      const int32_t rem = a % b;
      const int32_t mod = rem != 0 && ((rem < 0) != (b < 0)) ? rem + b : rem;
      if (a >= 0 && b >= 0) {
        e.i32("a % b (OpSMod)", mod);
        e.i32("srem(a, b) (OpSRem)", rem);
      } else {
        e.defined_on_kiln("a % b (OpSMod)", static_cast<uint32_t>(mod));
        e.defined_on_kiln("srem(a, b) (OpSRem)", static_cast<uint32_t>(rem));
      }
    } else {
      e.undefined("a / b (OpSDiv)");
      e.undefined("a % b (OpSMod)");
      e.undefined("srem(a, b) (OpSRem)");
    }
    e.i32("-a", wrap_sub(0, a));
    if (a == kIntMin)
      e.undefined("abs(a)");  // not representable
    else
      e.i32("abs(a)", a < 0 ? -a : a);
    e.i32("sign(a)", (a > 0) - (a < 0));
    e.i32("min(a, b)", std::min(a, b));
    e.i32("max(a, b)", std::max(a, b));
    e.i32("clamp(a, lo, hi)", std::clamp(a, std::min(b, 5), std::max(b, 5)));
    e.u32("ua + ub", c.ua + c.ub);
    e.u32("ua - ub", c.ua - c.ub);
    e.u32("ua * ub", c.ua * c.ub);
    if (c.ub != 0) {
      e.u32("ua / ub", c.ua / c.ub);
      e.u32("ua % ub", c.ua % c.ub);
    } else {
      e.undefined("ua / ub");
      e.undefined("ua % ub");
    }
    e.u32("min(ua, ub)", std::min(c.ua, c.ub));
    e.u32("max(ua, ub)", std::max(c.ua, c.ub));
    e.u32("clamp(ua, lo, hi)", std::clamp(c.ua, std::min(c.ub, 1000u), std::max(c.ub, 1000u)));
    e.i32s("ivec2 * ivec2 + ivec2", {wrap_add(wrap_mul(a, 3), b), wrap_add(wrap_mul(b, -5), a)});
    e.i32("ivec3 / ivec3 [0]", a / 7);
    e.i32("ivec3 / ivec3 [1]", b / -3);
    if (signed_division_defined(a, b | 1))
      e.i32("ivec3 / ivec3 [2]", a / (b | 1));
    else
      e.undefined("ivec3 / ivec3 [2]");
  });
}

// --- Integer bit operations ------------------------------------------------------------------

struct IntBitsCase {
  uint32_t x, y;
  int32_t s;
  uint32_t shift;
  int32_t offset, count;
  std::string describe() const {
    return join({{"x", str(x)},
                 {"y", str(y)},
                 {"s", str(s)},
                 {"shift", str(shift)},
                 {"offset", str(offset)},
                 {"count", str(count)}});
  }
};

uint32_t low_bits(int32_t count) { return count >= 32 ? ~0u : (1u << count) - 1u; }
int32_t find_msb_unsigned(uint32_t x) { return x == 0 ? -1 : 31 - std::countl_zero(x); }

TEST_F(ComputeInstructionsTest, IntegerBitOperations) {
  Random random(1);
  std::vector<IntBitsCase> cases;
  const uint32_t specials[] = {0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x00010000u, 0xF0F0F0F0u, 12345};
  for (uint32_t k = 0; k < 160; ++k) {
    IntBitsCase c;
    c.x = k < std::size(specials) ? specials[k] : random.next() >> random.below(32);
    c.y = k % 5 == 0 ? specials[k / 5 % std::size(specials)] : random.next();
    c.s = k % 7 == 0 ? static_cast<int32_t>(specials[k / 7 % std::size(specials)])
                     : static_cast<int32_t>(random.next()) >> random.below(32);
    c.shift = k % 32;
    // Bitfields: every count from 0 to 32 at random offsets that keep offset + count <= 32.
    c.count = static_cast<int32_t>(k % 33);
    c.offset = static_cast<int32_t>(random.below(33 - c.count));
    cases.push_back(c);
  }
  run<IntBitsCase>("ops_int_bits.comp", cases, [](const IntBitsCase& c, Expected& e) {
    const uint32_t s = static_cast<uint32_t>(c.s);
    e.u32("x << shift", c.x << c.shift);
    e.u32("x >> shift (logical)", c.x >> c.shift);
    e.i32("s >> shift (arithmetic)", c.s >> c.shift);
    e.u32("s << shift", s << c.shift);
    e.u32("x & y", c.x & c.y);
    e.u32("x | y", c.x | c.y);
    e.u32("x ^ y", c.x ^ c.y);
    e.u32("~x", ~c.x);
    const uint32_t mask = c.count == 0 ? 0 : low_bits(c.count) << c.offset;
    e.u32("bitfieldInsert", (c.x & ~mask) | ((c.y << (c.offset & 31)) & mask));
    const uint32_t field = c.count == 0 ? 0 : (c.x >> c.offset) & low_bits(c.count);
    e.u32("bitfieldExtract (uint)", field);
    const uint32_t sfield = c.count == 0 ? 0 : (s >> c.offset) & low_bits(c.count);
    const bool negative = c.count > 0 && (sfield >> (c.count - 1)) & 1;
    e.u32("bitfieldExtract (int)", negative ? sfield | ~low_bits(c.count) : sfield);
    uint32_t reversed = 0;
    for (int b = 0; b < 32; ++b) reversed |= ((c.x >> b) & 1u) << (31 - b);
    e.u32("bitfieldReverse", reversed);
    e.i32("bitCount(x)", std::popcount(c.x));
    e.i32("bitCount(s)", std::popcount(s));
    e.i32("findLSB", c.x == 0 ? -1 : std::countr_zero(c.x));
    e.i32("findMSB (uint)", find_msb_unsigned(c.x));
    e.i32("findMSB (int)", find_msb_unsigned(c.s < 0 ? ~s : s));  // the highest bit unlike the sign bit
    e.u32("uaddCarry sum", c.x + c.y);
    e.u32("uaddCarry carry", c.x + c.y < c.x ? 1 : 0);
    e.u32("usubBorrow difference", c.x - c.y);
    e.u32("usubBorrow borrow", c.x < c.y ? 1 : 0);
    const uint64_t product = uint64_t{c.x} * c.y;
    e.u32("umulExtended msb", static_cast<uint32_t>(product >> 32));
    e.u32("umulExtended lsb", static_cast<uint32_t>(product));
    const int64_t sproduct = int64_t{c.s} * static_cast<int32_t>(c.y);
    e.u32("imulExtended msb", static_cast<uint32_t>(static_cast<uint64_t>(sproduct) >> 32));
    e.u32("imulExtended lsb", static_cast<uint32_t>(sproduct));
    const uint32_t second = c.x ^ c.y;
    e.u32("uaddCarry(uvec2) sum [0]", c.x + c.y);
    e.u32("uaddCarry(uvec2) sum [1]", c.y + second);
    e.u32("uaddCarry(uvec2) carry [0]", c.x + c.y < c.x ? 1 : 0);
    e.u32("uaddCarry(uvec2) carry [1]", c.y + second < c.y ? 1 : 0);
    const uint64_t products[2] = {uint64_t{c.x} * c.y, uint64_t{c.shift} * c.x};
    e.u32("umulExtended(uvec2) msb [0]", static_cast<uint32_t>(products[0] >> 32));
    e.u32("umulExtended(uvec2) msb [1]", static_cast<uint32_t>(products[1] >> 32));
    e.u32("umulExtended(uvec2) lsb [0]", static_cast<uint32_t>(products[0]));
    e.u32("umulExtended(uvec2) lsb [1]", static_cast<uint32_t>(products[1]));
  });
}

// --- Float arithmetic ------------------------------------------------------------------------

struct FloatArithCase {
  float a, b, c;
  std::string describe() const { return join({{"a", str(a)}, {"b", str(b)}, {"c", str(c)}}); }
};

// A value whose quotient by `divisor` is at least 0.05 away from an integer, so floor(x / y) and
// trunc(x / y) do not depend on the division's rounding.
float away_from_multiples(float x, float divisor) {
  const double q = static_cast<double>(x) / divisor;
  const double frac = q - std::floor(q);
  return frac < 0.05 || frac > 0.95 ? x + 0.3f * divisor : x;
}

// mod and rem are "inherited from x - y * floor(x / y)" (trunc for rem). With the quotient's
// integer part unaffected by rounding, the product and the difference each round once.
void expect_mod(Expected& e, const std::string& op, float x, float y, bool truncate) {
  const double q = static_cast<double>(x) / y;
  const double whole = truncate ? std::trunc(q) : std::floor(q);
  const double product = y * whole, result = x - product;
  e.near(op, result, ulp(product) + ulp(result));
}

TEST_F(ComputeInstructionsTest, FloatArithmetic) {
  Random random(2);
  std::vector<FloatArithCase> cases = {{1.0f, 3.0f, 0.5f},    {-7.5f, 2.0f, 1.0f}, {7.5f, -2.0f, -1.0f},
                                       {-7.5f, -2.0f, 3.25f}, {0.0f, 1.5f, -2.0f}, {-0.0f, -1.5f, 0.0f},
                                       {1000.0f, 0.1f, 1.0f}, {3.0f, 0.1f, 2.0f}};
  for (int k = 0; k < 120; ++k) {
    auto value = [&] {
      return std::ldexp(random.uniform(1.0f, 2.0f), random.between(-8, 8)) * (random.below(2) ? -1.0f : 1.0f);
    };
    cases.push_back({value(), value(), value()});
  }
  for (FloatArithCase& c : cases) {  // keep mod and rem away from their discontinuities
    c.a = away_from_multiples(c.a, c.b);
    c.c = away_from_multiples(c.c, c.b);
  }
  run<FloatArithCase>("ops_float_arith.comp", cases, [](const FloatArithCase& c, Expected& e) {
    // Add, subtract, multiply and negate are correctly rounded: exact. Division: 2.5 ULP.
    e.f32("a + b", c.a + c.b);
    e.f32("a - b", c.a - c.b);
    e.f32("a * b", c.a * c.b);
    e.ieee("a / b", c.a / c.b, 2.5);
    expect_mod(e, "mod(a, b) (OpFMod)", c.a, c.b, false);
    expect_mod(e, "frem(a, b) (OpFRem)", c.a, c.b, true);
    e.f32("-a", -c.a);
    // fma: "inherited from OpFMul followed by OpFAdd" — fused or not, each step rounded once.
    e.one_of("fma(a, b, c)", {bits_of(std::fma(c.a, c.b, c.c)), bits_of(c.a * c.b + c.c)});
    // sqrt: inherited from 1 / inversesqrt (2 ULP, then 2.5 ULP for the division).
    const float magnitude = std::fabs(c.a);
    e.ieee("sqrt(|a|)", std::sqrt(magnitude), 4.5);
    if (magnitude == 0)
      e.undefined("inversesqrt(|a|)");
    else
      e.near("inversesqrt(|a|)", 1.0 / std::sqrt(static_cast<double>(magnitude)), 2 * ulp(1.0 / std::sqrt(magnitude)));
    e.f32s("(vec3 + vec3) * vec3", {(c.a + c.c) * c.b, (c.b + c.a) * c.c, (c.c + c.b) * c.a});
    e.ieee("vec2 / vec2 [0]", c.a / c.b, 2.5);
    e.ieee("vec2 / vec2 [1]", c.c / c.a, 2.5);
    expect_mod(e, "mod(vec2, float) [0]", c.a, c.b, false);
    expect_mod(e, "mod(vec2, float) [1]", c.c, c.b, false);
  });
}

// --- Common float functions ------------------------------------------------------------------

struct FloatCommonCase {
  float a, b, t;
  int32_t e;
  std::string describe() const { return join({{"a", str(a)}, {"b", str(b)}, {"t", str(t)}, {"e", str(e)}}); }
};

TEST_F(ComputeInstructionsTest, CommonFloatFunctions) {
  Random random(3);
  std::vector<FloatCommonCase> cases;
  const float specials[] = {0.0f,  -0.0f, 0.5f,   -0.5f,    1.5f,  -1.5f, 2.5f,   -2.5f,      3.0f,
                            -3.0f, 0.25f, -7.75f, 123.456f, -0.3f, 1e6f,  -1e-3f, 8388607.5f, -4.5f};
  for (uint32_t k = 0; k < 128; ++k) {
    FloatCommonCase c;
    c.a = k < std::size(specials) ? specials[k] : random.uniform(-20.0f, 20.0f);
    c.b = k % 3 == 0 ? specials[k % std::size(specials)] : random.uniform(-20.0f, 20.0f);
    c.t = k % 8 == 0 ? 0.5f : random.uniform(0.0f, 1.0f);
    c.e = random.between(-20, 20);
    cases.push_back(c);
  }
  run<FloatCommonCase>("ops_float_common.comp", cases, [](const FloatCommonCase& c, Expected& e) {
    const float a = c.a;
    e.f32("abs", std::fabs(a));
    e.f32("sign", a > 0 ? 1.0f : a < 0 ? -1.0f : 0.0f);
    e.f32("floor", std::floor(a));
    e.f32("ceil", std::ceil(a));
    e.f32("trunc", std::trunc(a));
    // round(): "a fractional part of 0.5 rounds in a direction chosen by the implementation".
    if (std::fabs(a - std::trunc(a)) == 0.5f)
      e.one_of("round", {bits_of(std::trunc(a)), bits_of(std::round(a))});
    else
      e.f32("round", std::round(a));
    e.f32("roundEven", std::nearbyint(a));  // the host rounds to nearest even by default
    e.f32("fract", a - std::floor(a));
    e.f32("modf fraction", a - std::trunc(a));
    e.f32("modf whole", std::trunc(a));
    e.f32s("modf(vec2) fraction", {a - std::trunc(a), c.b - std::trunc(c.b)});
    e.f32s("modf(vec2) whole", {std::trunc(a), std::trunc(c.b)});
    e.f32("min", std::min(a, c.b));
    e.f32("max", std::max(a, c.b));
    e.f32("clamp", std::clamp(a, std::min(c.b, c.t), std::max(c.b, c.t)));
    // mix: inherited from x * (1 - a) + y * a: four roundings, bounded by an ULP of each input
    // and of the result.
    const double mixed = a * (1.0 - c.t) + static_cast<double>(c.b) * c.t;
    e.near("mix", mixed, ulp(a) + ulp(c.b) + ulp(mixed));
    e.f32("step", a < c.b ? 0.0f : 1.0f);
    // smoothstep: inherited from t * t * (3 - 2 * t), t = clamp((x - e0) / (e1 - e0), 0, 1): t is
    // within 4 ULP (relative 2^-21), the slope 6t(1 - t) is at most 1.5, and the polynomial adds
    // three roundings of values at most 3.
    const double e0 = std::min(c.b, c.t), e1 = std::max(c.b, c.t) + 1.0f;
    const double t = std::clamp((a - e0) / (e1 - e0), 0.0, 1.0);
    e.near("smoothstep", t * t * (3 - 2 * t), 1.5 * 0x1p-21 + 3 * 0x1p-22);
    e.f32("ldexp", std::ldexp(a, c.e));
    int exponent_a, exponent_b;
    const float mantissa_a = std::frexp(a, &exponent_a), mantissa_b = std::frexp(c.b, &exponent_b);
    e.f32s("frexp mantissa", {mantissa_a, mantissa_b});
    e.i32s("frexp exponent", {exponent_a, exponent_b});
    // radians/degrees: inherited from x * C — the constant and the product each round once.
    const double radians = a * (std::numbers::pi / 180), degrees = a * (180 / std::numbers::pi);
    e.near("radians", radians, 2 * ulp(radians));
    e.near("degrees", degrees, 2 * ulp(degrees));
    e.f32("mix(a, b, bool)", c.t > 0.5f ? c.b : a);
    e.f32s("min(vec2, vec2)", {std::min(a, c.t), std::min(c.b, c.t)});
    e.f32s("clamp(vec3)", {std::clamp(a, -1.0f, 1.0f), std::clamp(c.b, -1.0f, 1.0f), std::clamp(c.t, -1.0f, 1.0f)});
  });
}

// --- Transcendental functions ----------------------------------------------------------------

struct TranscendentalCase {
  float angle, tan_x, unit, any, y, hyp, acosh_x, exp_x, positive, base, power;
  std::string describe() const {
    return join({{"angle", str(angle)},
                 {"tan_x", str(tan_x)},
                 {"unit", str(unit)},
                 {"any", str(any)},
                 {"y", str(y)},
                 {"hyp", str(hyp)},
                 {"acosh_x", str(acosh_x)},
                 {"exp_x", str(exp_x)},
                 {"positive", str(positive)},
                 {"base", str(base)},
                 {"power", str(power)}});
  }
};

// Vulkan's bounds, as functions of the argument and the exact result.
double exp_tolerance(double x, double result) { return (3 + 2 * std::fabs(x)) * ulp(result); }  // exp, exp2
// log, log2: 3 ULP outside [0.5, 2]; absolute 2^-21 inside.
double log_tolerance(double x, double result) { return x >= 0.5 && x <= 2.0 ? 0x1p-21 : 3 * ulp(result); }
constexpr double kSinCosAbsolute = 0x1p-11;      // sin, cos: absolute error in [-pi, pi]
constexpr double kSqrtRelative = 4.5 * 0x1p-23;  // sqrt: inherited from 1 / inversesqrt
constexpr double kDivRelative = 2.5 * 0x1p-23;   // division

TEST_F(ComputeInstructionsTest, TranscendentalFunctionsWithinSpecPrecision) {
  Random random(4);
  std::vector<TranscendentalCase> cases;
  for (int k = 0; k < 128; ++k) {
    TranscendentalCase c;
    c.angle = random.uniform(-3.14159f, 3.14159f);
    c.tan_x = random.uniform(-1.2f, 1.2f);
    c.unit = random.uniform(-0.95f, 0.95f);
    c.any = k % 16 == 0 ? 0.0f : random.uniform(-10.0f, 10.0f);  // atan2(y, 0) included
    c.y = random.uniform(-10.0f, 10.0f);
    c.hyp = random.uniform(-5.0f, 5.0f);
    c.acosh_x = random.uniform(1.5f, 10.0f);
    c.exp_x = random.uniform(-10.0f, 10.0f);
    c.positive =
        k % 4 == 0 ? random.uniform(0.5f, 2.0f) : std::ldexp(random.uniform(1.0f, 2.0f), random.between(-10, 9));
    c.base = random.uniform(0.1f, 10.0f);
    c.power = random.uniform(-3.0f, 3.0f);
    cases.push_back(c);
  }
  run<TranscendentalCase>("ops_transcendental.comp", cases, [](const TranscendentalCase& c, Expected& e) {
    const double angle = c.angle;
    e.near("sin", std::sin(angle), kSinCosAbsolute);
    e.near("cos", std::cos(angle), kSinCosAbsolute);
    // tan: inherited from sin / cos.
    const double tan_x = c.tan_x, cos_t = std::cos(tan_x), tan_r = std::tan(tan_x);
    e.near("tan", tan_r, kSinCosAbsolute * (1 + std::fabs(tan_r)) / std::fabs(cos_t) + kDivRelative * std::fabs(tan_r));
    // asin/acos: inherited from atan2(x, sqrt(1 - x * x)) / atan2(sqrt(1 - x * x), x): atan2's
    // 4096 ULP plus the square root's error, scaled by the slope of atan2 (at most |x|).
    const double u = c.unit, root = std::sqrt(1 - u * u);
    const double root_error = root * kSqrtRelative + (ulp(u * u) + ulp(1 - u * u)) / (2 * root);
    e.near("asin", std::asin(u), 4096 * ulp(std::asin(u)) + std::fabs(u) * root_error);
    e.near("acos", std::acos(u), 4096 * ulp(std::acos(u)) + std::fabs(u) * root_error);
    e.near("atan", std::atan(c.any), 4096 * ulp(std::atan(c.any)));
    const double atan2 = std::atan2(c.y, c.any);
    e.near("atan2", atan2, 4096 * ulp(atan2));
    // sinh/cosh: inherited from (exp(x) -/+ exp(-x)) / 2; tanh from sinh / cosh.
    const double h = c.hyp, ep = std::exp(h), en = std::exp(-h);
    const double exp_errors = (exp_tolerance(h, ep) + exp_tolerance(-h, en)) / 2;
    const double sinh_error = exp_errors + ulp(std::sinh(h)), cosh_error = exp_errors + ulp(std::cosh(h));
    e.near("sinh", std::sinh(h), sinh_error);
    e.near("cosh", std::cosh(h), cosh_error);
    const double tanh = std::tanh(h);
    e.near("tanh", tanh, (sinh_error + std::fabs(tanh) * cosh_error) / std::cosh(h) + kDivRelative * std::fabs(tanh));
    // asinh/acosh: inherited from log(x +/- sqrt(x * x +/- 1)); the argument of log is accurate
    // to about the ULP of x (it may cancel: for negative x, asinh's argument is small).
    auto log_of_sum = [&](const char* op, double x, double sign) {
      const double inner = x * x + sign, root = std::sqrt(inner), argument = x + root;
      const double argument_error =
          ulp(x) + root * kSqrtRelative + (ulp(x * x) + ulp(inner)) / (2 * root) + ulp(argument);
      const double result = std::log(argument);
      e.near(op, result, log_tolerance(argument, result) + argument_error / argument);
    };
    log_of_sum("asinh", c.any, 1.0);
    log_of_sum("acosh", c.acosh_x, -1.0);
    // atanh: inherited from log((1 + x) / (1 - x)) / 2.
    const double ratio = (1 + u) / (1 - u);
    const double ratio_error = ratio * (kDivRelative + ulp(1 + u) / (1 + u) + ulp(1 - u) / (1 - u));
    e.near("atanh", std::atanh(u),
           (log_tolerance(ratio, std::log(ratio)) + ratio_error / ratio) / 2 + ulp(std::atanh(u)));
    const double x = c.exp_x;
    e.near("exp", std::exp(x), exp_tolerance(x, std::exp(x)));
    e.near("exp2", std::exp2(x), exp_tolerance(x, std::exp2(x)));
    const double p = c.positive;
    e.near("log", std::log(p), log_tolerance(p, std::log(p)));
    e.near("log2", std::log2(p), log_tolerance(p, std::log2(p)));
    // pow: inherited from exp2(y * log2(x)).
    const double t = c.power * std::log2(static_cast<double>(c.base)), pow = std::exp2(t);
    const double t_error = std::fabs(c.power) * log_tolerance(c.base, std::log2(static_cast<double>(c.base))) + ulp(t);
    e.near("pow", pow, pow * std::numbers::ln2 * t_error + exp_tolerance(t, pow));
    e.ieee("sqrt", std::sqrt(c.positive), 4.5);
    e.near("inversesqrt", 1 / std::sqrt(p), 2 * ulp(1 / std::sqrt(p)));
    e.near("sin(vec2) [0]", std::sin(angle), kSinCosAbsolute);
    e.near("sin(vec2) [1]", std::sin(-angle), kSinCosAbsolute);
  });
}

// --- Comparisons and booleans ----------------------------------------------------------------

struct CompareCase {
  float a, b;
  int32_t i, j;
  uint32_t u, v;
  std::string describe() const {
    return join({{"a", str(a)}, {"b", str(b)}, {"i", str(i)}, {"j", str(j)}, {"u", str(u)}, {"v", str(v)}});
  }
};

TEST_F(ComputeInstructionsTest, ComparisonsWithNaNAndBooleanLogic) {
  const float floats[] = {kNaN, kInf, -kInf, 0.0f, -0.0f, 1.0f, -1.0f, 2.5f, 1e30f, -1e-30f};
  const int32_t ints[] = {0, -1, 1, kIntMin, kIntMax, -5, 5, 100, -100, 7};
  const uint32_t uints[] = {0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 5, 100, 255, 256, 7};
  std::vector<CompareCase> cases;
  for (size_t x = 0; x < std::size(floats); ++x)
    for (size_t y = 0; y < std::size(floats); ++y)
      cases.push_back({floats[x], floats[y], ints[x], ints[y], uints[(x + y) % 10], uints[y]});

  run<CompareCase>("ops_compare.comp", cases, [](const CompareCase& c, Expected& e) {
    const float a = c.a, b = c.b;
    const bool unordered = std::isnan(a) || std::isnan(b);
    // C++'s operators are the ordered comparisons, except != which is unordered.
    e.boolean("OpFOrdEqual", a == b);
    e.boolean("OpFUnordEqual", unordered || a == b);
    e.boolean("OpFOrdNotEqual", !unordered && a != b);
    e.boolean("OpFUnordNotEqual", a != b);
    e.boolean("OpFOrdLessThan", a < b);
    e.boolean("OpFUnordLessThan", unordered || a < b);
    e.boolean("OpFOrdGreaterThan", a > b);
    e.boolean("OpFUnordGreaterThan", unordered || a > b);
    e.boolean("OpFOrdLessThanEqual", a <= b);
    e.boolean("OpFUnordLessThanEqual", unordered || a <= b);
    e.boolean("OpFOrdGreaterThanEqual", a >= b);
    e.boolean("OpFUnordGreaterThanEqual", unordered || a >= b);
    e.boolean("isnan(a)", std::isnan(a));
    e.boolean("isinf(a)", std::isinf(a));
    e.boolean("isnan(vec2).y", std::isnan(b));
    e.boolean("isinf(vec2).y", std::isinf(b));
    e.boolean("i < j", c.i < c.j);
    e.boolean("i <= j", c.i <= c.j);
    e.boolean("i > j", c.i > c.j);
    e.boolean("i >= j", c.i >= c.j);
    e.boolean("i == j", c.i == c.j);
    e.boolean("i != j", c.i != c.j);
    e.boolean("u < v", c.u < c.v);
    e.boolean("u <= v", c.u <= c.v);
    e.boolean("u > v", c.u > c.v);
    e.boolean("u >= v", c.u >= c.v);
    e.boolean("u == v", c.u == c.v);
    e.boolean("u != v", c.u != c.v);
    e.boolean("uint(i) < uint(j)", static_cast<uint32_t>(c.i) < static_cast<uint32_t>(c.j));
    const bool p[4] = {c.i < c.j, c.u < c.v, c.i == c.j, std::isnan(a)};
    const bool q[4] = {c.u > c.v, c.j < 0, c.i < 0, std::isinf(b)};
    e.boolean("any(p)", p[0] || p[1] || p[2] || p[3]);
    e.boolean("all(p)", p[0] && p[1] && p[2] && p[3]);
    e.boolean("any(not(p))", !p[0] || !p[1] || !p[2] || !p[3]);
    e.boolean("all(not(q))", !q[0] && !q[1] && !q[2] && !q[3]);
    uint32_t equal = 0, not_equal = 0;
    for (int k = 0; k < 4; ++k) {
      equal |= uint32_t{p[k] == q[k]} << k;
      not_equal |= uint32_t{p[k] != q[k]} << k;
    }
    e.u32("equal(bvec4, bvec4)", equal);
    e.u32("notEqual(bvec4, bvec4)", not_equal);
    e.boolean("p.x && q.x", p[0] && q[0]);
    e.boolean("p.y || q.y", p[1] || q[1]);
    e.boolean("p.z ^^ q.z", p[2] != q[2]);
    e.boolean("p.w == q.w", p[3] == q[3]);
    e.boolean("!p.x", !p[0]);
    const float x[4] = {a, b, static_cast<float>(c.i), static_cast<float>(c.j)};
    const float y[4] = {static_cast<float>(c.u & 0xFFu), 2.5f, -b, 0.0f};
    for (int k = 0; k < 4; ++k) e.f32("mix(y, x, bvec4) [" + std::to_string(k) + "]", p[k] ? x[k] : y[k]);
    for (int k = 0; k < 4; ++k) e.f32("i < j ? x : y [" + std::to_string(k) + "]", c.i < c.j ? x[k] : y[k]);
    e.i32s("mix(ivec2, ivec2, bvec2)", {q[0] ? c.j : c.i, q[1] ? c.i : c.j});
  });
}

// --- Conversions, bitcasts and packing -------------------------------------------------------

struct alignas(16) ConvertCase {
  float v[4];
  float f, big;
  int32_t i;
  uint32_t u, bits;
  float q;
  std::string describe() const {
    return join({{"v", str(v[0]) + "," + str(v[1]) + "," + str(v[2]) + "," + str(v[3])},
                 {"f", str(f)},
                 {"big", str(big)},
                 {"i", str(i)},
                 {"u", str(u)},
                 {"bits", str(bits)},
                 {"q", str(q)}});
  }
};
static_assert(sizeof(ConvertCase) == 48);  // std430 array stride

// Float → half bits, rounding to nearest even or toward zero; out-of-range values become
// infinity (nearest) or the largest half (toward zero). Used for values in half's normal range.
uint16_t to_half(float value, bool to_nearest) {
  const uint32_t sign = bits_of(value) >> 16 & 0x8000u;
  const double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude == 0) return static_cast<uint16_t>(sign);
  int exponent = std::ilogb(magnitude);                        // value = m * 2^exponent, 1 <= m < 2
  if (exponent < -14) exponent = -14;                          // subnormal halves share the smallest exponent
  const double scaled = std::ldexp(magnitude, 10 - exponent);  // 10 fraction bits
  double units = to_nearest ? std::nearbyint(scaled) : std::trunc(scaled);
  uint32_t result = static_cast<uint32_t>(exponent + 15 - 1) * 1024u + static_cast<uint32_t>(units);  // carries fold in
  if (exponent == -14 && units < 1024) result = static_cast<uint32_t>(units);                         // subnormal
  if (result >= 0x7C00u) result = to_nearest ? 0x7C00u : 0x7BFFu;
  return static_cast<uint16_t>(sign | result);
}

float from_half(uint16_t h) {
  const uint32_t exponent = h >> 10 & 0x1Fu, fraction = h & 0x3FFu;
  const double magnitude =
      exponent == 0 ? std::ldexp(fraction, -24) : std::ldexp(1024 + fraction, static_cast<int>(exponent) - 25);
  return static_cast<float>(h & 0x8000u ? -magnitude : magnitude);
}

// The integers a conforming pack may produce for round(c * scale): the product is a float
// multiplication (whose rounding may land exactly halfway) and round() may go either way from
// halfway, so the candidates are the nearest integers to the exact and to the float product.
std::vector<int32_t> nearest_integers(double c, double scale) {
  const double exact = c * scale, rounded = static_cast<float>(c * scale);
  std::vector<int32_t> options;
  for (double candidate : {std::round(exact), std::floor(rounded + 0.5), std::ceil(rounded - 0.5)})
    if (std::find(options.begin(), options.end(), static_cast<int32_t>(candidate)) == options.end())
      options.push_back(static_cast<int32_t>(candidate));
  return options;
}

// All packings of `components` (each `width` bits) given each component's possible roundings.
std::vector<uint32_t> pack_options(const std::vector<std::vector<int32_t>>& components, int width) {
  std::vector<uint32_t> options = {0};
  for (size_t c = 0; c < components.size(); ++c) {
    std::vector<uint32_t> next;
    for (uint32_t partial : options)
      for (int32_t value : components[c])
        next.push_back(partial | (static_cast<uint32_t>(value) & low_bits(width)) << (c * width));
    options = next;
  }
  return options;
}

std::vector<uint32_t> pack_norm(const float* v, size_t count, int width, bool is_signed) {
  const double scale = is_signed ? (1 << (width - 1)) - 1 : (1u << width) - 1;
  std::vector<std::vector<int32_t>> components;
  for (size_t c = 0; c < count; ++c)
    components.push_back(nearest_integers(std::clamp(static_cast<double>(v[c]), is_signed ? -1.0 : 0.0, 1.0), scale));
  return pack_options(components, width);
}

void expect_unpack_norm(Expected& e, const std::string& op, uint32_t bits, int width, bool is_signed) {
  for (int c = 0; c < 32 / width; ++c) {
    const uint32_t field = bits >> (c * width) & low_bits(width);
    const std::string name = op + " [" + std::to_string(c) + "]";
    if (is_signed) {
      const int32_t value = static_cast<int32_t>(field << (32 - width)) >> (32 - width);
      const float scale = static_cast<float>((1 << (width - 1)) - 1);
      e.ieee(name, std::max(static_cast<float>(value) / scale, -1.0f), 2.5);  // inherited from a division
    } else {
      e.ieee(name, static_cast<float>(field) / static_cast<float>(low_bits(width)), 2.5);
    }
  }
}

TEST_F(ComputeInstructionsTest, ConversionsBitcastsAndPacking) {
  Random random(5);
  std::vector<ConvertCase> cases;
  const float pack_values[] = {0.0f, 1.0f, -1.0f, 0.25f, 0.3f, -0.7f, 1.5f, -2.0f, 0.123f, 0.999f, 0.5f, -0.5f};
  const float quantize_values[] = {1.0f,  -2.5f,    0.1f, 1e-6f,    -1e-7f,  1e6f,
                                   -1e6f, 65504.0f, 0.0f, 3.14159f, 6.1e-5f, 1000.06f};
  for (uint32_t k = 0; k < 128; ++k) {
    ConvertCase c{};
    for (int n = 0; n < 4; ++n)
      c.v[n] = k % 2 ? pack_values[(k + n * 5) % std::size(pack_values)] : random.uniform(-1.25f, 1.25f);
    c.f = k % 3 == 0 ? random.uniform(-2e9f, 2e9f) : random.uniform(-100.0f, 100.0f);
    c.big = k % 3 == 0 ? random.uniform(2147483648.0f, 4294967040.0f) : random.uniform(0.0f, 1000.0f);
    c.i = k % 4 == 0 ? static_cast<int32_t>(random.next()) : random.between(-100000, 100000);
    c.u = k % 4 == 1 ? random.next() : k == 2 ? 0xFFFFFFFFu : k == 6 ? 16777217u : random.below(1000);
    // Two normal halves, which also make a normal float.
    auto half = [&] {
      return random.below(2) << 15 | static_cast<uint32_t>(random.between(1, 30)) << 10 | random.below(1024);
    };
    c.bits = half() << 16 | half();
    c.q = k < std::size(quantize_values) ? quantize_values[k]
                                         : std::ldexp(random.uniform(-2.0f, 2.0f), random.between(-12, 14));
    cases.push_back(c);
  }
  run<ConvertCase>("ops_convert.comp", cases, [](const ConvertCase& c, Expected& e) {
    e.i32("int(float)", static_cast<int32_t>(c.f));  // truncation toward zero
    e.u32("uint(float)", static_cast<uint32_t>(c.big));
    e.f32("float(int)", static_cast<float>(c.i));  // conversions are correctly rounded
    e.f32("float(uint)", static_cast<float>(c.u));
    e.i32s("ivec2(vec2)", {static_cast<int32_t>(c.f), static_cast<int32_t>(-c.f)});
    e.u32("floatBitsToUint + 1", bits_of(c.f) + 1);
    e.i32("floatBitsToInt >> 1", static_cast<int32_t>(bits_of(c.f)) >> 1);
    e.u32("abs(uintBitsToFloat)", c.bits & 0x7FFFFFFFu);
    e.u32("-intBitsToFloat", c.bits ^ 0x80000000u);
    e.i32("int(uint) >> 1", static_cast<int32_t>(c.u) >> 1);
    e.u32("uint(int) >> 1", static_cast<uint32_t>(c.i) >> 1);
    e.f32("float(bool)", c.f > 0 ? 1.0f : 0.0f);
    e.i32("int(bool(int))", c.i != 0);
    e.u32("uint(bool(uint)) + 2 uint(bool(float))", (c.u != 0) + 2u * (c.f != 0));
    // packHalf2x16: the conversion's rounding direction is the implementation's choice.
    std::vector<uint32_t> half_options;
    for (bool nearest_x : {true, false})
      for (bool nearest_y : {true, false})
        half_options.push_back(uint32_t{to_half(c.v[1], nearest_y)} << 16 | to_half(c.v[0], nearest_x));
    e.one_of("packHalf2x16", half_options);
    e.f32s("unpackHalf2x16",
           {from_half(static_cast<uint16_t>(c.bits)), from_half(static_cast<uint16_t>(c.bits >> 16))});
    e.one_of("packUnorm4x8", pack_norm(c.v, 4, 8, false));
    expect_unpack_norm(e, "unpackUnorm4x8", c.bits, 8, false);
    e.one_of("packSnorm4x8", pack_norm(c.v, 4, 8, true));
    expect_unpack_norm(e, "unpackSnorm4x8", c.bits, 8, true);
    e.one_of("packUnorm2x16", pack_norm(c.v, 2, 16, false));
    expect_unpack_norm(e, "unpackUnorm2x16", c.bits, 16, false);
    e.one_of("packSnorm2x16", pack_norm(c.v + 2, 2, 16, true));
    expect_unpack_norm(e, "unpackSnorm2x16", c.bits, 16, true);
    // OpQuantizeToF16: values too small for a normal half become a zero (of either sign), values
    // too large an infinity; the others round to a neighbouring half.
    const double magnitude = std::fabs(c.q);
    if (magnitude < 0x1p-14) {
      e.one_of("quantizeToF16", {0u, 0x80000000u});
    } else if (magnitude > 65520.0) {
      e.f32("quantizeToF16", c.q > 0 ? kInf : -kInf);
    } else {
      e.one_of("quantizeToF16", {bits_of(from_half(to_half(c.q, true))), bits_of(from_half(to_half(c.q, false)))});
    }
  });
}

// --- Geometric functions ---------------------------------------------------------------------

struct alignas(16) VectorCase {
  float a[4], b[4], c[4], incident[4], normal[4];
  float eta;
  std::string describe() const {
    std::string s;
    const std::initializer_list<std::pair<const char*, const float*>> vectors = {
        {"a", a}, {"b", b}, {"c", c}, {"incident", incident}, {"normal", normal}};
    for (auto [name, v] : vectors)
      s += std::string(name) + "=(" + str(v[0]) + "," + str(v[1]) + "," + str(v[2]) + "," + str(v[3]) + ") ";
    return s + "eta=" + str(eta);
  }
};
static_assert(sizeof(VectorCase) == 96);

// Sum of products of n components: exact for the test's multiples of 1/4, in any order.
float dot_n(const float* x, const float* y, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

TEST_F(ComputeInstructionsTest, GeometricFunctions) {
  Random random(6);
  std::vector<VectorCase> cases;
  while (cases.size() < 128) {
    VectorCase c{};
    for (int n = 0; n < 4; ++n) {
      c.a[n] = random.grid(-4, 4, 0.25f);
      c.b[n] = random.grid(-4, 4, 0.25f);
      c.c[n] = random.grid(-4, 4, 0.25f);
    }
    if (dot_n(c.a, c.a, 2) == 0) c.a[0] = 1.0f;  // normalize(a) and length(a.xy) need a non-zero a
    // Unit incident and normal vectors, and a ratio of indices that avoids k near 0 (where the
    // square root is ill-conditioned); about a third of the cases reflect totally (k < 0).
    double in[3], nn[3];
    for (int n = 0; n < 3; ++n) {
      in[n] = random.uniform(-1, 1);
      nn[n] = random.uniform(-1, 1);
    }
    const double in_length = std::sqrt(in[0] * in[0] + in[1] * in[1] + in[2] * in[2]);
    const double n_length = std::sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
    if (in_length < 0.1 || n_length < 0.1) continue;
    for (int n = 0; n < 3; ++n) {
      c.incident[n] = static_cast<float>(in[n] / in_length);
      c.normal[n] = static_cast<float>(nn[n] / n_length);
    }
    c.eta = random.uniform(0.5f, 2.0f);
    const double d = dot_n(c.normal, c.incident, 3);
    const double k = 1.0 - static_cast<double>(c.eta) * c.eta * (1.0 - d * d);
    if (std::fabs(k) < 0.05) continue;
    cases.push_back(c);
  }
  run<VectorCase>("ops_vector.comp", cases, [](const VectorCase& c, Expected& e) {
    const float *a = c.a, *b = c.b;
    e.f32("dot(vec4)", dot_n(a, b, 4));
    e.f32("dot(vec2)", dot_n(a, b, 2));
    e.f32("dot(vec3)", dot_n(a, b, 3));
    e.f32s("cross", {a[1] * b[2] - b[1] * a[2], a[2] * b[0] - b[2] * a[0], a[0] * b[1] - b[0] * a[1]});
    // length/distance: inherited from sqrt(dot(x, x)), whose dot is exact here.
    e.ieee("length(vec4)", std::sqrt(dot_n(a, a, 4)), 4.5);
    e.ieee("length(vec2)", std::sqrt(dot_n(a, a, 2)), 4.5);
    float diff[4];
    for (int n = 0; n < 4; ++n) diff[n] = a[n] - b[n];
    e.ieee("distance", std::sqrt(dot_n(diff, diff, 4)), 4.5);
    // normalize: inherited from x / length(x): the division's 2.5 ULP plus the length's 4.5.
    const double length = std::sqrt(static_cast<double>(dot_n(a, a, 4)));
    for (int n = 0; n < 4; ++n) e.near("normalize [" + std::to_string(n) + "]", a[n] / length, 7 * ulp(a[n] / length));
    // reflect: I - 2 * dot(N, I) * N, exact here.
    const float twice_dot = 2 * dot_n(b, a, 3);
    e.f32s("reflect", {a[0] - twice_dot * b[0], a[1] - twice_dot * b[1], a[2] - twice_dot * b[2]});
    // refract: k = 1 - eta^2 (1 - dot(N, I)^2); 0 when k < 0, else eta I - (eta dot(N, I) + sqrt(k)) N.
    // Inherited precision: every intermediate is at most about 4 in magnitude (16 ULP of 4
    // covers the roundings), plus the square root's error magnified near k = 0.
    const double eta = c.eta;
    double d = 0;
    for (int n = 0; n < 3; ++n) d += static_cast<double>(c.normal[n]) * c.incident[n];
    const double k = 1 - eta * eta * (1 - d * d);
    for (int n = 0; n < 3; ++n) {
      const std::string name = "refract [" + std::to_string(n) + "]";
      if (k < 0)
        e.f32(name, 0.0f);
      else
        e.near(name, eta * c.incident[n] - (eta * d + std::sqrt(k)) * c.normal[n],
               16 * ulp(4.0) + 8 * 0x1p-23 / std::sqrt(k));
    }
    // faceforward(N, I, Nref): N if dot(Nref, I) < 0, else -N.
    const bool keep = dot_n(c.c, b, 3) < 0;
    e.f32s("faceforward", {keep ? a[0] : -a[0], keep ? a[1] : -a[1], keep ? a[2] : -a[2]});
    e.f32s("vec4 * float", {a[0] * b[3], a[1] * b[3], a[2] * b[3], a[3] * b[3]});
    e.f32s("vec4 * vec4", {a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]});
  });
}

// --- Matrices --------------------------------------------------------------------------------

struct alignas(16) MatrixCase {
  float m[32];
  float v[4];
  float direct[3][4];  // mat3, std430: each column padded to 16 bytes
  float s[16];
  float direct23[2][4];  // mat2x3: 2 columns of 3, padded to 16 bytes
  float direct32[3][2];  // mat3x2: 3 columns of 2
  std::string describe() const {
    std::string text = "m=";
    for (float x : m) text += str(x) + ",";
    text += " v=" + str(v[0]) + "," + str(v[1]) + "," + str(v[2]) + "," + str(v[3]);
    return text;
  }
};
static_assert(sizeof(MatrixCase) == 320);

// A column-major matrix for the CPU reference (GLSL's layout: element (column, row)).
struct Matrix {
  int columns, rows;
  std::vector<double> e;
  Matrix(int c, int r) : columns(c), rows(r), e(static_cast<size_t>(c * r), 0.0) {}
  Matrix(int c, int r, const float* values) : Matrix(c, r) {
    for (size_t i = 0; i < e.size(); ++i) e[i] = values[i];
  }
  double& at(int c, int r) { return e[static_cast<size_t>(c * rows + r)]; }
  double at(int c, int r) const { return e[static_cast<size_t>(c * rows + r)]; }
  std::vector<float> floats() const { return std::vector<float>(e.begin(), e.end()); }
};

Matrix multiply(const Matrix& x, const Matrix& y) {
  Matrix r(y.columns, x.rows);
  for (int c = 0; c < y.columns; ++c)
    for (int row = 0; row < x.rows; ++row)
      for (int k = 0; k < x.columns; ++k) r.at(c, row) += x.at(k, row) * y.at(c, k);
  return r;
}
Matrix column(const float* v, int n) { return Matrix(1, n, v); }  // a vector as an n×1 matrix
Matrix transpose(const Matrix& x) {
  Matrix r(x.rows, x.columns);
  for (int c = 0; c < x.columns; ++c)
    for (int row = 0; row < x.rows; ++row) r.at(row, c) = x.at(c, row);
  return r;
}
double determinant(const Matrix& x) {  // Laplace expansion along the first column
  if (x.columns == 1) return x.at(0, 0);
  double sum = 0;
  for (int row = 0; row < x.rows; ++row) {
    Matrix minor(x.columns - 1, x.rows - 1);
    for (int c = 1; c < x.columns; ++c)
      for (int r = 0, out = 0; r < x.rows; ++r)
        if (r != row) minor.at(c - 1, out++) = x.at(c, r);
    sum += (row % 2 ? -1 : 1) * x.at(0, row) * determinant(minor);
  }
  return sum;
}
Matrix inverse(const Matrix& x) {  // adjugate / determinant, in double
  const int n = x.columns;
  Matrix r(n, n);
  const double det = determinant(x);
  for (int c = 0; c < n; ++c)
    for (int row = 0; row < n; ++row) {
      Matrix minor(n - 1, n - 1);
      for (int mc = 0, oc = 0; mc < n; ++mc) {
        if (mc == row) continue;
        for (int mr = 0, orow = 0; mr < n; ++mr)
          if (mr != c) minor.at(oc, orow++) = x.at(mc, mr);
        ++oc;
      }
      r.at(c, row) = ((c + row) % 2 ? -1 : 1) * determinant(minor) / det;
    }
  return r;
}

TEST_F(ComputeInstructionsTest, MatrixOperations) {
  Random random(7);
  std::vector<MatrixCase> cases;
  for (int k = 0; k < 64; ++k) {
    MatrixCase c{};
    for (float& x : c.m) x = static_cast<float>(random.between(-4, 4));
    for (float& x : c.v) x = random.grid(-3, 3, 0.5f);
    for (auto& col : c.direct)
      for (int r = 0; r < 3; ++r) col[r] = static_cast<float>(random.between(-4, 4));
    for (auto& col : c.direct23)
      for (int r = 0; r < 3; ++r) col[r] = static_cast<float>(random.between(-4, 4));
    for (auto& col : c.direct32)
      for (float& x : col) x = static_cast<float>(random.between(-4, 4));
    for (int col = 0; col < 4; ++col)
      for (int r = 0; r < 4; ++r)
        c.s[col * 4 + r] = col == r ? static_cast<float>(random.between(6, 9) * (random.below(2) ? -1 : 1))
                                    : static_cast<float>(random.between(-2, 2));
    cases.push_back(c);
  }
  run<MatrixCase>("ops_matrix.comp", cases, [](const MatrixCase& c, Expected& e) {
    // Small integers and halves: every product, sum and determinant is exact in float.
    const Matrix a2(2, 2, c.m), b2(2, 2, c.m + 4), a3(3, 3, c.m), b3(3, 3, c.m + 9), a4(4, 4, c.m), b4(4, 4, c.m + 16);
    const Matrix n23(2, 3, c.m), n32(3, 2, c.m + 16);
    const Matrix v2 = column(c.v, 2), v3 = column(c.v, 3), v4 = column(c.v, 4);
    e.f32s("mat2 * vec2", multiply(a2, v2).floats());
    e.f32s("mat3 * vec3", multiply(a3, v3).floats());
    e.f32s("mat4 * vec4", multiply(a4, v4).floats());
    e.f32s("vec2 * mat2", multiply(transpose(v2), a2).floats());
    e.f32s("vec3 * mat3", multiply(transpose(v3), a3).floats());
    e.f32s("vec4 * mat4", multiply(transpose(v4), a4).floats());
    e.f32s("mat2 * mat2", multiply(a2, b2).floats());
    e.f32s("mat3 * mat3", multiply(a3, b3).floats());
    e.f32s("mat4 * mat4", multiply(a4, b4).floats());
    e.f32s("mat2x3 * vec2", multiply(n23, v2).floats());
    e.f32s("vec3 * mat2x3", multiply(transpose(v3), n23).floats());
    e.f32s("mat2x3 * mat3x2", multiply(n23, n32).floats());
    e.f32s("mat3x2 * mat2x3", multiply(n32, n23).floats());
    e.f32s("transpose(mat2x3)", transpose(n23).floats());
    e.f32s("transpose(mat4)", transpose(a4).floats());
    e.f32("determinant(mat2)", static_cast<float>(determinant(a2)));
    e.f32("determinant(mat3)", static_cast<float>(determinant(a3)));
    e.f32("determinant(mat4)", static_cast<float>(determinant(a4)));
    e.f32s("outerProduct(vec3, vec2)", multiply(v3, transpose(v2)).floats());
    std::vector<float> scaled;
    for (double x : a3.e) scaled.push_back(static_cast<float>(x * c.v[3]));
    e.f32s("mat3 * float", scaled);
    std::vector<float> sum;
    for (size_t i = 0; i < 4; ++i) sum.push_back(static_cast<float>(a2.e[i] + b2.e[i]));
    e.f32s("mat2 + mat2", sum);
    Matrix direct(3, 3);
    for (int col = 0; col < 3; ++col)
      for (int r = 0; r < 3; ++r) direct.at(col, r) = c.direct[col][r];
    e.f32s("mat3 (from the buffer) * vec3", multiply(direct, v3).floats());
    Matrix direct23(2, 3), direct32(3, 2);
    for (int col = 0; col < 2; ++col)
      for (int r = 0; r < 3; ++r) direct23.at(col, r) = c.direct23[col][r];
    for (int col = 0; col < 3; ++col)
      for (int r = 0; r < 2; ++r) direct32.at(col, r) = c.direct32[col][r];
    e.f32s("mat2x3 (from the buffer) * vec2", multiply(direct23, v2).floats());
    e.f32s("mat3x2 (from the buffer) * vec3", multiply(direct32, v3).floats());
    // inverse(): the spec gives no bound; these diagonally dominant matrices are well
    // conditioned, so a float computation is good to 2^-16 of the largest entry.
    const Matrix s4(4, 4, c.s);
    for (int n : {2, 3, 4}) {
      Matrix s(n, n);
      for (int col = 0; col < n; ++col)
        for (int r = 0; r < n; ++r) s.at(col, r) = s4.at(col, r);
      const Matrix inv = inverse(s);
      double largest = 0;
      for (double x : inv.e) largest = std::max(largest, std::fabs(x));
      for (size_t i = 0; i < inv.e.size(); ++i)
        e.near("inverse(mat" + std::to_string(n) + ") [" + std::to_string(i) + "]", inv.e[i], largest * 0x1p-16);
    }
  });
}

// --- Composites ------------------------------------------------------------------------------

struct alignas(16) CompositeCase {
  float v[4];
  int32_t k, j;
  std::string describe() const {
    return join({{"v", str(v[0]) + "," + str(v[1]) + "," + str(v[2]) + "," + str(v[3])}, {"k", str(k)}, {"j", str(j)}});
  }
};
static_assert(sizeof(CompositeCase) == 32);

TEST_F(ComputeInstructionsTest, CompositesSwizzlesDynamicIndexingAndStructs) {
  Random random(8);
  std::vector<CompositeCase> cases;
  for (int n = 0; n < 96; ++n) {
    CompositeCase c{};
    for (float& x : c.v) x = random.grid(-8, 8, 0.25f);
    c.k = n % 4;
    c.j = (n / 4) % 2;
    cases.push_back(c);
  }
  run<CompositeCase>("ops_composite.comp", cases, [](const CompositeCase& c, Expected& e) {
    const float* v = c.v;
    const int k = c.k, j = c.j;
    e.f32s("v.wzyx", {v[3], v[2], v[1], v[0]});
    e.f32s("v.xxy + v.zwz", {v[0] + v[2], v[0] + v[3], v[1] + v[2]});
    float w[4] = {v[1] * 2, 7.5f, v[0] * 2, v[3]};
    e.f32s("w.zx = v.xy * 2; w.y = 7.5", {w[0], w[1], w[2], w[3]});
    e.f32("(v * 2)[k]", v[k] * 2);
    w[k] = -1.0f;
    e.f32s("w[k] = -1", {w[0], w[1], w[2], w[3]});
    e.f32("OpVectorExtractDynamic(v.wzyx, 3 - k)", v[k]);
    float inserted[4] = {v[0], v[1], v[2], v[3]};
    inserted[k] = -3.5f;
    e.f32s("OpVectorInsertDynamic(v, -3.5, k)", {inserted[0], inserted[1], inserted[2], inserted[3]});
    const float m[3][3] = {{v[0], v[1], v[2]}, {v[1], v[2], v[3]}, {v[2], v[3], v[0]}};
    e.f32s("m[k % 3]", {m[k % 3][0], m[k % 3][1], m[k % 3][2]});
    e.f32("m[k % 3][j]", m[k % 3][j]);
    struct Pair {
      float p[2];
      int32_t q[3];
      float w;
      bool operator==(const Pair& o) const {
        return p[0] == o.p[0] && p[1] == o.p[1] && q[0] == o.q[0] && q[1] == o.q[1] && q[2] == o.q[2] && w == o.w;
      }
    };
    auto make_pair = [](const float* x, int n) { return Pair{{x[1], x[0]}, {n, n * 2, -n}, x[2]}; };
    const float wzyx[4] = {v[3], v[2], v[1], v[0]};
    Pair a = make_pair(v, k), b = make_pair(wzyx, j);
    b.p[0] += 0.5f;
    b.p[1] += 0.5f;
    b.q[0] += 1;
    e.f32s("n.pairs[1].p", {b.p[0], b.p[1]});
    e.i32s("n.pairs[0].q", {a.q[0], a.q[1], a.q[2]});
    e.i32("n.tag", a.q[1] + b.q[2]);
    e.f32s("n.v", {v[3], v[2], v[1], v[0]});
    const Pair& chosen = j == 0 ? a : b;
    e.f32s("pick(n, j).p", {chosen.p[0], chosen.p[1]});
    e.i32s("pick(n, j).q", {chosen.q[0], chosen.q[1], chosen.q[2]});
    e.f32("pick(n, j).w", chosen.w);
    const float new_w = 9.5f - b.w;
    e.f32("n.pairs[0].w = 9.5 - n.pairs[1].w", new_w);
    e.f32("n.pairs[j].w", j == 0 ? new_w : b.w);
    e.boolean("a == b", a == b);
    e.boolean("a == make_pair(v, k)", true);
    e.f32("arr[k]", v[k]);
    e.f32("arr[3 - k] + arr[(k + 1) % 4]", v[3 - k] + v[(k + 1) % 4]);
  });
}

// --- Arrays in function memory ---------------------------------------------------------------

struct LocalArrayCase {
  uint32_t seed, index, n;
  std::string describe() const { return join({{"seed", str(seed)}, {"index", str(index)}, {"n", str(n)}}); }
};

// DontInline is a hint: Kiln inlines every call anyway (CTS function_control.const_dont_inline).
TEST_F(ComputeInstructionsTest, DontInlineFunctionsAreCalled) {
  const uint32_t count = 128;
  Buffer input = device().create_buffer(count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer output = device().create_buffer(count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  for (uint32_t i = 0; i < count; ++i) mapped_as<uint32_t>(input)[i] = i * 5 % 37;
  ComputeJob job(device(), "dont_inline_calls.spvasm", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, input);
  job.bind_buffer(1, output);
  job.run(count / 64);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t a = 2 * (i * 5 % 37) + 1;
    EXPECT_EQ(mapped_as<uint32_t>(output)[i], a + a * a) << "invocation " << i;
  }
}

// VK_GOOGLE_hlsl_functionality1 / VK_GOOGLE_decorate_string: a module with UserSemantic strings
// and a CounterBuffer decoration runs as if they were not there.
TEST_F(ComputeInstructionsTest, HlslSemanticDecorationsChangeNothing) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_GOOGLE_DECORATE_STRING_EXTENSION_NAME) &&
                      device_has_extension(physical_device(), VK_GOOGLE_HLSL_FUNCTIONALITY_1_EXTENSION_NAME),
                  "VK_GOOGLE_decorate_string and VK_GOOGLE_hlsl_functionality1");
  TestDevice& device = *create_device(DeviceOptions{
      .extensions = {VK_GOOGLE_DECORATE_STRING_EXTENSION_NAME, VK_GOOGLE_HLSL_FUNCTIONALITY_1_EXTENSION_NAME}});
  constexpr uint32_t count = 256;
  Buffer data = device.create_buffer(count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  Buffer counter = device.create_buffer(4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0);
  ComputeJob job(device, "hlsl_semantics.spvasm", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, data);
  job.bind_buffer(1, counter);
  job.run(count / 64);
  for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(mapped_as<uint32_t>(data)[i], i * 3 + 1) << "invocation " << i;
  EXPECT_EQ(mapped_as<uint32_t>(counter)[0], count);
}

// Empty structs inside a storage block, copied whole (OpLoad/OpStore and OpCopyMemory) and moved
// through Function and Private variables: the ints around them arrive (the bytes between, where
// the empty members sit, hold nothing the copy must carry).
TEST_F(ComputeInstructionsTest, EmptyStructsLoadStoreAndCopy) {
  Buffer input = device().create_buffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer copied = device().create_buffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  Buffer copied_memory = device().create_buffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  const int32_t values[4] = {2, 3, 5, 7};
  std::memcpy(mapped_as<int32_t>(input), values, sizeof values);
  ComputeJob job(device(), "empty_structs.spvasm",
                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, input);
  job.bind_buffer(1, copied);
  job.bind_buffer(2, copied_memory);
  job.run(1);
  for (const Buffer* out : {&copied, &copied_memory}) {
    EXPECT_EQ(mapped_as<int32_t>(*out)[0], 2);
    EXPECT_EQ(mapped_as<int32_t>(*out)[3], 7);
  }
}

// Void values that are named, decorated or described by NonSemantic instructions but never
// computed with are valid SPIR-V; the shader runs as if those instructions were not there.
TEST_F(ComputeInstructionsTest, VoidValuesMayBeNamedAndDescribed) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME),
                  "VK_KHR_shader_non_semantic_info");
  TestDevice& device = *create_device(DeviceOptions{.extensions = {VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME}});
  const uint32_t count = 128;
  Buffer input = device.create_buffer(count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer output = device.create_buffer(count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  for (uint32_t i = 0; i < count; ++i) mapped_as<float>(input)[i] = (i % 2 ? -0.5f : 0.25f) * float(i);
  ComputeJob job(device, "void_values_named.spvasm", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, input);
  job.bind_buffer(1, output);
  job.run(count / 64);
  for (uint32_t i = 0; i < count; ++i)
    EXPECT_EQ(mapped_as<float>(output)[i], std::fabs(mapped_as<float>(input)[i]) + 1.0f) << "invocation " << i;
}

TEST_F(ComputeInstructionsTest, LocalArraysWithDynamicIndices) {
  Random random(9);
  std::vector<LocalArrayCase> cases;
  for (int k = 0; k < 96; ++k) cases.push_back({random.next() % 1000, random.next() % 64, random.below(21)});
  run<LocalArrayCase>("ops_local_array.comp", cases, [](const LocalArrayCase& c, Expected& e) {
    uint32_t values[16];
    for (uint32_t k = 0; k < 16; ++k) values[k] = (c.seed * (k + 1)) ^ k;
    for (uint32_t t = 0; t < c.n; ++t) values[(c.seed + t * 7) % 16] += t * t + 1;
    e.u32("values[index % 16]", values[c.index % 16]);
    for (uint32_t k = 0; k < 16; ++k) e.u32("values[" + std::to_string(k) + "]", values[k]);

    float points[5][3];
    for (uint32_t k = 0; k < 5; ++k) {
      points[k][0] = static_cast<float>(k);
      points[k][1] = static_cast<float>(c.seed % 7);
      points[k][2] = static_cast<float>(k * c.n);
    }
    points[c.index % 5][1] += 0.5f;
    points[(c.index + 2) % 5][c.n % 3] = -2.0f;
    for (int k = 0; k < 5; ++k) e.f32s("points[" + std::to_string(k) + "]", {points[k][0], points[k][1], points[k][2]});

    int32_t grid[4][4];
    for (int r = 0; r < 4; ++r)
      for (int col = 0; col < 4; ++col) grid[r][col] = r * 4 + col - static_cast<int32_t>(c.seed % 9);
    const uint32_t r0 = c.index % 4, c0 = (c.index / 4) % 4, r1 = c.n % 4, c1 = c.seed % 4;
    std::swap(grid[r0][c0], grid[r1][c1]);
    for (int r = 0; r < 4; ++r)
      e.i32("grid row " + std::to_string(r), grid[r][0] + 100 * grid[r][1] - grid[r][2] * grid[r][3]);

    struct Item {
      uint32_t key;
      float weight;
    } items[6];
    for (uint32_t k = 0; k < 6; ++k) items[k] = {(c.seed * (k * 2 + 3)) % 11, static_cast<float>(k) + 0.25f};
    for (int k = 1; k < 6; ++k) {  // insertion sort, stable like the shader's
      const Item current = items[k];
      int at = k - 1;
      while (at >= 0 && items[at].key > current.key) {
        items[at + 1] = items[at];
        --at;
      }
      items[at + 1] = current;
    }
    for (int k = 0; k < 6; ++k) {
      e.u32("items[" + std::to_string(k) + "].key", items[k].key);
      e.f32("items[" + std::to_string(k) + "].weight", items[k].weight);
    }
  });
}

// --- Switch statements -----------------------------------------------------------------------

struct SwitchCase {
  int32_t x, y;
  std::string describe() const { return join({{"x", str(x)}, {"y", str(y)}}); }
};

// The shader's functions, line for line (C++ switch semantics are GLSL's).
int32_t classify(int32_t x) {
  int32_t r = 0;
  switch (x) {
    case -2:
      r += 1;
      [[fallthrough]];
    case -1:
      r += 10;
      break;
    case 0:
    case 1:
      r += 100;
      break;
    default:
      r += 1000;
      [[fallthrough]];
    case 7:
      r += 10000;
      break;
    case 9:
      r = -5;
      break;
  }
  return r;
}

int32_t switch_in_loop(int32_t x) {
  int32_t acc = 0;
  for (int32_t n = 0; n < 6; ++n) {
    switch ((x + n) & 3) {
      case 0:
        acc += 1;
        continue;
      case 1:
        acc *= 2;
        [[fallthrough]];
      case 2:
        acc += n;
        break;
      default:
        if (acc > 12) n = 10;
        acc -= 3;
        break;
    }
    acc += 100;
  }
  return acc;
}

int32_t nested_switch(int32_t x, int32_t y) {
  switch (static_cast<uint32_t>(y) % 5u) {
    case 0: return (x & 1) == 0 ? 1 : 2;
    case 3: return 3;
    default: return y * 10 + (x & 7);
  }
}

TEST_F(ComputeInstructionsTest, SwitchWithFallthroughAndDefault) {
  std::vector<SwitchCase> cases;
  for (int32_t x = -4; x < 12; ++x)
    for (int32_t y : {-7, -2, -1, 0, 1, 3, 7, 8, 9, 10, 13, 25}) cases.push_back({x, y});
  run<SwitchCase>("ops_switch.comp", cases, [](const SwitchCase& c, Expected& e) {
    e.i32("classify(x)", classify(c.x));
    e.i32("classify(y)", classify(c.y));
    e.i32("switch in a loop", switch_in_loop(c.x));
    e.i32("nested switch", nested_switch(c.x, c.y));
  });
}

// --- Loops -----------------------------------------------------------------------------------

struct LoopCase {
  uint32_t a, b;
  std::string describe() const { return join({{"a", str(a)}, {"b", str(b)}}); }
};

// The shader's functions, line for line.
uint32_t nested_sum(uint32_t a, uint32_t b) {
  uint32_t total = 0;
  for (uint32_t outer = 0; outer < a; ++outer) {
    if (outer % 4 == 3) continue;
    uint32_t inner = 0;
    while (true) {
      if (inner >= b) break;
      ++inner;
      if ((inner + outer) % 3 == 0) continue;
      total += inner * (outer + 1);
      if (total > 500) break;
    }
    if (total > 800) break;
  }
  return total;
}

uint32_t collatz_steps(uint32_t n) {
  uint32_t steps = 0;
  do {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    ++steps;
  } while (n != 1 && steps < 200);
  return steps;
}

uint32_t find_pair(uint32_t a, uint32_t b) {
  for (uint32_t i = 0; i < 8; ++i)
    for (uint32_t j = 0; j < 8; ++j)
      if (i * a + j * b == 20) return i * 8 + j;
  return 999;
}

uint32_t triangle(uint32_t a, uint32_t b) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < a; ++i)
    for (uint32_t j = 0; j < i; ++j) {
      if (j == b) break;
      for (uint32_t k = j; k < i; ++k) {
        if ((i ^ k) == 5) continue;
        count += k + 1;
      }
    }
  return count;
}

TEST_F(ComputeInstructionsTest, NestedLoopsWithBreakAndContinue) {
  std::vector<LoopCase> cases;
  for (uint32_t a = 0; a < 16; ++a)
    for (uint32_t b = 0; b < 16; b += 2) cases.push_back({a, (b + a) % 16});
  run<LoopCase>("ops_loops.comp", cases, [](const LoopCase& c, Expected& e) {
    e.u32("nested_sum", nested_sum(c.a, c.b));
    e.u32("collatz_steps", collatz_steps(c.a * 7 + c.b + 1));
    e.u32("find_pair", find_pair(c.a % 5, c.b % 7));
    e.u32("triangle", triangle(c.a, c.b));
  });
}

// Arrays of matrices in std140: every element keeps the member's MatrixStride (16) and row-major
// layout, for element loads and for whole-matrix stores (the CTS ssbo.layout *_mat2 arrays).
TEST_F(ComputeInstructionsTest, Std140ArraysOfColumnAndRowMajorMatrices) {
  TestDevice& device = this->device();
  // columns[i] column c row r at 32 i + 16 c + 4 r; rows[i] column c row r at 96 + 48 i + 16 r + 4 c.
  auto column_major = [](int i, int c, int r) { return (32 * i + 16 * c + 4 * r) / 4; };
  auto row_major = [](int i, int c, int r) { return (96 + 48 * i + 16 * r + 4 * c) / 4; };
  constexpr int kFloats = (96 + 2 * 48) / 4;
  Buffer matrices = device.create_buffer(kFloats * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  float* slots = reinterpret_cast<float*>(matrices.mapped);
  for (int k = 0; k < kFloats; ++k) slots[k] = static_cast<float>(k + 1);  // distinct: a misplaced read shows
  Buffer logical = device.create_buffer(24 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ComputeJob job(device, "matrix_arrays.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, matrices);
  job.bind_buffer(1, logical);
  job.run(1);
  const float* got = mapped_as<float>(logical);
  int k = 0;
  for (int i = 0; i < 3; ++i)
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < 2; ++r, ++k) EXPECT_EQ(got[k], column_major(i, c, r) + 1.0f) << "columns[" << i << "][" << c << "][" << r << "]";
  for (int i = 0; i < 2; ++i)
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < 3; ++r, ++k) EXPECT_EQ(got[k], row_major(i, c, r) + 1.0f) << "rows[" << i << "][" << c << "][" << r << "]";
  for (int c = 0; c < 2; ++c)
    for (int r = 0; r < 2; ++r) EXPECT_EQ(slots[column_major(1, c, r)], 2.0f * (column_major(1, c, r) + 1)) << "stored columns[1]";
  for (int c = 0; c < 2; ++c)
    for (int r = 0; r < 3; ++r) EXPECT_EQ(slots[row_major(0, c, r)], 3.0f * (row_major(0, c, r) + 1)) << "stored rows[0]";
  EXPECT_EQ(slots[column_major(0, 0, 0)], 1.0f);  // untouched elements and padding stay
  EXPECT_EQ(slots[2], 3.0f);
}

}  // namespace
}  // namespace kiln::test
