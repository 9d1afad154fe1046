// 8-, 16- and 64-bit integers and 16- and 64-bit floats in compute shaders (shaderInt8/16/64,
// shaderFloat16/64, 8- and 16-bit storage, shaderSubgroupExtendedTypes), each result against a
// CPU reference (typed_rows.h). The device enables every feature of this family the driver
// reports; Kiln must report all of them (storageInputOutput16 aside: there are no graphics
// stages), other drivers skip what they lack.
//
// ctest runs these at KILN_SIMD_WIDTH=4, 8 and the default; KILN_TEST_DRIVER=lavapipe checks the
// tests themselves.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/grouped_failures.h"
#include "e2e/typed_rows.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Deterministic test data (splitmix64).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1p-53; }

 private:
  uint64_t state_;
};

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}
std::string num(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// Wrapping two's-complement arithmetic, as SPIR-V defines it (C++ signed overflow is undefined).
template <typename T>
T wrap_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename T>
T wrap_sub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <typename T>
T wrap_mul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  using Wide = std::common_type_t<U, unsigned>;  // uint16_t * uint16_t would multiply as int and overflow
  return static_cast<T>(static_cast<U>(static_cast<Wide>(a) * static_cast<Wide>(b)));
}
// SPIR-V's OpSMod: the remainder with the sign of the divisor.
template <typename T>
T smod(T a, T b) {
  const T rem = static_cast<T>(a % b);
  return rem != 0 && ((rem < 0) != (b < 0)) ? static_cast<T>(rem + b) : rem;
}

class ComputeTypesTest : public VulkanTest {
 protected:
  // A device with every feature of this family that the driver supports enabled.
  TestDevice& typed_device() {
    if (!device_) {
      const DeviceFeatures& s = features();
      enabled_.core.features.shaderInt64 = s.core.features.shaderInt64;
      enabled_.core.features.shaderInt16 = s.core.features.shaderInt16;
      enabled_.core.features.shaderFloat64 = s.core.features.shaderFloat64;
      enabled_.v11.storageBuffer16BitAccess = s.v11.storageBuffer16BitAccess;
      enabled_.v11.uniformAndStorageBuffer16BitAccess = s.v11.uniformAndStorageBuffer16BitAccess;
      enabled_.v11.storagePushConstant16 = s.v11.storagePushConstant16;
      enabled_.v12.shaderInt8 = s.v12.shaderInt8;
      enabled_.v12.shaderFloat16 = s.v12.shaderFloat16;
      enabled_.v12.storageBuffer8BitAccess = s.v12.storageBuffer8BitAccess;
      enabled_.v12.uniformAndStorageBuffer8BitAccess = s.v12.uniformAndStorageBuffer8BitAccess;
      enabled_.v12.storagePushConstant8 = s.v12.storagePushConstant8;
      enabled_.v12.shaderSubgroupExtendedTypes = s.v12.shaderSubgroupExtendedTypes;
      // glslang's Vulkan 1.3 output declares the workgroup size with LocalSizeId, which needs it.
      enabled_.v13.maintenance4 = s.v13.maintenance4;
      DeviceOptions options;
      options.create_info_chain = &enabled_.core;
      device_ = create_device(options);
      if (!device_) throw std::runtime_error("vkCreateDevice with the 8/16/64-bit features failed");
    }
    return *device_;
  }

  // Names of the features in `wanted` that the driver lacks ("" when it has them all).
  static std::string missing(std::initializer_list<std::pair<VkBool32, const char*>> wanted) {
    std::string names;
    for (const auto& [supported, name] : wanted)
      if (!supported) names += (names.empty() ? "" : ", ") + std::string(name);
    return names;
  }

  template <typename Case>
  void run(const std::string& shader, std::vector<Case> cases, const std::function<void(const Case&, TypedExpected&)>& reference,
           const std::vector<SpecValue>& spec = {}) {
    run_typed_cases(typed_device(), is_kiln(), shader, std::move(cases), reference, spec);
  }

 private:
  DeviceFeatures enabled_;
  TestDevice* device_ = nullptr;
};

#define REQUIRE_FEATURES(...)                                        \
  do {                                                               \
    const std::string lacking = missing({__VA_ARGS__});              \
    REQUIRE_ON_KILN(lacking.empty(), "the features " + lacking);     \
  } while (0)

// --- 64-bit integers ---------------------------------------------------------------------------

struct Int64Case {
  int64_t a, b;
  uint64_t ua, ub;
  int32_t i;
  uint32_t u;
  float f;
  uint32_t shift;
  std::string describe() const {
    return "a=" + std::to_string(a) + " b=" + std::to_string(b) + " ua=" + hex(ua) + " ub=" + hex(ub) +
           " i=" + std::to_string(i) + " u=" + std::to_string(u) + " f=" + num(f) + " shift=" + std::to_string(shift);
  }
};
static_assert(sizeof(Int64Case) == 48, "must match the std430 Case of ops_int64.comp");

TEST_F(ComputeTypesTest, Int64ArithmeticConversionsAndConstants) {
  REQUIRE_FEATURES({features().core.features.shaderInt64, "shaderInt64"});
  const int64_t signed_values[] = {0, 1, -1, 7, -7, 13, 0x100000000, -0x100000000, 0x7FFFFFFF, 0x80000000,
                                   -0x80000001, 123456789012345, -98765432109876, kInt64Max, kInt64Min,
                                   kInt64Min + 1, 0x0123456789ABCDEF, 5};
  const uint64_t unsigned_values[] = {0, 1, 2, 3, 7, 1000, 0xFFFFFFFF, 0x100000000, 0x100000001, 0x8000000000000000,
                                      0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFE, 0x0123456789ABCDEF, 0xFEDCBA9876543210,
                                      123456789012345678, 10, 0x7FFFFFFFFFFFFFFF, 999};
  const float floats[] = {0.0f, 1.5f, -2.75f, 1e10f, -3.5e12f, 9.2e18f, -9.2e18f, 1e19f, 123.75f, -0.5f, 1.8e19f};
  constexpr size_t n = std::size(signed_values);
  static_assert(std::size(unsigned_values) == n);
  Random random(64);
  std::vector<Int64Case> cases;
  for (size_t x = 0; x < n; ++x)
    for (size_t y = 0; y < n; ++y) {
      Int64Case c{signed_values[x], signed_values[y], unsigned_values[x], unsigned_values[y]};
      c.i = static_cast<int32_t>(random.next());
      c.u = static_cast<uint32_t>(random.next());
      c.f = floats[(x * n + y) % std::size(floats)];
      c.shift = static_cast<uint32_t>((x * n + y) % 64);
      cases.push_back(c);
    }
  const uint64_t spec = 0x0000000500000003;  // kSpec: both words nonzero
  run<Int64Case>(
      "ops_int64.comp", cases,
      [&](const Int64Case& c, TypedExpected& e) {
        const int64_t a = c.a, b = c.b;
        const uint64_t ua = c.ua, ub = c.ub;
        e.i64("a + b", wrap_add(a, b));
        e.i64("a - b", wrap_sub(a, b));
        e.i64("a * b", wrap_mul(a, b));
        if (b != 0 && !(a == kInt64Min && b == -1)) {
          e.i64("a / b", a / b);
          // Vulkan leaves OpSMod/OpSRem undefined for negative operands; Kiln follows SPIR-V.
          if ((a >= 0 && b >= 0) || e.kiln()) {
            e.i64("a % b (OpSMod)", smod(a, b));
            e.i64("srem(a, b)", a % b);
          } else {
            e.undefined("a % b (OpSMod)", 2);
            e.undefined("srem(a, b)", 2);
          }
        } else {
          e.undefined("a / b", 2);
          e.undefined("a % b (OpSMod)", 2);
          e.undefined("srem(a, b)", 2);
        }
        e.i64("-a", wrap_sub<int64_t>(0, a));
        if (a == kInt64Min) e.undefined("abs(a)", 2);
        else e.i64("abs(a)", a < 0 ? -a : a);
        e.i64("sign(a)", (a > 0) - (a < 0));
        e.i64("min(a, b)", std::min(a, b));
        e.i64("max(a, b)", std::max(a, b));
        e.i64("clamp(a, lo, hi)", std::clamp(a, std::min<int64_t>(b, 5), std::max<int64_t>(b, 5)));
        e.u64("ua + ub", ua + ub);
        e.u64("ua - ub", ua - ub);
        e.u64("ua * ub", ua * ub);
        if (ub != 0) {
          e.u64("ua / ub", ua / ub);
          e.u64("ua % ub", ua % ub);
        } else {
          e.undefined("ua / ub", 2);
          e.undefined("ua % ub", 2);
        }
        e.u64("min(ua, ub)", std::min(ua, ub));
        e.u64("max(ua, ub)", std::max(ua, ub));
        e.u64("clamp(ua, lo, hi)", std::clamp(ua, std::min<uint64_t>(ub, 1000), std::max<uint64_t>(ub, 1000)));
        e.u64("ua << shift", ua << c.shift);
        e.u64("ua >> shift", ua >> c.shift);
        e.i64("a >> shift (arithmetic)", a >> c.shift);
        e.u64("ua >> uint64_t(shift)", ua >> c.shift);
        e.i64("a << int64_t(shift)", static_cast<int64_t>(static_cast<uint64_t>(a) << c.shift));
        e.u64("ua & ub", ua & ub);
        e.u64("ua | ub", ua | ub);
        e.u64("ua ^ ub", ua ^ ub);
        e.u64("~ua", ~ua);
        e.boolean("a < b", a < b);
        e.boolean("a <= b", a <= b);
        e.boolean("a > b", a > b);
        e.boolean("a >= b", a >= b);
        e.boolean("a == b", a == b);
        e.boolean("a != b", a != b);
        e.boolean("ua < ub", ua < ub);
        e.boolean("ua <= ub", ua <= ub);
        e.boolean("ua > ub", ua > ub);
        e.boolean("ua >= ub", ua >= ub);
        e.i64("int64_t(i)", c.i);
        e.u64("uint64_t(u)", c.u);
        e.i64("int64_t(u)", c.u);
        e.u64("uint64_t(i)", static_cast<uint64_t>(int64_t{c.i}));
        e.i32("int(a)", static_cast<int32_t>(static_cast<uint32_t>(a)));
        e.u32("uint(ua)", static_cast<uint32_t>(ua));
        e.f32("float(a)", static_cast<float>(a));  // correctly rounded
        e.f32("float(ua)", static_cast<float>(ua));
        const double f = c.f;
        if (f > -0x1p63 && f < 0x1p63) e.i64("int64_t(f)", static_cast<int64_t>(f));
        else e.undefined("int64_t(f)", 2);
        if (std::fabs(f) < 0x1p64) e.u64("uint64_t(abs(f))", static_cast<uint64_t>(std::fabs(f)));
        else e.undefined("uint64_t(abs(f))", 2);
        e.u32("unpackUint2x32(ua).x", static_cast<uint32_t>(ua));
        e.u32("unpackUint2x32(ua).y", static_cast<uint32_t>(ua >> 32));
        e.u32("unpackInt2x32(a).x", static_cast<uint32_t>(a));
        e.u32("unpackInt2x32(a).y", static_cast<uint32_t>(static_cast<uint64_t>(a) >> 32));
        e.u64("packUint2x32(u, i)", (uint64_t{static_cast<uint32_t>(c.i)} << 32) | c.u);
        e.u64("packInt2x32(i, u)", (uint64_t{c.u} << 32) | static_cast<uint32_t>(c.i));
        e.u64("ua * constant + constant", ua * 0x9E3779B97F4A7C15ull + 0xFEDCBA9876543210ull);
        e.i64("a + negative constant", wrap_add<int64_t>(a, -0x123456789AB));
        e.u64("ua ^ kSpec", ua ^ spec);
        e.i64("i64vec2[0]", wrap_add(wrap_mul<int64_t>(a, 3), b));
        e.i64("i64vec2[1]", wrap_add(wrap_mul<int64_t>(b, -5), a));
        e.u64("u64vec3 / u64vec3 [0]", ua / 7);
        e.u64("u64vec3 / u64vec3 [1]", ub / (ub | 1));
        e.u64("u64vec3 / u64vec3 [2]", ua / 0x100000000ull);
        uint64_t sum = 0;
        for (uint64_t k = 0; k < (ua & 7); ++k) sum += k * ub;
        e.u64("64-bit loop sum", sum);
        const int64_t values[4] = {a, b, static_cast<int64_t>(ua), static_cast<int64_t>(ub)};
        e.i64("local int64_t[4][shift & 3]", values[c.shift & 3]);
      },
      {{1, 8, spec}});
}

