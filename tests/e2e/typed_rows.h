#pragma once
// Row-per-invocation instruction tests for results of mixed widths: 8-, 16-, 32- and 64-bit
// integers and 16-, 32- and 64-bit floats. The shader (tests/shaders/ops_*.comp including
// ops_results.glsl and ops_types_results.glsl) writes each result as one or two 32-bit words;
// TypedExpected lists, in the same order, what each result must be, and run_typed_cases runs a
// shader over a list of cases and compares every result with its CPU reference.
//
// Float results are compared by value (any NaN matches any NaN; +0 and -0 are equal) unless a
// check asks for bits. Where the Vulkan spec allows an error ("Precision and Operation of SPIR-V
// Instructions"), the check states the bound; operations Kiln computes exactly (correctly rounded
// division and square root) are exact on Kiln and get the spec's bound on other drivers.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {

// --- IEEE binary16 on the host, without compiler extensions -----------------------------------

// The float16 nearest to `x` (ties to even), as bits: overflow gives infinity, NaN a quiet NaN.
uint16_t half_from_double(double x);
double double_from_half(uint16_t bits);
// One unit in the last place of a float16 of magnitude |x| (2^-24 in the subnormal range).
double half_ulp(double x);
// One ULP of a float / double of magnitude |x|.
double float_ulp(double x);
double double_ulp(double x);
// Whether `x` is nonzero and below the normal range of the float type of `bits` width: Vulkan
// lets such results flush to zero unless the shader asks to preserve denormals.
bool is_subnormal(double x, int bits);

// --- Expectations --------------------------------------------------------------------------------

// What one result must be. `words` is 1 (up to 32 bits) or 2 (64 bits).
struct TypedExpectation {
  enum class Kind { Bits, Float, Near, OneOf, Undefined };
  std::string op;
  Kind kind = Kind::Bits;
  int float_bits = 0;  // 16, 32, 64 for float results (how to read them); 0 for integers
  uint32_t words = 1;
  uint64_t bits = 0;              // Bits
  double value = 0;               // Float (exact), Near
  double tolerance = 0;           // Near
  std::vector<uint64_t> options;  // OneOf: bit patterns (integers), values as bits (floats)

  bool matches(uint64_t got) const;
  std::string describe() const;
  std::string describe_result(uint64_t got) const;
};

// The expected results of one invocation, in the order its shader emits them.
class TypedExpected {
 public:
  explicit TypedExpected(bool kiln) : kiln_(kiln) {}
  bool kiln() const { return kiln_; }

  // Integers: exact. 8- and 16-bit results are emitted sign- (signed types) or zero-extended.
  void u64(const std::string& op, uint64_t v) { add({op, TypedExpectation::Kind::Bits, 0, 2, v}); }
  void i64(const std::string& op, int64_t v) { u64(op, static_cast<uint64_t>(v)); }
  void u32(const std::string& op, uint32_t v) { add({op, TypedExpectation::Kind::Bits, 0, 1, v}); }
  void i32(const std::string& op, int32_t v) { u32(op, static_cast<uint32_t>(v)); }
  void u16(const std::string& op, uint16_t v) { u32(op, v); }
  void i16(const std::string& op, int16_t v) { i32(op, v); }
  void u8(const std::string& op, uint8_t v) { u32(op, v); }
  void i8(const std::string& op, int8_t v) { i32(op, v); }
  void boolean(const std::string& op, bool v) { u32(op, v ? 1u : 0u); }