// --- 64-bit floats ----------------------------------------------------------------------------

struct Float64Case {
  double a, b, c;
  int64_t l;
  float f;
  int32_t i;
  uint32_t u;
  int32_t e;
  std::string describe() const {
    return "a=" + num(a) + " b=" + num(b) + " c=" + num(c) + " l=" + std::to_string(l) + " f=" + num(f) +
           " i=" + std::to_string(i) + " u=" + std::to_string(u) + " e=" + std::to_string(e);
  }
};
static_assert(sizeof(Float64Case) == 48, "must match the std430 Case of ops_float64.comp");

uint64_t bits64(double v) { return std::bit_cast<uint64_t>(v); }
// Finite and small enough that products of two or three such values neither overflow nor
// lose everything to rounding: the range where the vector and matrix checks below apply.
bool moderate(double x) { return std::isfinite(x) && std::fabs(x) < 1e100; }

TEST_F(ComputeTypesTest, Float64ArithmeticFunctionsAndConversions) {
  REQUIRE_FEATURES({features().core.features.shaderFloat64, "shaderFloat64"},
                   {features().core.features.shaderInt64, "shaderInt64"},
                   {features().core.features.shaderInt16, "shaderInt16"},
                   {features().v12.shaderFloat16, "shaderFloat16"});
  const double values[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.5, 1e300, -1e300, 1e-300, kInf, -kInf, kNaN,
                           std::numbers::pi, 9007199254740993.0, 123456.789, -0.1, 3.0000000000000004, 1e-5,
                           4503599627370495.5, 2.5e9, -2.5e9, 1e19, 5e18,
                           // float16 rounding: midpoints and their neighbours, where rounding
                           // through float first would round twice
                           65519.0, 65520.0, 65519.99999999, 1.00048828125 + 0x1p-30, 1.00048828125 - 0x1p-40,
                           -1.00048828125, 0x1p-25, 0x1p-25 + 0x1p-60};
  const int32_t exponents[] = {0, 1, -1, 10, -10, 100, -1000, 1000, 1023, -1022, -1074, 1030, -1080, 52, -60, 2000};
  Random random(641);
  std::vector<Float64Case> cases;
  for (double a : values)
    for (double b : values) {
      Float64Case c{a, b};
      c.c = random.below(4) == 0 ? values[random.below(std::size(values))] : random.uniform(-1000, 1000);
      c.l = static_cast<int64_t>(random.next()) >> random.below(64);
      c.f = static_cast<float>(random.uniform(-1e6, 1e6));
      c.i = static_cast<int32_t>(random.next());
      c.u = static_cast<uint32_t>(random.next());
      c.e = exponents[random.below(std::size(exponents))];
      cases.push_back(c);
    }
  for (int k = 0; k < 64; ++k) {  // ordinary values of every magnitude
    Float64Case c{std::ldexp(random.uniform(-1, 1), static_cast<int>(random.below(200)) - 100),
                  std::ldexp(random.uniform(-1, 1), static_cast<int>(random.below(200)) - 100), random.uniform(-10, 10)};
    c.l = static_cast<int64_t>(random.next());
    c.f = static_cast<float>(random.uniform(-1, 1));
    c.i = static_cast<int32_t>(random.next()) >> random.below(32);
    c.u = static_cast<uint32_t>(random.next());
    c.e = static_cast<int32_t>(random.below(2200)) - 1100;
    cases.push_back(c);
  }
  const double scale = 3.0000000000000004;  // kScale: low word 1, high word 0x40080000
  run<Float64Case>(
      "ops_float64.comp", cases,
      [&](const Float64Case& c, TypedExpected& e) {
        const double a = c.a, b = c.b;
        const bool kiln = e.kiln();
        // Vulkan lets drivers assume operands are not NaN or infinite (without the
        // SignedZeroInfNanPreserve mode): Kiln keeps IEEE semantics, other drivers are not checked
        // on such operands.
        const bool special = !std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c.c);
        auto exact = [&](const std::string& op, double v) {
          if (special && !kiln) e.undefined(op, 2);
          else e.f64(op, v);
        };
        // Double-precision operations the spec bounds only as tightly as single precision.
        auto bounded = [&](const std::string& op, double v, double double_ulps, double float_ulps) {
          if (special && !kiln) e.undefined(op, 2);
          else e.near(op, 64, v, kiln ? double_ulps * double_ulp(v) : float_ulps * float_ulp(v));
        };
        exact("a + b", a + b);
        exact("a - b", a - b);
        exact("a * b", a * b);
        if (!kiln && !(std::fabs(b) >= 0x1p-126 && std::fabs(b) <= 0x1p126)) e.undefined("a / b", 2);
        else bounded("a / b", a / b, 0, 2.5);
        exact("-a", -a);
        const double fused = std::fma(a, b, c.c), unfused = a * b + c.c;
        if (special && !kiln) e.undefined("fma(a, b, c)", 2);
        else e.one_of_values("fma(a, b, c)", 64, {fused, unfused});
        bounded("sqrt(|a|)", std::sqrt(std::fabs(a)), 0, 3);
        bounded("inversesqrt(|a|)", 1 / std::sqrt(std::fabs(a)), 2, 2);
        exact("abs(a)", std::fabs(a));
        if (std::isnan(a)) e.undefined("sign(a)", 2);
        else exact("sign(a)", a > 0 ? 1.0 : a < 0 ? -1.0 : 0.0);
        exact("floor(a)", std::floor(a));
        exact("ceil(a)", std::ceil(a));
        exact("trunc(a)", std::trunc(a));
        if (special && !kiln) e.undefined("round(a)", 2);
        else e.one_of_values("round(a)", 64, {std::round(a), std::nearbyint(a)});  // halves: either way
        exact("roundEven(a)", std::nearbyint(a));
        exact("fract(a)", a - std::floor(a));
        // mod: "inherited from x - y * floor(x / y)"; Kiln evaluates exactly that.
        if (kiln) exact("mod(a, b)", a - b * std::floor(a / b));
        else e.undefined("mod(a, b)", 2);
        if (std::isfinite(a)) {
          exact("modf(a) fraction", a - std::trunc(a));
          exact("modf(a) whole", std::trunc(a));
        } else {
          e.undefined("modf(a) fraction", 2);
          e.undefined("modf(a) whole", 2);
        }
        const bool any_nan = std::isnan(a) || std::isnan(b) || std::isnan(c.c);
        if (any_nan) {
          e.undefined("min(a, b)", 2);
          e.undefined("max(a, b)", 2);
          e.undefined("clamp(a, lo, hi)", 2);
        } else {
          exact("min(a, b)", std::min(a, b));
          exact("max(a, b)", std::max(a, b));
          exact("clamp(a, lo, hi)", std::clamp(a, std::min(b, c.c), std::max(b, c.c)));
        }
        if (std::isfinite(a) && std::isfinite(b))
          e.near("mix(a, b, 0.25)", 64, a + (b - a) * 0.25, 4 * double_ulp(std::max(std::fabs(a), std::fabs(b))));
        else
          e.undefined("mix(a, b, 0.25)", 2);
        if (std::isnan(a) || std::isnan(b)) e.undefined("step(b, a)", 2);
        else exact("step(b, a)", a < b ? 0.0 : 1.0);
        if (std::isnan(a)) {
          e.undefined("smoothstep(-2, 3, a)", 2);
        } else {
          const double t = std::clamp((a + 2) / 5, 0.0, 1.0);
          e.near("smoothstep(-2, 3, a)", 64, t * t * (3 - 2 * t), kiln ? 0x1p-50 : 0x1p-20);
        }
        auto compare = [&](const std::string& op, bool v) {
          if (special && !kiln) e.undefined(op, 1);
          else e.boolean(op, v);
        };
        compare("a < b", a < b);
        compare("a <= b", a <= b);
        compare("a > b", a > b);
        compare("a >= b", a >= b);
        compare("a == b", a == b);
        compare("a != b", a != b);
        compare("isnan(a)", std::isnan(a));
        compare("isinf(a)", std::isinf(a));
        // Conversions: float ↔ double ones are correctly rounded; float → integer ones are
        // defined when the truncated value fits.
        const float narrowed = static_cast<float>(a);
        if (special && !kiln) e.undefined("float(a)", 1);
        else if (is_subnormal(narrowed, 32)) e.float_or_flushed("float(a)", 32, narrowed);
        else e.f32("float(a)", narrowed);
        e.f64("double(f)", c.f);
        if (a > -2147483649.0 && a < 2147483648.0) e.i32("int(a)", static_cast<int32_t>(a));
        else e.undefined("int(a)", 1);
        if (a > -1.0 && a < 4294967296.0) e.u32("uint(a)", static_cast<uint32_t>(a));
        else e.undefined("uint(a)", 1);
        if (a >= -0x1p63 && a < 0x1p63) e.i64("int64_t(a)", static_cast<int64_t>(a));
        else e.undefined("int64_t(a)", 2);
        if (a > -1.0 && a < 0x1p64) e.u64("uint64_t(a)", static_cast<uint64_t>(a));
        else e.undefined("uint64_t(a)", 2);
        e.f64("double(i)", c.i);
        e.f64("double(u)", c.u);
        e.f64("double(l)", static_cast<double>(c.l));  // correctly rounded
        e.f64("double(uint64_t(l))", static_cast<double>(static_cast<uint64_t>(c.l)));
        const double half_of_a = double_from_half(half_from_double(a));
        if (kiln) {
          e.float_or_flushed("float16_t(a)", 16, half_of_a);
        } else if (special || is_subnormal(half_of_a, 16)) {
          e.undefined("float16_t(a)", 1);
        } else {
          // Double operations need only single precision: rounding through float (as lavapipe
          // does) is allowed elsewhere; Kiln rounds once.
          e.one_of_values("float16_t(a)", 16, {half_of_a, double_from_half(half_from_double(static_cast<float>(a)))});
        }
        const uint16_t half = static_cast<uint16_t>(c.u);
        const double widened = double_from_half(half);
        if (is_subnormal(widened, 16))  // a subnormal operand may be flushed
          e.one_of_values("double(float16 bits)", 64, {widened, 0.0});
        else
          e.f64("double(float16 bits)", widened);
        e.i64("doubleBitsToInt64(a) ^ l", static_cast<int64_t>(bits64(a)) ^ c.l);
        e.f64("int64BitsToDouble(l)", std::bit_cast<double>(c.l));
        e.u32("unpackDouble2x32(a).x", static_cast<uint32_t>(bits64(a)));
        e.u32("unpackDouble2x32(a).y", static_cast<uint32_t>(bits64(a) >> 32));
        e.f64("packDouble2x32", std::bit_cast<double>((uint64_t{0x3FF00000u | (c.u >> 12)} << 32) | c.u));
        if (std::isfinite(a)) {
          int exponent = 0;
          const double mantissa = std::frexp(a, &exponent);
          e.f64("frexp(a) mantissa", mantissa);
          e.i32("frexp(a) exponent", exponent);
        } else {
          e.undefined("frexp(a) mantissa", 2);
          e.undefined("frexp(a) exponent", 1);
        }
        const double scaled = std::ldexp(a, c.e);
        if (!std::isfinite(a) && !kiln) e.undefined("ldexp(a, e)", 2);
        else if (c.e > 1024 || (std::isinf(scaled) && std::isfinite(a))) e.undefined("ldexp(a, e)", 2);  // overflow
        else if (c.e < -1022) e.one_of_values("ldexp(a, e)", 64, {scaled, 0.0});  // may flush
        else e.float_or_flushed("ldexp(a, e)", 64, scaled);
        exact("a * 0.1 (constant)", a * 0.1);
        exact("a + 1e300 (constant)", a + 1e300);
        exact("a * kScale (specialization constant)", a * scale);
        const double v[3] = {a, b, c.c}, w[3] = {b, c.c, a};
        for (int k = 0; k < 3; ++k) exact("v * 2 + w [" + std::to_string(k) + "]", v[k] * 2 + w[k]);
        const bool usable = moderate(a) && moderate(b) && moderate(c.c);
        // Within `ulps` ULPs (of double on Kiln, of float elsewhere: the spec's bound for
        // double) of the magnitude `scale_of_terms`.
        auto near_terms = [&](const std::string& op, double value, double scale_of_terms, double ulps) {
          if (!usable) e.undefined(op, 2);
          else e.near(op, 64, value, ulps * (kiln ? double_ulp(scale_of_terms) : float_ulp(scale_of_terms)));
        };
        const double dot = a * b + b * c.c + c.c * a;
        const double dot_terms = std::fabs(a * b) + std::fabs(b * c.c) + std::fabs(c.c * a);
        near_terms("dot(v, w)", dot, dot_terms, 4);
        const double squares = a * a + b * b + c.c * c.c;
        const double length = std::sqrt(squares);
        near_terms("length(v)", length, length, 4);
        const double d[3] = {a - b, b - c.c, c.c - a};
        const double distance = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        near_terms("distance(v, w)", distance, distance + std::fabs(a) + std::fabs(b) + std::fabs(c.c), 4);
        for (int k = 0; k < 3; ++k) {
          const int y = (k + 1) % 3, z = (k + 2) % 3;
          near_terms("cross(v, w) [" + std::to_string(k) + "]", v[y] * w[z] - w[y] * v[z],
                     std::fabs(v[y] * w[z]) + std::fabs(w[y] * v[z]), 4);
        }
        for (int k = 0; k < 3; ++k) {
          if (length == 0 || squares < 1e-200) e.undefined("normalize(v) [" + std::to_string(k) + "]", 2);
          else near_terms("normalize(v) [" + std::to_string(k) + "]", v[k] / length, 1.0, 4);
        }
        // m = dmat2(a, b, c, 1): columns (a, b) and (c, 1).
        near_terms("m * dvec2 [0]", a * c.c + c.c * a, 2 * std::fabs(a * c.c), 4);
        near_terms("m * dvec2 [1]", b * c.c + a, std::fabs(b * c.c) + std::fabs(a), 4);
        const double det = a - c.c * b, det_terms = std::fabs(a) + std::fabs(c.c * b);
        near_terms("determinant(m)", det, det_terms, 4);
        const double inverse[4] = {1 / det, -b / det, -c.c / det, a / det};
        for (int k = 0; k < 4; ++k) {
          const std::string op = "inverse(m) [" + std::to_string(k) + "]";
          if (!usable || det == 0 || std::fabs(det) < 1e-6 * det_terms || !std::isfinite(inverse[k])) {
            e.undefined(op, 2);
          } else {
            // The determinant's rounding error, relative, carries into every element.
            const double relative = (kiln ? 8 * double_ulp(det_terms) : 8 * float_ulp(det_terms)) / std::fabs(det) +
                                    (kiln ? 0x1p-50 : 0x1p-20);
            e.near(op, 64, inverse[k], std::fabs(inverse[k]) * relative);
          }
        }
        // dmat3(v, w, v * w) * (1, -2, 0.5)
        for (int k = 0; k < 3; ++k)
          near_terms("dmat3 * dvec3 [" + std::to_string(k) + "]", v[k] - 2 * w[k] + 0.5 * v[k] * w[k],
                     std::fabs(v[k]) + 2 * std::fabs(w[k]) + std::fabs(0.5 * v[k] * w[k]), 4);
        e.f64("local double[3][u % 3]", v[c.u % 3]);
      },
      {{1, 8, bits64(scale)}});
}

// --- 8- and 16-bit integers, float16 ---------------------------------------------------------

struct SmallCase {
  int8_t a8, b8;
  uint8_t ua8, ub8;
  int16_t a16, b16;
  uint16_t ua16, ub16;
  uint16_t h, g;  // float16 bit patterns
  float f;
  int32_t i;
  uint32_t shift;
  std::string describe() const {
    return "a8=" + std::to_string(a8) + " b8=" + std::to_string(b8) + " ua8=" + std::to_string(ua8) +
           " ub8=" + std::to_string(ub8) + " a16=" + std::to_string(a16) + " b16=" + std::to_string(b16) +
           " ua16=" + std::to_string(ua16) + " ub16=" + std::to_string(ub16) + " h=" + num(double_from_half(h)) +
           " g=" + num(double_from_half(g)) + " f=" + num(f) + " i=" + std::to_string(i) + " shift=" + std::to_string(shift);
  }
};
static_assert(sizeof(SmallCase) == 28, "must match the std430 Case of ops_small_types.comp");

// The float16 nearest to v, as a double.
double r16(double v) { return double_from_half(half_from_double(v)); }
bool is_integral(double v, double lo, double hi) { return std::isfinite(v) && std::trunc(v) >= lo && std::trunc(v) <= hi; }

TEST_F(ComputeTypesTest, SmallIntegersAndFloat16ArithmeticAndConversions) {
  REQUIRE_FEATURES({features().v12.shaderInt8, "shaderInt8"}, {features().core.features.shaderInt16, "shaderInt16"},
                   {features().v12.shaderFloat16, "shaderFloat16"}, {features().core.features.shaderInt64, "shaderInt64"},
                   {features().v12.storageBuffer8BitAccess, "storageBuffer8BitAccess"},
                   {features().v11.storageBuffer16BitAccess, "storageBuffer16BitAccess"});
  const int8_t s8[] = {0, 1, -1, 2, -2, 7, -7, 13, 100, -100, 127, -128, -127, 64, 5};
  const uint8_t u8[] = {0, 1, 2, 3, 7, 10, 100, 127, 128, 200, 254, 255, 64, 5, 13};
  const int16_t s16[] = {0, 1, -1, 7, -7, 300, -300, 2049, -2049, 32767, -32768, -32767, 12345, 5, 256};
  const uint16_t u16[] = {0, 1, 2, 3, 7, 1000, 2049, 32768, 65535, 65534, 65520, 255, 256, 5, 4097};
  const double halves[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.5, 65504.0, -65504.0, 0x1p-14, 0x1p-24, kInf, -kInf, kNaN,
                           1.0009765625, 0.1, 3.140625, 1000.0, 2048.0, 0x1p-12 * (2 - 0x1p-9), 255.5, -128.5, 127.75,
                           -0.375, 17.0, 0.0078125};
  const float floats[] = {1.00048828125f, 1.00048828125f + 0x1p-20f, 65519.99f, 65520.0f, 1e-5f, 3e-8f, 1e-9f, -7.3f,
                          100000.0f, 0.333333343f, -2.71828175f};
  constexpr size_t n8 = std::size(s8), nh = std::size(halves);
  Random random(816);
  std::vector<SmallCase> cases;
  for (size_t k = 0; k < std::max(n8 * n8, nh * nh); ++k) {
    SmallCase c{};
    c.a8 = s8[k % n8];
    c.b8 = s8[k / n8 % n8];
    c.ua8 = u8[k % n8];
    c.ub8 = u8[k / n8 % n8];
    c.a16 = s16[k % n8];
    c.b16 = s16[k / n8 % n8];
    c.ua16 = u16[k % n8];
    c.ub16 = u16[k / n8 % n8];
    c.h = half_from_double(halves[k % nh]);
    c.g = half_from_double(halves[k / nh % nh]);
    c.f = k % 3 ? floats[k % std::size(floats)] : static_cast<float>(random.uniform(-70000, 70000));
    c.i = static_cast<int32_t>(random.next());
    c.shift = static_cast<uint32_t>(k % 17);
    cases.push_back(c);
  }
  const int16_t spec16 = -1234;
  const uint16_t spec_half = 0x3E01;  // 1.5009765625
  const int8_t spec8 = -100;
  run<SmallCase>(
      "ops_small_types.comp", cases,
      [&](const SmallCase& c, TypedExpected& e) {
        const bool kiln = e.kiln();
        // --- 8-bit integers (wrapping arithmetic, as SPIR-V defines it)
        const int8_t a8 = c.a8, b8 = c.b8;
        const uint8_t ua8 = c.ua8, ub8 = c.ub8;
        e.i8("a8 + b8", wrap_add(a8, b8));
        e.i8("a8 - b8", wrap_sub(a8, b8));
        e.i8("a8 * b8", wrap_mul(a8, b8));
        if (b8 != 0 && !(a8 == -128 && b8 == -1)) {
          e.i8("a8 / b8", static_cast<int8_t>(a8 / b8));
          if ((a8 >= 0 && b8 >= 0) || kiln) e.i8("a8 % b8 (OpSMod)", smod(a8, b8));
          else e.undefined("a8 % b8 (OpSMod)", 1);
        } else {
          e.undefined("a8 / b8", 1);
          e.undefined("a8 % b8 (OpSMod)", 1);
        }
        e.i8("-a8", wrap_sub<int8_t>(0, a8));
        if (a8 == -128) e.undefined("abs(a8)", 1);
        else e.i8("abs(a8)", static_cast<int8_t>(a8 < 0 ? -a8 : a8));
        e.i8("sign(a8)", static_cast<int8_t>((a8 > 0) - (a8 < 0)));
        e.i8("min(a8, b8)", std::min(a8, b8));
        e.i8("max(a8, b8)", std::max(a8, b8));
        e.i8("clamp(a8, lo, hi)", std::clamp<int8_t>(a8, std::min<int8_t>(b8, 5), std::max<int8_t>(b8, 5)));
        e.u8("ua8 + ub8", static_cast<uint8_t>(ua8 + ub8));
        e.u8("ua8 - ub8", static_cast<uint8_t>(ua8 - ub8));
        e.u8("ua8 * ub8", static_cast<uint8_t>(ua8 * ub8));
        if (ub8 != 0) {
          e.u8("ua8 / ub8", static_cast<uint8_t>(ua8 / ub8));
          e.u8("ua8 % ub8", static_cast<uint8_t>(ua8 % ub8));
        } else {
          e.undefined("ua8 / ub8", 1);
          e.undefined("ua8 % ub8", 1);
        }
        e.u8("min(ua8, ub8)", std::min(ua8, ub8));
        e.u8("max(ua8, ub8)", std::max(ua8, ub8));
        const uint32_t s8 = c.shift & 7;
        e.u8("ua8 << shift", static_cast<uint8_t>(ua8 << s8));
        e.u8("ua8 >> shift", static_cast<uint8_t>(ua8 >> s8));
        e.i8("a8 >> shift (arithmetic)", static_cast<int8_t>(a8 >> s8));
        e.u8("ua8 & ub8", ua8 & ub8);
        e.u8("ua8 | ub8", ua8 | ub8);
        e.u8("ua8 ^ ub8", ua8 ^ ub8);
        e.u8("~ua8", static_cast<uint8_t>(~ua8));
        e.boolean("a8 < b8", a8 < b8);
        e.boolean("a8 >= b8", a8 >= b8);
        e.boolean("ua8 < ub8", ua8 < ub8);
        e.boolean("ua8 >= ub8", ua8 >= ub8);
        e.boolean("a8 == b8", a8 == b8);
        e.i16("int16_t(a8)", a8);
        e.u16("uint16_t(ua8)", ua8);
        e.i8("int8_t(i)", static_cast<int8_t>(c.i));
        e.u8("uint8_t(i)", static_cast<uint8_t>(c.i));
        e.i8("int8_t(a16)", static_cast<int8_t>(c.a16));
        e.u8("uint8_t(ua16)", static_cast<uint8_t>(c.ua16));
        e.i8("int8_t(ua8)", static_cast<int8_t>(ua8));
        e.u8("uint8_t(a8)", static_cast<uint8_t>(a8));
        e.f32("float(a8)", a8);
        e.f16_rounded("float16_t(a8)", a8);
        e.f16_rounded("float16_t(ua8)", ua8);
        const double h = double_from_half(c.h), g = double_from_half(c.g);
        if (is_integral(h, -128, 127)) e.i8("int8_t(h)", static_cast<int8_t>(h));
        else e.undefined("int8_t(h)", 1);
        if (is_integral(std::fabs(h), 0, 255)) e.u8("uint8_t(abs(h))", static_cast<uint8_t>(std::fabs(h)));
        else e.undefined("uint8_t(abs(h))", 1);
        // --- 16-bit integers
        const int16_t a16 = c.a16, b16 = c.b16;
        const uint16_t ua16 = c.ua16, ub16 = c.ub16;
        e.i16("a16 + b16", wrap_add(a16, b16));
        e.i16("a16 - b16", wrap_sub(a16, b16));
        e.i16("a16 * b16", wrap_mul(a16, b16));
        if (b16 != 0 && !(a16 == -32768 && b16 == -1)) {
          e.i16("a16 / b16", static_cast<int16_t>(a16 / b16));
          if ((a16 >= 0 && b16 >= 0) || kiln) e.i16("a16 % b16 (OpSMod)", smod(a16, b16));
          else e.undefined("a16 % b16 (OpSMod)", 1);
        } else {
          e.undefined("a16 / b16", 1);
          e.undefined("a16 % b16 (OpSMod)", 1);
        }
        e.i16("-a16", wrap_sub<int16_t>(0, a16));
        if (a16 == -32768) e.undefined("abs(a16)", 1);
        else e.i16("abs(a16)", static_cast<int16_t>(a16 < 0 ? -a16 : a16));
        e.i16("min(a16, b16)", std::min(a16, b16));
        e.i16("max(a16, b16)", std::max(a16, b16));
        e.u16("ua16 + ub16", static_cast<uint16_t>(ua16 + ub16));
        e.u16("ua16 - ub16", static_cast<uint16_t>(ua16 - ub16));
        e.u16("ua16 * ub16", static_cast<uint16_t>(uint32_t{ua16} * ub16));
        if (ub16 != 0) {
          e.u16("ua16 / ub16", static_cast<uint16_t>(ua16 / ub16));
          e.u16("ua16 % ub16", static_cast<uint16_t>(ua16 % ub16));
        } else {
          e.undefined("ua16 / ub16", 1);
          e.undefined("ua16 % ub16", 1);
        }
        const uint32_t s16 = c.shift & 15;
        e.u16("ua16 << shift", static_cast<uint16_t>(ua16 << s16));
        e.u16("ua16 >> shift", static_cast<uint16_t>(ua16 >> s16));
        e.i16("a16 >> shift (arithmetic)", static_cast<int16_t>(a16 >> s16));
        e.u16("ua16 ^ ub16", ua16 ^ ub16);
        e.i16("~a16", static_cast<int16_t>(~a16));
        e.boolean("a16 < b16", a16 < b16);
        e.boolean("ua16 < ub16", ua16 < ub16);
        e.boolean("ua16 != ub16", ua16 != ub16);
        e.i16("int16_t(i)", static_cast<int16_t>(c.i));
        e.u16("uint16_t(i)", static_cast<uint16_t>(c.i));
        e.i16("int16_t(ua16)", static_cast<int16_t>(ua16));
        e.f32("float(a16)", a16);
        e.f16_rounded("float16_t(a16)", a16);  // correctly rounded
        e.f16_rounded("float16_t(ua16)", ua16);  // 65520 and above round to infinity
        if (is_integral(h, -32768, 32767)) e.i16("int16_t(h)", static_cast<int16_t>(h));
        else e.undefined("int16_t(h)", 1);
        if (std::isfinite(h)) e.u16("uint16_t(abs(h))", static_cast<uint16_t>(std::fabs(h)));
        else e.undefined("uint16_t(abs(h))", 1);
        // --- bit casts
        e.u16("pack16(u8vec2)", static_cast<uint16_t>(ua8 | ub8 << 8));
        e.u8("unpack8(ua16).x", static_cast<uint8_t>(ua16));
        e.u8("unpack8(ua16).y", static_cast<uint8_t>(ua16 >> 8));
        e.u32("pack32(u8vec4)", ua8 | ub8 << 8 | uint32_t{static_cast<uint8_t>(a8)} << 16 |
                                    uint32_t{static_cast<uint8_t>(b8)} << 24);
        for (int k = 0; k < 4; ++k)
          e.u8("unpack8(uint(i))[" + std::to_string(k) + "]", static_cast<uint8_t>(static_cast<uint32_t>(c.i) >> (8 * k)));
        e.u32("pack32(u16vec2)", ua16 | uint32_t{ub16} << 16);
        e.u16("unpack16(uint(i)).x", static_cast<uint16_t>(c.i));
        e.u16("unpack16(uint(i)).y", static_cast<uint16_t>(static_cast<uint32_t>(c.i) >> 16));
        e.i16("pack16(i8vec2)", static_cast<int16_t>(static_cast<uint8_t>(a8) | static_cast<uint8_t>(b8) << 8));
        e.u32("packFloat2x16(constant)", 0xC2004000);
        e.u32("pack32(constant u8vec4)", 0xFF800201);
        e.u64("pack64(constant u16vec4)", 0x8000'0007'FEDC'1234ull);
        for (int k = 0; k < 4; ++k) e.u8("unpack8(constant)[" + std::to_string(k) + "]", static_cast<uint8_t>(0x8081FF01u >> (8 * k)));
        e.i8("i8vec3 [0]", wrap_add(wrap_mul<int8_t>(a8, 3), b8));
        e.i8("i8vec3 [1]", wrap_add(wrap_mul<int8_t>(b8, -5), b8));
        e.i8("i8vec3 [2]", wrap_add(wrap_mul<int8_t>(a8, 7), b8));
        e.i16("i16vec2 / i16vec2 [0]", static_cast<int16_t>(a16 / 7));
        e.i16("i16vec2 / i16vec2 [1]", static_cast<int16_t>(b16 / (b16 | 1)));
        // --- float16: correctly rounded operations are computed in double and rounded once
        // (double holds every exact half sum, difference and product; for quotients and square
        // roots double rounding through double is harmless, as 53 >= 2 * 11 + 2).
        // Vulkan lets drivers flush subnormals and assume operands are not NaN or infinite: Kiln
        // does neither, other drivers are not checked on such operands.
        const bool special = !std::isfinite(h) || !std::isfinite(g) || is_subnormal(h, 16) || is_subnormal(g, 16);
        auto rounded = [&](const std::string& op, double exact) {
          if (special && !kiln) e.undefined(op, 1);
          else e.float_or_flushed(op, 16, r16(exact));
        };
        auto bounded = [&](const std::string& op, double v, double tolerance) {
          if (special && !kiln) e.undefined(op, 1);
          else e.near(op, 16, v, tolerance);
        };
        rounded("h + g", h + g);
        rounded("h - g", h - g);
        rounded("h * g", h * g);
        if (!kiln && !(std::fabs(g) >= 0x1p-14 && std::fabs(g) <= 0x1p14)) e.undefined("h / g", 1);
        else if (special && !kiln) e.undefined("h / g", 1);
        else e.ieee("h / g", 16, r16(h / g), 2.5 * half_ulp(h / g));
        rounded("-h", -h);
        // fma: "inherited from OpFMul followed by OpFAdd", so within half an ULP of the product
        // plus one ULP of the result of the exact value.
        const double fused = std::fma(h, g, h);
        if (!std::isfinite(fused) || std::fabs(fused) > 60000 || std::fabs(h * g) > 60000 || (special && !kiln))
          e.undefined("fma(h, g, h)", 1);
        else
          e.near("fma(h, g, h)", 16, fused, 0.5 * half_ulp(h * g) + half_ulp(fused));
        if (special && !kiln) e.undefined("sqrt(|h|)", 1);
        else e.ieee("sqrt(|h|)", 16, r16(std::sqrt(std::fabs(h))), 3 * half_ulp(std::sqrt(std::fabs(h))));
        const double inverse_root = 1 / std::sqrt(std::fabs(h));
        bounded("inversesqrt(|h|)", inverse_root, 2 * half_ulp(inverse_root));
        rounded("abs(h)", std::fabs(h));
        if (std::isnan(h)) e.undefined("sign(h)", 1);
        else rounded("sign(h)", h > 0 ? 1.0 : h < 0 ? -1.0 : 0.0);
        rounded("floor(h)", std::floor(h));
        rounded("ceil(h)", std::ceil(h));
        rounded("trunc(h)", std::trunc(h));
        if (special && !kiln) e.undefined("round(h)", 1);
        else e.one_of_values("round(h)", 16, {std::round(h), std::nearbyint(h)});  // halves: either way
        rounded("roundEven(h)", std::nearbyint(h));
        rounded("fract(h)", h - std::floor(h));
        // mod: "inherited from x - y * floor(x / y)"; Kiln evaluates exactly that in float16.
        if (kiln) e.f16_rounded("mod(h, g)", h - r16(g * std::floor(r16(h / g))));
        else e.undefined("mod(h, g)", 1);
        if (std::isnan(h) || std::isnan(g)) {
          e.undefined("min(h, g)", 1);
          e.undefined("max(h, g)", 1);
          e.undefined("clamp(h, lo, hi)", 1);
        } else {
          rounded("min(h, g)", std::min(h, g));
          rounded("max(h, g)", std::max(h, g));
          rounded("clamp(h, lo, hi)", std::clamp(h, std::min(g, 1.0), std::max(g, 1.0)));
        }
        if (!std::isfinite(h) || !std::isfinite(g) || std::fabs(g - h) > 65504) e.undefined("mix(h, g, 0.25)", 1);
        else bounded("mix(h, g, 0.25)", h + (g - h) * 0.25, 2 * half_ulp(std::max(std::fabs(h), std::fabs(g))));
        if (std::isnan(h) || std::isnan(g)) e.undefined("step(g, h)", 1);
        else rounded("step(g, h)", h < g ? 0.0 : 1.0);
        if (std::isnan(h)) {
          e.undefined("smoothstep(-2, 3, h)", 1);
        } else {
          const double t = std::clamp((h + 2) / 5, 0.0, 1.0);
          bounded("smoothstep(-2, 3, h)", t * t * (3 - 2 * t), 0x1p-8);
        }
        auto compare = [&](const std::string& op, bool v) {
          if (special && !kiln) e.undefined(op, 1);
          else e.boolean(op, v);
        };
        compare("h < g", h < g);
        compare("h <= g", h <= g);
        compare("h == g", h == g);
        compare("h != g", h != g);
        compare("isnan(h)", std::isnan(h));
        compare("isinf(h)", std::isinf(h));
        e.f32("float(h)", static_cast<float>(h));
        e.float_or_flushed("float16_t(f)", 16, r16(c.f));
        e.u16("float16BitsToUint16(h)", c.h);
        e.f16("uint16BitsToFloat16(ua16)", ua16);
        e.i16("float16BitsToInt16(g)", static_cast<int16_t>(c.g));
        e.u32("packFloat2x16(h, g)", c.h | uint32_t{c.g} << 16);
        e.f16("unpackFloat2x16(uint(i)).x", static_cast<uint16_t>(c.i));
        e.f16("unpackFloat2x16(uint(i)).y", static_cast<uint16_t>(static_cast<uint32_t>(c.i) >> 16));
        // Transcendentals, within the spec's float16 bounds.
        const bool finite = std::isfinite(h) && !(special && !kiln);
        if (finite && std::fabs(h) <= std::numbers::pi) {
          e.near("sin(h)", 16, std::sin(h), 0x1p-7);
          e.near("cos(h)", 16, std::cos(h), 0x1p-7);
        } else {
          e.undefined("sin(h)", 1);
          e.undefined("cos(h)", 1);
        }
        auto exponential = [&](const std::string& op, double v) {
          if (!finite || v >= 65504) e.undefined(op, 1);
          else e.near(op, 16, v, (1 + 2 * std::fabs(h)) * half_ulp(v));
        };
        exponential("exp2(h)", std::exp2(h));
        exponential("exp(h)", std::exp(h));
        auto logarithm = [&](const std::string& op, double v) {
          const double x = std::fabs(h);
          if (!finite || x == 0) e.undefined(op, 1);
          else e.near(op, 16, v, x >= 0.5 && x <= 2 ? 0x1p-7 : 3 * half_ulp(v));
        };
        logarithm("log2(|h|)", std::log2(std::fabs(h)));
        logarithm("log(|h|)", std::log(std::fabs(h)));
        if (finite) {
          int exponent = 0;
          const double mantissa = std::frexp(h, &exponent);
          e.f16_rounded("frexp(h) mantissa", mantissa);
          e.i32("frexp(h) exponent", exponent);
        } else {
          e.undefined("frexp(h) mantissa", 1);
          e.undefined("frexp(h) exponent", 1);
        }
        const int scale = (c.i & 63) - 32;
        const double scaled = r16(std::ldexp(h, scale));
        if (!finite && !kiln) e.undefined("ldexp(h, e)", 1);
        else if (std::isinf(scaled) && std::isfinite(h)) e.undefined("ldexp(h, e)", 1);  // overflow
        else if (scale < -14) e.one_of_values("ldexp(h, e)", 16, {scaled, 0.0});          // may flush
        else e.float_or_flushed("ldexp(h, e)", 16, scaled);
        const double z = r16(h * g);
        const double v[3] = {h, g, z};
        for (int k = 0; k < 3; ++k) {
          const std::string op = "v * 2 + v.zxy [" + std::to_string(k) + "]";
          const double exact = r16(2 * v[k]) + v[(k + 2) % 3];
          // Without NoContraction the multiply and add may fuse: CPUs with AVX512-FP16 run the
          // half-precision FMA, which keeps 2 * v past the overflow (one rounding of the exact sum).
          if (kiln) e.one_of_values(op, 16, {r16(exact), r16(2 * v[k] + v[(k + 2) % 3])});
          else if (special || std::fabs(2 * v[k]) > 65504) e.undefined(op, 1);  // may fuse past the overflow
          // lavapipe keeps h * g (v.z) in float precision: within an ULP of it elsewhere.
          else e.near(op, 16, r16(exact), half_ulp(z) + half_ulp(exact));
        }
        const double squares = h * h + g * g + z * z;
        if (!std::isfinite(squares) || squares > 60000 || (special && !kiln)) e.undefined("dot(v, v)", 1);
        else e.near("dot(v, v)", 16, squares, 4 * half_ulp(squares));
        const double length = std::sqrt(h * h + g * g);
        // (Squares below half's range underflow: the length of tiny vectors is not checked.)
        if (!std::isfinite(length) || h * h + g * g > 60000 || h * h + g * g < 0x1p-14 || (special && !kiln))
          e.undefined("length(v.xy)", 1);
        else e.near("length(v.xy)", 16, length, 3 * half_ulp(length));
        rounded("h * 0.333251953125 (constant)", h * 0.333251953125);
        e.i16("a16 * kSpec16", wrap_mul(a16, spec16));
        rounded("h * kSpecHalf", h * double_from_half(spec_half));
        e.i8("a8 + kSpec8", wrap_add(a8, spec8));
        const int64_t wide = wrap_mul<int64_t>(c.i, 0x100000001);
        e.i64("int64_t(a8)", a8);
        e.u64("uint64_t(ua16)", ua16);
        e.i8("int8_t(int64_t)", static_cast<int8_t>(wide));
        e.u16("uint16_t(uint64_t)", static_cast<uint16_t>(wide));
        if (std::isfinite(h)) e.i64("int64_t(h)", static_cast<int64_t>(h));
        else e.undefined("int64_t(h)", 2);
        e.f16_rounded("float16_t(i >> 16)", c.i >> 16);  // correctly rounded
        int8_t sum8 = 0;
        double sum_half = 0;
        for (int k = 0; k < (a8 & 7); ++k) {
          sum8 = wrap_add(sum8, b8);
          sum_half = r16(sum_half + g);
        }
        e.i8("loop sum (int8_t)", sum8);
        if (special && !kiln) e.undefined("loop sum (float16_t)", 1);
        else e.float_or_flushed("loop sum (float16_t)", 16, sum_half);
        // f16mat2(h, g, 1, -2) * (g, 0.5): columns (h, g) and (1, -2).
        const double products[2] = {h * g + 0.5, g * g - 1.0};
        for (int k = 0; k < 2; ++k) {
          const std::string op = "f16mat2 * f16vec2 [" + std::to_string(k) + "]";
          const double terms = k == 0 ? std::fabs(h * g) + 0.5 : g * g + 1.0;
          if (!std::isfinite(products[k]) || terms > 30000 || (special && !kiln)) e.undefined(op, 1);
          else e.near(op, 16, products[k], half_ulp(terms) + half_ulp(products[k]));
        }
        const int8_t bytes[5] = {a8, b8, static_cast<int8_t>(ua8), static_cast<int8_t>(ub8), -3};
        e.i8("local int8_t[5][shift % 5]", bytes[c.shift % 5]);
        const uint16_t local_halves[3] = {c.h, c.g, 0x3800};
        e.f16("local float16_t[3][shift % 3]", local_halves[c.shift % 3]);
      },
      {{1, 2, static_cast<uint16_t>(spec16)}, {2, 2, spec_half}, {3, 1, static_cast<uint8_t>(spec8)}});
}

// --- 8- and 16-bit storage ---------------------------------------------------------------------

// Compares `size` bytes; a mismatch names the element (of `element` bytes) and the byte in it.
void expect_same_bytes(const char* what, const uint8_t* got, const void* want_bytes, size_t size, size_t element) {
  const auto* want = static_cast<const uint8_t*>(want_bytes);
  for (size_t b = 0; b < size; ++b)
    if (got[b] != want[b]) {
      ADD_FAILURE() << what << ": element " << b / element << " byte " << b % element << ": got 0x" << std::hex
                    << int{got[b]} << ", want 0x" << int{want[b]};
      return;
    }
}

// The std430 struct Mixed of small_types_storage.comp, byte for byte.
struct Mixed {
  int8_t s8;
  uint8_t padding0[3];
  uint8_t v8[3];
  uint8_t u8;
  int16_t s16;
  uint16_t padding1;
  uint16_t h2[2];  // float16 bits
  uint16_t u16;
  uint16_t h;      // float16 bits
  uint8_t bytes[3];
  int8_t tail8;
  int16_t v16[3];
  uint8_t last;
  uint8_t padding2;
};
static_assert(sizeof(Mixed) == 32 && offsetof(Mixed, v8) == 4 && offsetof(Mixed, s16) == 8 && offsetof(Mixed, h2) == 12 &&
              offsetof(Mixed, bytes) == 20 && offsetof(Mixed, v16) == 24 && offsetof(Mixed, last) == 30);

// The std140 uniform block Params.
struct Params {
  int8_t k8;
  uint8_t ku8;
  int16_t k16;
  uint16_t kh;
  uint16_t padding;
  uint8_t kv8[4];
  int16_t kv16[2];
  struct {
    uint8_t value;
    uint8_t padding[15];
  } table[4];
};
static_assert(sizeof(Params) == 80 && offsetof(Params, kv8) == 8 && offsetof(Params, table) == 16);

struct Push {
  int8_t p8;
  uint8_t pu8;
  int16_t p16;
  uint16_t ph;
  uint8_t pv8[2];
  uint32_t count;
};
static_assert(sizeof(Push) == 12);

TEST_F(ComputeTypesTest, SmallTypesInStorageUniformAndPushConstantMemory) {
  const DeviceFeatures& f = features();
  REQUIRE_FEATURES({f.v12.shaderInt8, "shaderInt8"}, {f.core.features.shaderInt16, "shaderInt16"},
                   {f.v12.shaderFloat16, "shaderFloat16"}, {f.v12.storageBuffer8BitAccess, "storageBuffer8BitAccess"},
                   {f.v12.uniformAndStorageBuffer8BitAccess, "uniformAndStorageBuffer8BitAccess"},
                   {f.v12.storagePushConstant8, "storagePushConstant8"},
                   {f.v11.storageBuffer16BitAccess, "storageBuffer16BitAccess"},
                   {f.v11.uniformAndStorageBuffer16BitAccess, "uniformAndStorageBuffer16BitAccess"},
                   {f.v11.storagePushConstant16, "storagePushConstant16"});
  TestDevice& device = typed_device();
  constexpr uint32_t kCount = 200, kCapacity = 256;  // 200: the last workgroup is partly idle
  constexpr uint8_t kFill = 0xCD;                    // what every byte no store may touch holds

  Random random(8016);
  std::vector<Mixed> in(kCapacity);
  std::memset(in.data(), 0x5A, sizeof(Mixed) * kCapacity);  // padding differs from the outputs' fill
  auto small_half = [&] { return half_from_double(random.uniform(0.5, 100)); };
  for (Mixed& m : in) {
    m.s8 = static_cast<int8_t>(random.next());
    for (uint8_t& v : m.v8) v = static_cast<uint8_t>(random.next());
    m.u8 = static_cast<uint8_t>(random.next());
    m.s16 = static_cast<int16_t>(random.next());
    m.h2[0] = small_half();
    m.h2[1] = small_half();
    m.u16 = static_cast<uint16_t>(random.next());
    m.h = small_half();
    for (uint8_t& v : m.bytes) v = static_cast<uint8_t>(random.next());
    m.tail8 = static_cast<int8_t>(random.next());
    for (int16_t& v : m.v16) v = static_cast<int16_t>(random.next());
    m.last = static_cast<uint8_t>(random.next());
  }
  Params params{};
  params.k8 = -77;
  params.ku8 = 200;
  params.k16 = -3;
  params.kh = half_from_double(0.25);
  params.kv8[0] = 1, params.kv8[1] = 100, params.kv8[2] = 250, params.kv8[3] = 9;
  params.kv16[0] = 7, params.kv16[1] = -300;
  for (int k = 0; k < 4; ++k) params.table[k].value = static_cast<uint8_t>(11 * (k + 1));
  const Push push{-5, 0xA5, 12345, half_from_double(1.5), {17, 240}, kCount};

  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer inputs = device.create_buffer(sizeof(Mixed) * kCapacity, storage);
  std::memcpy(inputs.mapped, in.data(), sizeof(Mixed) * kCapacity);
  Buffer outputs = device.create_buffer(sizeof(Mixed) * kCapacity, storage, kFill);
  Buffer uniforms = device.create_buffer(sizeof(Params), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  std::memcpy(uniforms.mapped, &params, sizeof(Params));
  Buffer copies = device.create_buffer(sizeof(Mixed) * kCapacity, storage, kFill);
  Buffer dense8 = device.create_buffer(kCapacity, storage, kFill);
  Buffer dense16 = device.create_buffer(2 * kCapacity, storage, kFill);
  const VkDescriptorType ssbo = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  ComputeJob job(device, "small_types_storage.comp", {ssbo, ssbo, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, ssbo, ssbo, ssbo},
                 sizeof(Push));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, inputs);
  job.bind_buffer(1, outputs);
  job.bind_buffer(2, uniforms);
  job.bind_buffer(3, copies);
  job.bind_buffer(4, dense8);
  job.bind_buffer(5, dense16);
  job.run((kCount + 63) / 64, 1, 1, &push, sizeof(Push));

  // The expected bytes: the fill everywhere, then exactly the members the shader stores.
  std::vector<Mixed> out(kCapacity), copy(kCapacity);
  std::memset(out.data(), kFill, sizeof(Mixed) * kCapacity);
  std::memset(copy.data(), kFill, sizeof(Mixed) * kCapacity);
  std::vector<uint8_t> bytes8(kCapacity, kFill);
  std::vector<uint16_t> halfwords(kCapacity, static_cast<uint16_t>(kFill * 0x101));
  for (uint32_t i = 0; i < kCount; ++i) {
    const Mixed& m = in[i];
    Mixed& o = out[i];
    o.s8 = wrap_add(wrap_mul<int8_t>(m.s8, -2), params.k8);
    for (int k = 0; k < 3; ++k) o.v8[k] = static_cast<uint8_t>(m.v8[(k + 2) % 3] + params.kv8[k]);
    o.u8 = m.u8 ^ push.pu8;
    o.s16 = wrap_sub(m.s16, push.p16);
    for (int k = 0; k < 2; ++k) o.h2[k] = half_from_double(double_from_half(m.h2[k]) * double_from_half(push.ph));
    o.u16 = static_cast<uint16_t>(m.u16 + params.table[i % 4].value);
    o.h = half_from_double(double_from_half(m.h) + double_from_half(params.kh));
    for (int k = 0; k < 3; ++k) o.bytes[k] = m.bytes[2 - k];
    o.tail8 = wrap_add(m.tail8, push.p8);
    const int16_t factors[3] = {params.kv16[0], params.kv16[1], params.k16};
    for (int k = 0; k < 3; ++k) o.v16[k] = wrap_mul(m.v16[k], factors[k]);
    o.last = static_cast<uint8_t>(m.last + push.pv8[0] + push.pv8[1] + params.ku8);
    // The copy writes every member and no padding.
    Mixed& c = copy[i];
    c.s8 = m.s8;
    std::memcpy(c.v8, m.v8, 3);
    c.u8 = m.u8;
    c.s16 = m.s16;
    std::memcpy(c.h2, m.h2, 4);
    c.u16 = m.u16;
    c.h = m.h;
    std::memcpy(c.bytes, m.bytes, 3);
    c.tail8 = m.tail8;
    std::memcpy(c.v16, m.v16, 6);
    c.last = m.last;
    bytes8[i] = static_cast<uint8_t>(i ^ m.u8 ^ static_cast<uint8_t>((i ^ 1) * 3));
    if (i & 1) halfwords[i] = static_cast<uint16_t>(i * 1000);
  }
  expect_same_bytes("outputs (member stores)", outputs.mapped, out.data(), sizeof(Mixed) * kCapacity, sizeof(Mixed));
  expect_same_bytes("copies (whole-struct copy)", copies.mapped, copy.data(), sizeof(Mixed) * kCapacity, sizeof(Mixed));
  expect_same_bytes("dense8", dense8.mapped, bytes8.data(), kCapacity, 1);
  expect_same_bytes("dense16 (odd lanes only)", dense16.mapped, halfwords.data(), 2 * kCapacity, 2);
}

// --- 64-bit storage ------------------------------------------------------------------------------

// The std430 struct Wide of wide_types_storage.comp, byte for byte.
struct Wide {
  double d;
  int64_t l;
  uint8_t padding0[16];
  double v[3];
  uint32_t u32;
  uint32_t padding1;
  uint64_t pair[2];
  double m[4];  // column-major dmat2, matrix stride 16
  uint8_t padding2[16];
};
static_assert(sizeof(Wide) == 128 && offsetof(Wide, v) == 32 && offsetof(Wide, u32) == 56 && offsetof(Wide, pair) == 64 &&
              offsetof(Wide, m) == 80);

struct WideParams {  // std140
  double scale;
  double padding0;
  int64_t offsets[2];
  double bias[3];
};
static_assert(sizeof(WideParams) == 56 && offsetof(WideParams, bias) == 32);

struct WidePush {
  double pd;
  uint64_t pl;
  uint32_t count;
  uint32_t padding;
};

TEST_F(ComputeTypesTest, WideTypesInStorageUniformAndPushConstantMemory) {
  REQUIRE_FEATURES({features().core.features.shaderInt64, "shaderInt64"},
                   {features().core.features.shaderFloat64, "shaderFloat64"});
  TestDevice& device = typed_device();
  constexpr uint32_t kCount = 50, kCapacity = 64;  // 50: the last workgroup is partly idle
  constexpr uint8_t kFill = 0xCD;
  Random random(6464);
  std::vector<Wide> in(kCapacity);
  std::memset(in.data(), 0x5A, sizeof(Wide) * kCapacity);
  for (Wide& w : in) {
    w.d = random.uniform(-1e6, 1e6);
    w.l = static_cast<int64_t>(random.next());
    for (double& v : w.v) v = random.uniform(-100, 100);
    w.u32 = static_cast<uint32_t>(random.next());
    w.pair[0] = random.next();
    w.pair[1] = random.next();
    for (double& v : w.m) v = random.uniform(-1, 1);
  }
  // A power-of-two scale keeps d * scale + pd exact whether or not a driver fuses it.
  const WideParams params{0.5, 0, {0x123456789, -0x7000000000000000}, {0.25, -1e-3, 3e10}};
  const WidePush push{1e-9, 0xF0F0F0F00F0F0F0Full, kCount, 0};

  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer inputs = device.create_buffer(sizeof(Wide) * kCapacity, storage);
  std::memcpy(inputs.mapped, in.data(), sizeof(Wide) * kCapacity);
  Buffer outputs = device.create_buffer(sizeof(Wide) * kCapacity, storage, kFill);
  Buffer uniforms = device.create_buffer(sizeof(WideParams), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  std::memcpy(uniforms.mapped, &params, sizeof(WideParams));
  ComputeJob job(device, "wide_types_storage.comp",
                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
                 sizeof(WidePush));
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, inputs);
  job.bind_buffer(1, outputs);
  job.bind_buffer(2, uniforms);
  job.run((kCount + 15) / 16, 1, 1, &push, sizeof(WidePush));

  std::vector<Wide> out(kCapacity);
  std::memset(out.data(), kFill, sizeof(Wide) * kCapacity);
  for (uint32_t i = 0; i < kCount; ++i) {
    const Wide& w = in[i];
    Wide& o = out[i];
    o.d = w.d * params.scale + push.pd;
    o.l = wrap_sub(wrap_add(w.l, params.offsets[0]), params.offsets[1]);
    for (int k = 0; k < 3; ++k) o.v[k] = w.v[(k + 2) % 3] - params.bias[k];
    o.v[i % 3] = w.m[(i & 1) * 2 + ((i >> 1) & 1)];
    o.u32 = static_cast<uint32_t>(w.pair[0] >> 40);
    o.pair[0] = w.pair[0] ^ push.pl;
    o.pair[1] = w.pair[1] ^ ~push.pl;
    for (int column = 0; column < 2; ++column)
      for (int row = 0; row < 2; ++row) o.m[column * 2 + row] = w.m[row * 2 + column];
  }
  expect_same_bytes("outputs", outputs.mapped, out.data(), sizeof(Wide) * kCapacity, sizeof(Wide));
}

// --- Subgroup operations on 8/16/64-bit types ----------------------------------------------------

struct SubgroupCase {
  int8_t a8;
  uint8_t u8;
  int16_t a16;
  uint16_t u16;
  uint16_t h, hm;  // float16 bits
  int64_t a64;
  uint64_t u64;
  double d, dm;
  uint32_t index, padding;
  std::string describe() const { return "invocation " + std::to_string(index); }
};
static_assert(sizeof(SubgroupCase) == 56 && offsetof(SubgroupCase, a64) == 16, "must match the std430 Case");

// Expectations for one type: `value(c)` and `factor(c)` read a case's operand and multiplicand
// (as T; float16 as double), `expect(e, op, v)` adds the result check. Integer arithmetic
// wraps; the float inputs are chosen so that every sum and product is exact in any order.
template <typename T>
struct SubgroupTypeModel {
  std::string name;
  std::function<T(const SubgroupCase&)> value, factor;
  std::function<void(TypedExpected&, const std::string&, T)> expect;
  uint32_t words;
  bool bitwise;
};

template <typename T>
T add_wrapping(T a, T b) {
  if constexpr (std::is_integral_v<T>) return wrap_add(a, b);
  else return a + b;
}
template <typename T>
T mul_wrapping(T a, T b) {
  if constexpr (std::is_integral_v<T>) return wrap_mul(a, b);
  else return a * b;
}

template <typename T>
void expect_subgroup_ops(TypedExpected& e, const SubgroupTypeModel<T>& model, const std::vector<SubgroupCase>& cases,
                         uint32_t index, uint32_t size, bool clustered) {
  const uint32_t lane = index % size, base = index - lane;
  auto x = [&](uint32_t l) { return model.value(cases[base + l]); };
  auto sum_over = [&](auto&& in) {
    T acc{};
    for (uint32_t l = 0; l < size; ++l)
      if (in(l)) acc = add_wrapping(acc, x(l));
    return acc;
  };
  const std::string& t = model.name;
  T product = 1, low = x(0), high = x(0);
  bool all_equal = true;
  for (uint32_t l = 0; l < size; ++l) {
    product = mul_wrapping(product, model.factor(cases[base + l]));
    low = std::min(low, x(l));
    high = std::max(high, x(l));
    all_equal = all_equal && x(l) == x(0);
  }
  model.expect(e, "subgroupAdd(" + t + ")", sum_over([](uint32_t) { return true; }));
  model.expect(e, "subgroupMul(" + t + ")", product);
  model.expect(e, "subgroupMin(" + t + ")", low);
  model.expect(e, "subgroupMax(" + t + ")", high);
  model.expect(e, "subgroupInclusiveAdd(" + t + ")", sum_over([&](uint32_t l) { return l <= lane; }));
  model.expect(e, "subgroupExclusiveAdd(" + t + ")", sum_over([&](uint32_t l) { return l < lane; }));
  model.expect(e, "subgroupBroadcast(" + t + ", 1)", x(1));
  model.expect(e, "subgroupBroadcastFirst(" + t + ")", x(0));
  model.expect(e, "subgroupShuffle(" + t + ", lane + 3)", x((lane + 3) % size));
  model.expect(e, "subgroupShuffleXor(" + t + ", 1)", x(lane ^ 1));
  if (lane >= 1) model.expect(e, "subgroupShuffleUp(" + t + ", 1)", x(lane - 1));
  else e.undefined("subgroupShuffleUp(" + t + ", 1)", model.words);
  if (lane + 1 < size) model.expect(e, "subgroupShuffleDown(" + t + ", 1)", x(lane + 1));
  else e.undefined("subgroupShuffleDown(" + t + ", 1)", model.words);
  if (clustered)
    model.expect(e, "subgroupClusteredAdd(" + t + ", 4)", sum_over([&](uint32_t l) { return l / 4 == lane / 4; }));
  model.expect(e, "subgroupQuadBroadcast(" + t + ", 2)", x((lane & ~3u) + 2));
  model.expect(e, "subgroupQuadSwapHorizontal(" + t + ")", x(lane ^ 1));
  e.boolean("subgroupAllEqual(" + t + ")", all_equal);
  e.boolean("subgroupAllEqual(broadcastFirst(" + t + "))", true);
  if (lane % 3 != 0) {  // only these lanes are active
    model.expect(e, "divergent subgroupAdd(" + t + ")", sum_over([](uint32_t l) { return l % 3 != 0; }));
    T running = x(lane);
    for (uint32_t l = 0; l <= lane; ++l)
      if (l % 3 != 0) running = std::max(running, x(l));
    model.expect(e, "divergent subgroupInclusiveMax(" + t + ")", running);
  } else {
    model.expect(e, "inactive lane value (" + t + ")", x(lane));
    model.expect(e, "inactive lane value (" + t + ")", x(lane));
  }
}

template <typename T>
void expect_bitwise_ops(TypedExpected& e, const SubgroupTypeModel<T>& model, const std::vector<SubgroupCase>& cases,
                        uint32_t index, uint32_t size) {
  const uint32_t base = index - index % size;
  T all = static_cast<T>(~T{0}), any = 0, parity = 0;
  for (uint32_t l = 0; l < size; ++l) {
    const T v = model.value(cases[base + l]);
    all &= v;
    any |= v;
    parity ^= v;
  }
  model.expect(e, "subgroupAnd(" + model.name + ")", all);
  model.expect(e, "subgroupOr(" + model.name + ")", any);
  model.expect(e, "subgroupXor(" + model.name + ")", parity);
}

TEST_F(ComputeTypesTest, SubgroupOperationsOnExtendedTypes) {
  const DeviceFeatures& f = features();
  REQUIRE_FEATURES({f.v12.shaderSubgroupExtendedTypes, "shaderSubgroupExtendedTypes"}, {f.v12.shaderInt8, "shaderInt8"},
                   {f.core.features.shaderInt16, "shaderInt16"}, {f.core.features.shaderInt64, "shaderInt64"},
                   {f.v12.shaderFloat16, "shaderFloat16"}, {f.core.features.shaderFloat64, "shaderFloat64"},
                   {f.v12.storageBuffer8BitAccess, "storageBuffer8BitAccess"},
                   {f.v11.storageBuffer16BitAccess, "storageBuffer16BitAccess"});
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(physical_device(), &properties2);
  const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                        VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                        VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
                                        VK_SUBGROUP_FEATURE_QUAD_BIT;
  REQUIRE_ON_KILN((subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && (subgroup.supportedOperations & needed) == needed,
                  "the compute subgroup operations");
  // Kiln has clustered reductions; drivers without them (lavapipe) run the shader without.
  const bool clustered = subgroup.supportedOperations & VK_SUBGROUP_FEATURE_CLUSTERED_BIT;
  if (is_kiln()) {
    EXPECT_TRUE(clustered);
  }
  const uint32_t size = subgroup.subgroupSize;
  ASSERT_TRUE(size >= 4 && kTypedLocalSize % size == 0) << "subgroup size " << size;

  Random random(1616);
  std::vector<SubgroupCase> cases(128);
  for (uint32_t i = 0; i < cases.size(); ++i) {
    SubgroupCase& c = cases[i];
    const bool uniform = i < 32;  // the first workgroup's subgroups hold equal a8, u16 and d
    c.a8 = uniform ? 5 : static_cast<int8_t>(static_cast<int>(random.below(41)) - 20);
    c.u8 = static_cast<uint8_t>(random.next());
    c.a16 = static_cast<int16_t>(static_cast<int>(random.below(6001)) - 3000);
    c.u16 = uniform ? 777 : static_cast<uint16_t>(random.next());
    c.h = half_from_double(static_cast<int>(random.below(17)) - 8);
    c.hm = half_from_double(i % 8 == 3 ? 2.0 : random.below(2) ? 1.0 : -1.0);  // products stay within float16
    c.a64 = static_cast<int64_t>(random.next());
    c.u64 = random.next();
    c.d = uniform ? 3.0 : static_cast<int>(random.below(2001)) - 1000;
    const double factors[] = {1, -1, 2, 0.5};
    c.dm = factors[random.below(4)];
    c.index = i;
  }
  auto integer = [](auto member) {
    using T = std::remove_cvref_t<decltype(SubgroupCase{}.*member)>;
    return [member](TypedExpected& e, const std::string& op, T v) {
      if constexpr (sizeof(T) == 8) e.u64(op, static_cast<uint64_t>(v));
      else if constexpr (std::is_signed_v<T>) e.i32(op, v);
      else e.u32(op, v);
    };
  };
  const SubgroupTypeModel<int8_t> i8{"int8_t", [](auto& c) { return c.a8; }, [](auto& c) { return c.a8; },
                                     integer(&SubgroupCase::a8), 1, true};
  const SubgroupTypeModel<uint8_t> u8{"uint8_t", [](auto& c) { return c.u8; }, [](auto& c) { return c.u8; },
                                      integer(&SubgroupCase::u8), 1, true};
  const SubgroupTypeModel<int16_t> i16{"int16_t", [](auto& c) { return c.a16; }, [](auto& c) { return c.a16; },
                                       integer(&SubgroupCase::a16), 1, true};
  const SubgroupTypeModel<uint16_t> u16{"uint16_t", [](auto& c) { return c.u16; }, [](auto& c) { return c.u16; },
                                        integer(&SubgroupCase::u16), 1, true};
  const SubgroupTypeModel<double> f16{"float16_t", [](auto& c) { return double_from_half(c.h); },
                                      [](auto& c) { return double_from_half(c.hm); },
                                      [](TypedExpected& e, const std::string& op, double v) { e.f16_rounded(op, v); }, 1, false};
  const SubgroupTypeModel<int64_t> i64{"int64_t", [](auto& c) { return c.a64; }, [](auto& c) { return c.a64; },
                                       integer(&SubgroupCase::a64), 2, true};
  const SubgroupTypeModel<uint64_t> u64{"uint64_t", [](auto& c) { return c.u64; }, [](auto& c) { return c.u64; },
                                        integer(&SubgroupCase::u64), 2, true};
  const SubgroupTypeModel<double> f64{"double", [](auto& c) { return c.d; }, [](auto& c) { return c.dm; },
                                      [](TypedExpected& e, const std::string& op, double v) { e.f64(op, v); }, 2, false};
  const char* shader = clustered ? "subgroup_extended_types_clustered.comp" : "subgroup_extended_types.comp";
  run<SubgroupCase>(shader, cases, [&](const SubgroupCase& c, TypedExpected& e) {
    const uint32_t i = c.index;
    e.u32("gl_SubgroupSize", size);
    e.u32("gl_SubgroupInvocationID", i % size);
    expect_subgroup_ops(e, i8, cases, i, size, clustered);
    expect_bitwise_ops(e, i8, cases, i, size);
    expect_subgroup_ops(e, u8, cases, i, size, clustered);
    expect_subgroup_ops(e, i16, cases, i, size, clustered);
    expect_bitwise_ops(e, u16, cases, i, size);
    expect_subgroup_ops(e, u16, cases, i, size, clustered);
    expect_subgroup_ops(e, f16, cases, i, size, clustered);
    expect_subgroup_ops(e, i64, cases, i, size, clustered);
    expect_bitwise_ops(e, u64, cases, i, size);
    expect_subgroup_ops(e, u64, cases, i, size, clustered);
    expect_subgroup_ops(e, f64, cases, i, size, clustered);
    const uint32_t base = i - i % size;
    int8_t sums[3] = {0, 0, 0};
    for (uint32_t l = 0; l < size; ++l) {
      sums[0] = wrap_add(sums[0], cases[base + l].a8);
      sums[1] = wrap_add(sums[1], static_cast<int8_t>(cases[base + l].u8));
      sums[2] = wrap_add(sums[2], static_cast<int8_t>(l));
    }
    for (int k = 0; k < 3; ++k) e.i8("subgroupAdd(i8vec3) [" + std::to_string(k) + "]", sums[k]);
    const SubgroupCase& partner = cases[base + ((i % size) ^ 2)];
    e.f16("subgroupShuffleXor(f16vec2, 2) [0]", partner.h);
    e.f16("subgroupShuffleXor(f16vec2, 2) [1]", partner.hm);
    e.boolean("subgroupShuffle(bool, lane + 3)", cases[base + (i % size + 3) % size].a8 > 0);
    const SubgroupCase& neighbour = cases[base + ((i % size) ^ 1)];
    e.boolean("subgroupShuffleXor(bvec2, 1) [0]", neighbour.a8 > 0);
    e.boolean("subgroupShuffleXor(bvec2, 1) [1]", neighbour.u8 > 127);
  });
}

// --- What the driver reports -------------------------------------------------------------------

// The structs of the extensions promoted into Vulkan 1.1/1.2 report what the 1.1/1.2 structs do.
// --- FPRoundingMode on conversions stored to 16-bit storage -------------------------------------

// The float16 of `x` rounded toward zero, by search over every finite float16 magnitude (an
// independent reference for the driver's one-step correction): infinities stay, NaN stays NaN.
uint16_t half_toward_zero(double x) {
  if (std::isnan(x)) return 0x7E00;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isinf(x)) return sign | 0x7C00;
  uint16_t best = 0;
  for (uint16_t magnitude = 0; magnitude < 0x7C00; ++magnitude)
    if (double_from_half(magnitude) <= std::fabs(x)) best = magnitude;
  return sign | best;
}

TEST_F(ComputeTypesTest, RoundingModeDecorationsOnConversionsToHalf) {
  const DeviceFeatures& f = features();
  REQUIRE_FEATURES({f.v12.shaderFloat16, "shaderFloat16"}, {f.core.features.shaderFloat64, "shaderFloat64"},
                   {f.v11.storageBuffer16BitAccess, "storageBuffer16BitAccess"});
  TestDevice& device = typed_device();
  constexpr uint32_t kCount = 64;  // one workgroup (fp_rounding_modes.spvasm)
  std::vector<double> values = {
      1.0, -1.0, 0.0, -0.0, 1.0 + 0x1p-11,  // a tie: RTE to even (1.0), RTZ to 1.0
      1.0 + 3 * 0x1p-11, -(1.0 + 3 * 0x1p-11),  // ties rounding up to even under RTE
      1.0 + 0x1p-11 + 0x1p-40,  // just above a tie: RTE up, only when rounded once from the double
                                // (the Debian 12 lavapipe rounds through float and gets this wrong)
      65504.0, 65519.0, 65520.0, -65520.0, 70000.0, 1e30, -1e30,  // RTE overflows at 65520, RTZ never
      0x1p-14, 0x1p-24, 0x1p-25, 3 * 0x1p-26, 1e-10, -1e-10,      // subnormal and underflow
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), kNaN,
      0.1, -0.1, 3.14159265358979, 2.0 / 3.0, -1234.567, 999.99};
  Random random(2026);
  while (values.size() < kCount) values.push_back(random.uniform(-70000, 70000) * std::exp2(-static_cast<int>(random.below(30))));
  std::vector<float> floats(kCount);
  for (uint32_t i = 0; i < kCount; ++i) floats[i] = static_cast<float>(values[i]);

  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer float_in = device.create_buffer(sizeof(float) * kCount, storage);
  Buffer double_in = device.create_buffer(sizeof(double) * kCount, storage);
  Buffer results = device.create_buffer(sizeof(uint16_t) * 4 * kCount, storage, 0xCD);
  std::memcpy(float_in.mapped, floats.data(), sizeof(float) * kCount);
  std::memcpy(double_in.mapped, values.data(), sizeof(double) * kCount);
  const VkDescriptorType ssbo = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  ComputeJob job(device, "fp_rounding_modes.spvasm", {ssbo, ssbo, ssbo});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, float_in);
  job.bind_buffer(1, double_in);
  job.bind_buffer(2, results);
  job.run(1);

  const uint16_t* got = mapped_as<uint16_t>(results);
  GroupedFailures failures([&](size_t i) { return "value " + num(values[i]) + ", as float " + num(floats[i]); });
  for (uint32_t i = 0; i < kCount; ++i) {
    const double sources[4] = {floats[i], floats[i], values[i], values[i]};
    const char* names[4] = {"float RTE", "float RTZ", "double RTE", "double RTZ"};
    for (int k = 0; k < 4; ++k) {
      const uint16_t expected = k % 2 == 0 ? half_from_double(sources[k]) : half_toward_zero(sources[k]);
      const uint16_t actual = got[4 * i + k];
      const bool both_nan = std::isnan(double_from_half(expected)) && std::isnan(double_from_half(actual));
      // Vulkan lets float16 results in the subnormal range flush to zero of either sign.
      const bool flushed = is_subnormal(double_from_half(expected), 16) && (actual & 0x7FFF) == 0;
      if (actual != expected && !both_nan && !flushed)
        failures.add(names[k], i, hex(actual), hex(expected));
    }
  }
  failures.report(kCount);
}