  // Floats, exactly this value.
  void f64(const std::string& op, double v) { add_float(op, 64, v); }
  void f32(const std::string& op, float v) { add_float(op, 32, v); }
  void f16(const std::string& op, uint16_t half_bits) { add_float(op, 16, double_from_half(half_bits)); }
  // The float16 nearest to `v` (for results that are correctly rounded).
  void f16_rounded(const std::string& op, double v) { f16(op, half_from_double(v)); }
  // Within `tolerance` of `v` (NaN and infinities must match exactly).
  void near(const std::string& op, int float_bits, double v, double tolerance);
  // A correctly rounded result `v` (already of the result type) for which the spec allows
  // `spec_tolerance`: Kiln computes it exactly, other drivers get the tolerance.
  void ieee(const std::string& op, int float_bits, double v, double spec_tolerance) {
    near(op, float_bits, v, kiln_ ? 0.0 : spec_tolerance);
  }
  // A float result `v` of `float_bits` width that may also flush to a zero of either sign
  // (a subnormal: the shader does not ask to preserve denormals).
  void float_or_flushed(const std::string& op, int float_bits, double v);
  // Any of these integer bit patterns.
  void one_of(const std::string& op, uint32_t words, std::vector<uint64_t> options);
  // Any of these float values (by value, as for f64 etc.), for results the spec lets vary (e.g.
  // round() of a half, a fused or unfused fma).
  void one_of_values(const std::string& op, int float_bits, const std::vector<double>& values);
  void undefined(const std::string& op, uint32_t words) { add({op, TypedExpectation::Kind::Undefined, 0, words}); }

  const std::vector<TypedExpectation>& list() const { return list_; }
  uint32_t words() const;

 private:
  void add(TypedExpectation e) { list_.push_back(std::move(e)); }
  void add_float(const std::string& op, int float_bits, double v);
  bool kiln_;
  std::vector<TypedExpectation> list_;
};

// Bit pattern of a float value of `float_bits` width (v must be representable).
uint64_t float_bits_of(double v, int float_bits);

// --- Running a shader over cases -----------------------------------------------------------------

// A specialization constant beside kRowWords (constant_id 0, set by run_typed_cases).
struct SpecValue {
  uint32_t constant_id;
  uint32_t size;  // bytes: 1, 2, 4 or 8
  uint64_t bits;
};

// Compares each invocation's row with its expectations; mismatches are grouped by operation with
// the first few examples, so one broken instruction gives one readable failure. `describe(i)`
// names invocation i's case.
void check_typed_rows(const std::vector<TypedExpected>& expected, const uint32_t* rows, uint32_t row_words,
                      const std::function<std::string(size_t)>& describe);

// Runs `shader` (local size kTypedLocalSize) with one invocation per case: binding 0 holds the
// cases as an array of Case (the shader's std430 struct must match Case's C++ layout), binding 1
// receives the rows. Cases are repeated to fill whole workgroups.
inline constexpr uint32_t kTypedLocalSize = 32;

template <typename Case>
void run_typed_cases(TestDevice& device, bool kiln, const std::string& shader, std::vector<Case> cases,
                     const std::function<void(const Case&, TypedExpected&)>& reference,
                     const std::vector<SpecValue>& spec = {}) {
  ASSERT_FALSE(cases.empty());
  for (size_t i = 0; cases.size() % kTypedLocalSize != 0; ++i) cases.push_back(cases[i]);
  std::vector<TypedExpected> expected;
  for (const Case& c : cases) {
    expected.emplace_back(kiln);
    reference(c, expected.back());
    ASSERT_EQ(expected.back().list().size(), expected.front().list().size()) << "the reference must emit a fixed list";
  }
  const uint32_t row_words = expected.front().words() + 1;
  const uint32_t count = static_cast<uint32_t>(cases.size());

  Buffer input = device.create_buffer(sizeof(Case) * count, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  std::memcpy(input.mapped, cases.data(), sizeof(Case) * count);
  Buffer rows = device.create_buffer(uint64_t{row_words} * count * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xCD);

  std::vector<VkSpecializationMapEntry> entries{{0, 0, 4}};
  std::vector<uint8_t> data(8);
  std::memcpy(data.data(), &row_words, 4);
  for (const SpecValue& s : spec) {
    const uint32_t offset = static_cast<uint32_t>(data.size());
    data.resize(offset + 8);
    std::memcpy(data.data() + offset, &s.bits, s.size);  // little-endian: the low bytes
    entries.push_back({s.constant_id, offset, s.size});
  }
  const VkSpecializationInfo specialization{static_cast<uint32_t>(entries.size()), entries.data(), data.size(), data.data()};
  ComputeJob job(device, shader, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0, &specialization);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS) << shader;
  job.bind_buffer(0, input);
  job.bind_buffer(1, rows);
  job.run(count / kTypedLocalSize);
  check_typed_rows(expected, mapped_as<uint32_t>(rows), row_words, [&](size_t i) { return cases[i].describe(); });
}

}  // namespace kiln::test