// Float controls Kiln reports (shaderDenormPreserve, shaderSignedZeroInfNanPreserve and
// shaderRoundingModeRTE for 16, 32 and 64 bits): with those execution modes, +, -, * and / on
// subnormal operands and results, signed zeros, infinities and NaNs give the host's IEEE results
// bit for bit (this test binary runs with the default MXCSR: nothing flushed; half results are
// the exact result rounded once to nearest even).
template <typename T>
std::vector<T> float_control_operands() {
  using L = std::numeric_limits<T>;
  const T tiny = L::denorm_min(), smallest_normal = L::min();
  std::vector<T> v = {smallest_normal, -smallest_normal / 2,  // sum and difference subnormal
                      tiny * 3, tiny,                          // subnormal operands
                      std::sqrt(smallest_normal) / 4, std::sqrt(smallest_normal) / 8,  // product subnormal
                      smallest_normal / 2, T(4),               // quotient subnormal
                      T(0.0), T(-0.0), T(-0.0), T(-0.0),       // signed zeros
                      T(-0.0), T(5), L::infinity(), T(2),      // -0 * 5, inf / 2
                      L::infinity(), L::infinity(), -L::infinity(), T(0.0),
                      L::quiet_NaN(), T(1), T(1), T(3)};       // NaN, 1/3 rounded to nearest even
  Random random(7);
  while (v.size() < 128) v.push_back(T(random.uniform(-4, 4)) * std::exp2(T(-int(random.below(L::max_exponent + L::digits)))));
  return v;
}

std::vector<uint16_t> half_float_control_operands() {
  std::vector<uint16_t> v = {0x0400, 0x8200,  // smallest normal + (-2^-15): subnormal
                             0x0003, 0x0001,  // subnormal operands
                             0x2000, 0x1C00,  // 2^-7 * 2^-8: subnormal product
                             0x0200, 0x4400,  // 2^-15 / 4: subnormal quotient
                             0x0000, 0x8000, 0x8000, 0x8000,  // signed zeros
                             0x8000, 0x4500, 0x7C00, 0x4000,  // -0 * 5, inf / 2
                             0x7C00, 0x7C00, 0xFC00, 0x0000,  // inf - inf, -inf / 0
                             0x7E00, 0x3C00, 0x3C00, 0x4200};  // NaN, 1/3 rounded to nearest even
  Random random(9);
  while (v.size() < 128) v.push_back(half_from_double(random.uniform(-4, 4) * std::exp2(-int(random.below(26)))));
  return v;
}

TEST_F(ComputeTypesTest, FloatControlsPreserveDenormalsSignedZerosInfinitiesAndNaNs) {
  VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p12};
  vkGetPhysicalDeviceProperties2(physical_device(), &query);
  REQUIRE_ON_KILN(p12.shaderDenormPreserveFloat16 && p12.shaderDenormPreserveFloat32 && p12.shaderDenormPreserveFloat64 &&
                      p12.shaderSignedZeroInfNanPreserveFloat16 && p12.shaderSignedZeroInfNanPreserveFloat32 &&
                      p12.shaderSignedZeroInfNanPreserveFloat64 && p12.shaderRoundingModeRTEFloat16 &&
                      p12.shaderRoundingModeRTEFloat32 && p12.shaderRoundingModeRTEFloat64,
                  "float controls: denorm/signed-zero-inf-nan preserve and RTE for 16, 32 and 64 bits");
  const DeviceFeatures& f = features();
  REQUIRE_FEATURES({f.core.features.shaderFloat64, "shaderFloat64"}, {f.v12.shaderFloat16, "shaderFloat16"},
                   {f.v11.storageBuffer16BitAccess, "storageBuffer16BitAccess"});
  TestDevice& device = typed_device();
  constexpr uint32_t kPairs = 64;  // one workgroup (float_controls_preserve.spvasm)
  const std::vector<float> floats = float_control_operands<float>();
  const std::vector<double> doubles = float_control_operands<double>();
  const std::vector<uint16_t> halves = half_float_control_operands();
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer float_in = device.create_buffer(sizeof(float) * 2 * kPairs, storage);
  Buffer double_in = device.create_buffer(sizeof(double) * 2 * kPairs, storage);
  Buffer float_out = device.create_buffer(sizeof(float) * 4 * kPairs, storage, 0xCD);
  Buffer double_out = device.create_buffer(sizeof(double) * 4 * kPairs, storage, 0xCD);
  std::memcpy(float_in.mapped, floats.data(), sizeof(float) * 2 * kPairs);
  std::memcpy(double_in.mapped, doubles.data(), sizeof(double) * 2 * kPairs);
  Buffer half_in = device.create_buffer(sizeof(uint16_t) * 2 * kPairs, storage);
  Buffer half_out = device.create_buffer(sizeof(uint16_t) * 4 * kPairs, storage, 0xCD);
  std::memcpy(half_in.mapped, halves.data(), sizeof(uint16_t) * 2 * kPairs);
  const VkDescriptorType ssbo = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  ComputeJob job(device, "float_controls_preserve.spvasm", {ssbo, ssbo, ssbo, ssbo, ssbo, ssbo});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, float_in);
  job.bind_buffer(1, double_in);
  job.bind_buffer(2, float_out);
  job.bind_buffer(3, double_out);
  job.bind_buffer(4, half_in);
  job.bind_buffer(5, half_out);
  job.run(1);
  auto check = [&](const auto& in, const auto* got, const char* type) {
    using T = std::decay_t<decltype(in[0])>;
    GroupedFailures failures([&](size_t i) { return std::string(type) + " pair " + std::to_string(i); });
    const char* names[4] = {"a + b", "a - b", "a * b", "a / b"};
    for (uint32_t i = 0; i < kPairs; ++i) {
      const T a = in[2 * i], b = in[2 * i + 1];
      const T expected[4] = {a + b, a - b, a * b, a / b};
      for (int k = 0; k < 4; ++k) {
        const T actual = got[4 * i + k];
        const bool same = std::isnan(expected[k]) ? std::isnan(actual) : std::memcmp(&actual, &expected[k], sizeof(T)) == 0;
        if (!same) failures.add(names[k], i, num(double(actual)), num(double(expected[k])));
      }
    }
    failures.report(kPairs);
  };
  check(floats, mapped_as<float>(float_out), "float");
  check(doubles, mapped_as<double>(double_out), "double");
  GroupedFailures half_failures([](size_t i) { return "half pair " + std::to_string(i); });
  const uint16_t* got = mapped_as<uint16_t>(half_out);
  const char* names[4] = {"a + b", "a - b", "a * b", "a / b"};
  for (uint32_t i = 0; i < kPairs; ++i) {
    const double a = double_from_half(halves[2 * i]), b = double_from_half(halves[2 * i + 1]);
    // +, -, * are exact in double and / is rounded innocuously (53 >= 2 * 11 + 2 bits): one rounding to half.
    const uint16_t expected[4] = {half_from_double(a + b), half_from_double(a - b), half_from_double(a * b),
                                  half_from_double(a / b)};
    for (int k = 0; k < 4; ++k) {
      const uint16_t actual = got[4 * i + k];
      const bool same = std::isnan(double_from_half(expected[k])) ? std::isnan(double_from_half(actual)) : actual == expected[k];
      if (!same) half_failures.add(names[k], i, hex(actual), hex(expected[k]));
    }
  }
  half_failures.report(kPairs);
}

// --- OpSpecConstantOp that specialization cannot fold ----------------------------------------------

TEST_F(ComputeTypesTest, SpecConstantOpsOnWideAndNarrowTypesAndShuffles) {
  const DeviceFeatures& f = features();
  REQUIRE_FEATURES({f.core.features.shaderInt16, "shaderInt16"}, {f.core.features.shaderInt64, "shaderInt64"},
                   {f.core.features.shaderFloat64, "shaderFloat64"});
  TestDevice& device = typed_device();
  struct {
    int16_t s16 = -7;
    int16_t pad[3] = {};
    int64_t s64 = -123456789012;
    float f32 = 0.1f;
    int32_t a = 11, b = 22, c = 33;
  } data;
  const VkSpecializationMapEntry entries[] = {{0, offsetof(decltype(data), s16), 2}, {1, offsetof(decltype(data), s64), 8},
                                             {2, offsetof(decltype(data), f32), 4}, {3, offsetof(decltype(data), a), 4},
                                             {4, offsetof(decltype(data), b), 4},   {5, offsetof(decltype(data), c), 4}};
  const VkSpecializationInfo spec{6, entries, sizeof data, &data};
  Buffer results = device.create_buffer(8 * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  ComputeJob job(device, "spec_constant_ops_wide.spvasm", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0, &spec);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, results);
  job.run(1);

  const uint64_t shifted_right = static_cast<uint64_t>(data.s64 >> 4);  // arithmetic on every C++20 target
  const uint64_t shifted_left = static_cast<uint64_t>(data.s64) << 4;
  const uint64_t widened = std::bit_cast<uint64_t>(static_cast<double>(data.f32));
  const uint32_t expected[8] = {0xFFC8u,  // uint16(-7 << 3), zero-extended
                                0xFFFFFFFEu,  // -7 >> 2 = -2
                                static_cast<uint32_t>(shifted_right), static_cast<uint32_t>(shifted_right >> 32),
                                static_cast<uint32_t>(widened), static_cast<uint32_t>(widened >> 32),
                                33u,  // the shuffles put c first
                                static_cast<uint32_t>(shifted_left)};
  const uint32_t* got = mapped_as<uint32_t>(results);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], expected[i]) << "result " << i;
}

// OpSpecConstantOp QuantizeToF16: values below half's normal range become zero of their sign,
// halfway cases round to even, values past half's range become infinities.
TEST_F(ComputeTypesTest, SpecConstantQuantizeToF16FlushesBelowHalfRange) {
  const float values[6] = {std::ldexp(1.0f, -16), -std::ldexp(1.0f, -32), std::ldexp(1.0f, -14), 1.0f + std::ldexp(1.0f, -11),
                           1.0f + 3 * std::ldexp(1.0f, -11), 65536.0f};
  const float expected[8] = {0.0f, -0.0f, std::ldexp(1.0f, -14), 1.0f, 1.0f + std::ldexp(1.0f, -9),
                             std::numeric_limits<float>::infinity(), 0.0f, -0.0f};
  VkSpecializationMapEntry entries[6];
  for (uint32_t i = 0; i < 6; ++i) entries[i] = {i, i * 4, 4};
  const VkSpecializationInfo spec{6, entries, sizeof values, values};
  Buffer results = device().create_buffer(8 * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  ComputeJob job(device(), "spec_constant_quantize.spvasm", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0, &spec);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, results);
  job.run(1);
  for (int i = 0; i < 8; ++i)  // bit patterns: -0 and +0 differ
    EXPECT_EQ(std::bit_cast<uint32_t>(mapped_as<float>(results)[i]), std::bit_cast<uint32_t>(expected[i]))
        << "result " << i << ": " << mapped_as<float>(results)[i] << ", expected " << expected[i];
}

// Spec-constant shuffles and inserts whose other vector is OpUndef (components it never supplies).
TEST_F(ComputeTypesTest, SpecConstantShufflesTakeUndefinedVectors) {
  const int32_t abc[3] = {123, 56, -77};
  const VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
  const VkSpecializationInfo spec{3, entries, sizeof abc, abc};
  Buffer results = device().create_buffer(4 * sizeof(int32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);
  ComputeJob job(device(), "spec_constant_shuffle_undef.spvasm", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0, &spec);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, results);
  job.run(1);
  const int32_t expected[4] = {-77, 123, 56, (-77 - 123) * 56};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(mapped_as<int32_t>(results)[i], expected[i]) << "result " << i;
}

TEST_F(ComputeTypesTest, PromotedFeatureStructsAgreeWithTheCoreStructs) {
  VkPhysicalDeviceShaderFloat16Int8Features float16_int8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDevice8BitStorageFeatures storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, &float16_int8};
  VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, &storage8};
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES, &storage16};
  // Garbage first, so a struct the driver does not fill shows.
  for (VkBool32* b : {&float16_int8.shaderFloat16, &float16_int8.shaderInt8, &storage8.storageBuffer8BitAccess,
                      &storage8.uniformAndStorageBuffer8BitAccess, &storage8.storagePushConstant8,
                      &storage16.storageBuffer16BitAccess, &storage16.uniformAndStorageBuffer16BitAccess,
                      &storage16.storagePushConstant16, &storage16.storageInputOutput16,
                      &subgroup.shaderSubgroupExtendedTypes})
    *b = 0xBAD;
  VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &subgroup};
  vkGetPhysicalDeviceFeatures2(physical_device(), &query);
  const DeviceFeatures& f = features();
  EXPECT_EQ(float16_int8.shaderFloat16, f.v12.shaderFloat16);
  EXPECT_EQ(float16_int8.shaderInt8, f.v12.shaderInt8);
  EXPECT_EQ(storage8.storageBuffer8BitAccess, f.v12.storageBuffer8BitAccess);
  EXPECT_EQ(storage8.uniformAndStorageBuffer8BitAccess, f.v12.uniformAndStorageBuffer8BitAccess);
  EXPECT_EQ(storage8.storagePushConstant8, f.v12.storagePushConstant8);
  EXPECT_EQ(storage16.storageBuffer16BitAccess, f.v11.storageBuffer16BitAccess);
  EXPECT_EQ(storage16.uniformAndStorageBuffer16BitAccess, f.v11.uniformAndStorageBuffer16BitAccess);
  EXPECT_EQ(storage16.storagePushConstant16, f.v11.storagePushConstant16);
  EXPECT_EQ(storage16.storageInputOutput16, f.v11.storageInputOutput16);
  EXPECT_EQ(subgroup.shaderSubgroupExtendedTypes, f.v12.shaderSubgroupExtendedTypes);

  VkPhysicalDeviceFloatControlsProperties controls{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  std::memset(reinterpret_cast<char*>(&controls) + sizeof(VkBaseOutStructure), 0x5A, sizeof(controls) - sizeof(VkBaseOutStructure));
  VkPhysicalDeviceVulkan12Properties core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, &controls};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &core};
  vkGetPhysicalDeviceProperties2(physical_device(), &properties);
  EXPECT_EQ(controls.denormBehaviorIndependence, core.denormBehaviorIndependence);
  EXPECT_EQ(controls.roundingModeIndependence, core.roundingModeIndependence);
  const std::pair<VkBool32, VkBool32> same[] = {
      {controls.shaderSignedZeroInfNanPreserveFloat16, core.shaderSignedZeroInfNanPreserveFloat16},
      {controls.shaderSignedZeroInfNanPreserveFloat32, core.shaderSignedZeroInfNanPreserveFloat32},
      {controls.shaderSignedZeroInfNanPreserveFloat64, core.shaderSignedZeroInfNanPreserveFloat64},
      {controls.shaderDenormPreserveFloat16, core.shaderDenormPreserveFloat16},
      {controls.shaderDenormPreserveFloat32, core.shaderDenormPreserveFloat32},
      {controls.shaderDenormPreserveFloat64, core.shaderDenormPreserveFloat64},
      {controls.shaderDenormFlushToZeroFloat16, core.shaderDenormFlushToZeroFloat16},
      {controls.shaderDenormFlushToZeroFloat32, core.shaderDenormFlushToZeroFloat32},
      {controls.shaderDenormFlushToZeroFloat64, core.shaderDenormFlushToZeroFloat64},
      {controls.shaderRoundingModeRTEFloat16, core.shaderRoundingModeRTEFloat16},
      {controls.shaderRoundingModeRTEFloat32, core.shaderRoundingModeRTEFloat32},
      {controls.shaderRoundingModeRTEFloat64, core.shaderRoundingModeRTEFloat64},
      {controls.shaderRoundingModeRTZFloat16, core.shaderRoundingModeRTZFloat16},
      {controls.shaderRoundingModeRTZFloat32, core.shaderRoundingModeRTZFloat32},
      {controls.shaderRoundingModeRTZFloat64, core.shaderRoundingModeRTZFloat64},
  };
  for (size_t k = 0; k < std::size(same); ++k) EXPECT_EQ(same[k].first, same[k].second) << "float-controls member " << k;
}

// Kiln reports this whole family (the tests above check it works); inputs and outputs of
// 16-bit types wait for stages that have them.
TEST_F(ComputeTypesTest, KilnReportsTheTypeFeatures) {
  KILN_ONLY();
  const DeviceFeatures& f = features();
  EXPECT_TRUE(f.core.features.shaderInt64);
  EXPECT_TRUE(f.core.features.shaderInt16);
  EXPECT_TRUE(f.core.features.shaderFloat64);
  EXPECT_TRUE(f.v11.storageBuffer16BitAccess);
  EXPECT_TRUE(f.v11.uniformAndStorageBuffer16BitAccess);
  EXPECT_TRUE(f.v11.storagePushConstant16);
  EXPECT_FALSE(f.v11.storageInputOutput16);
  EXPECT_TRUE(f.v12.shaderInt8);
  EXPECT_TRUE(f.v12.shaderFloat16);
  EXPECT_TRUE(f.v12.storageBuffer8BitAccess);
  EXPECT_TRUE(f.v12.uniformAndStorageBuffer8BitAccess);
  EXPECT_TRUE(f.v12.storagePushConstant8);
  EXPECT_TRUE(f.v12.shaderSubgroupExtendedTypes);
}

}  // namespace
}  // namespace kiln::test
