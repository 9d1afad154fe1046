// Integer dot products (shaderIntegerDotProduct, SPV_KHR_integer_dot_product): OpSDot, OpUDot,
// OpSUDot and their AccSat forms on 8/16/32/64-bit vectors and packed 4x8-bit scalars, against an
// exact CPU reference: the plain forms wrap to the result's width; the AccSat forms saturate the
// final accumulation. AccSat results whose products or sum already overflow the result's width are
// undefined by the spec and not checked.
//
// ctest runs these at KILN_SIMD_WIDTH=4, 8 and the default; KILN_TEST_DRIVER=lavapipe checks the
// test itself.
#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/grouped_failures.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

// As in tests/shaders/integer_dot_product.spvasm: component bits, component count (0: four 8-bit
// components packed in a 32-bit scalar), result bits.
struct Config {
  unsigned bits, count, result_bits;
};
constexpr Config kConfigs[] = {{8, 4, 8},   {8, 4, 32},  {8, 3, 16},  {16, 4, 16}, {16, 2, 64}, {32, 4, 32}, {32, 3, 64},
                               {64, 4, 64}, {64, 2, 64}, {8, 0, 8},   {8, 0, 16},  {8, 0, 32},  {8, 0, 64}};
constexpr const char* kOps[] = {"SDot", "UDot", "SUDot", "SDotAccSat", "UDotAccSat", "SUDotAccSat"};
constexpr size_t kResultsPerInvocation = std::size(kConfigs) * std::size(kOps);
constexpr uint32_t kWordsPerInvocation = 9;  // x0..x3, y0..y3, acc

using i128 = __int128;

// The low `bits` bits of `word` as a signed or unsigned number.
i128 extend(uint64_t word, unsigned bits, bool is_signed) {
  const uint64_t low = bits == 64 ? word : word & ((uint64_t{1} << bits) - 1);
  if (is_signed && bits < 64 && (low >> (bits - 1)) & 1) return static_cast<i128>(low) - (i128{1} << bits);
  if (is_signed && bits == 64) return static_cast<int64_t>(low);
  return low;
}

i128 range_min(unsigned bits, bool is_signed) { return is_signed ? -(i128{1} << (bits - 1)) : 0; }
i128 range_max(unsigned bits, bool is_signed) { return is_signed ? (i128{1} << (bits - 1)) - 1 : (i128{1} << bits) - 1; }

// The expected result (zero-extended to 64 bits), or nullopt where the spec leaves it undefined.
std::optional<uint64_t> reference(const Config& c, size_t op, const uint64_t* words) {
  const bool x_signed = op == 0 || op == 2 || op == 3 || op == 5;
  const bool y_signed = op == 0 || op == 3;
  const bool saturating = op >= 3;
  const unsigned n = c.result_bits;
  const unsigned count = c.count ? c.count : 4;
  const unsigned bits = c.count ? c.bits : 8;  // packed: the low byte of each word
  i128 positive = 0, negative = 0;
  bool overflowed = false;  // 64-bit unsigned products can exceed even 128 bits (signed)
  for (unsigned k = 0; k < count; ++k) {
    i128 product;
    overflowed |= __builtin_mul_overflow(extend(words[k], bits, x_signed), extend(words[4 + k], bits, y_signed), &product);
    overflowed |= __builtin_add_overflow(product < 0 ? negative : positive, product, product < 0 ? &negative : &positive);
  }
  const uint64_t mask = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  // Wraps: the low n bits (added unsigned: the signed sum may overflow, which would be UB).
  if (!saturating) return static_cast<uint64_t>(static_cast<unsigned __int128>(positive) + static_cast<unsigned __int128>(negative)) & mask;
  // With products of one sign and the other summed separately inside the range, no product and
  // no partial sum in any order overflows: only then is the result defined.
  const bool is_signed = x_signed;  // SDot and SUDot saturate signed, UDot unsigned
  if (overflowed || positive > range_max(n, is_signed) || negative < range_min(n, is_signed)) return std::nullopt;
  i128 sum = positive + negative + extend(words[8], n, is_signed);
  sum = std::min(std::max(sum, range_min(n, is_signed)), range_max(n, is_signed));
  return static_cast<uint64_t>(sum) & mask;
}

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

class ComputeDotProductTest : public VulkanTest {};

TEST_F(ComputeDotProductTest, EveryVariantWrapsOrSaturatesLikeTheSpec) {
  const DeviceFeatures& s = features();
  REQUIRE_ON_KILN(s.v13.shaderIntegerDotProduct && s.v12.shaderInt8 && s.core.features.shaderInt16 &&
                      s.core.features.shaderInt64,
                  "shaderIntegerDotProduct with shaderInt8/16/64");
  DeviceFeatures enabled;
  enabled.v13.shaderIntegerDotProduct = VK_TRUE;
  enabled.v12.shaderInt8 = VK_TRUE;
  enabled.core.features.shaderInt16 = VK_TRUE;
  enabled.core.features.shaderInt64 = VK_TRUE;
  DeviceOptions options;
  options.create_info_chain = &enabled.core;
  TestDevice* device = create_device(options);
  ASSERT_NE(device, nullptr);

  // Four kinds of invocation, 64 each: random words (wrapping); small components in [-4, 4] and in
  // [0, 4] with accumulators at or near every width's limits (saturation both ways); components
  // at the signed/unsigned extremes of every width (wrapping of large products).
  constexpr uint32_t kGroups = 4, kCount = 64 * kGroups;
  std::mt19937_64 random(4242);
  std::vector<uint64_t> limits;
  for (unsigned bits : {8u, 16u, 32u, 64u}) {
    const uint64_t max_signed = (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1) >> 1;
    limits.push_back(max_signed);                           // signed max
    limits.push_back(~max_signed);                          // signed min, sign-extended
    limits.push_back(max_signed * 2 + 1);                   // unsigned max
    limits.push_back(max_signed + 1);                       // signed min, zero-extended
  }
  auto pick = [&](const std::vector<uint64_t>& from) { return from[random() % from.size()]; };
  std::vector<uint64_t> words(size_t{kWordsPerInvocation} * kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    uint64_t* w = &words[size_t{kWordsPerInvocation} * i];
    const uint32_t kind = i / 64;
    for (int k = 0; k < 8; ++k) {
      if (kind == 0) w[k] = random();
      if (kind == 1) w[k] = static_cast<uint64_t>(static_cast<int64_t>(random() % 9) - 4);
      if (kind == 2) w[k] = random() % 5;
      if (kind == 3) w[k] = random() % 4 == 0 ? random() % 3 : pick(limits);
    }
    const int64_t delta = static_cast<int64_t>(random() % 17) - 8;
    w[8] = kind == 0 ? random() : pick(limits) + static_cast<uint64_t>(delta);
  }

  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer inputs = device->create_buffer(sizeof(uint64_t) * words.size(), storage);
  Buffer results = device->create_buffer(sizeof(uint64_t) * kResultsPerInvocation * kCount, storage, 0xCD);
  std::memcpy(inputs.mapped, words.data(), sizeof(uint64_t) * words.size());
  const VkDescriptorType ssbo = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  ComputeJob job(*device, "integer_dot_product.spvasm", {ssbo, ssbo});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, inputs);
  job.bind_buffer(1, results);
  job.run(kGroups);

  const uint64_t* got = mapped_as<uint64_t>(results);
  GroupedFailures failures([&](size_t i) {
    std::string text;
    for (uint32_t k = 0; k < kWordsPerInvocation; ++k) text += (k ? " " : "words ") + hex(words[kWordsPerInvocation * i + k]);
    return text;
  });
  size_t saturating_checked = 0;
  for (uint32_t i = 0; i < kCount; ++i)
    for (size_t c = 0; c < std::size(kConfigs); ++c)
      for (size_t op = 0; op < std::size(kOps); ++op) {
        const Config& config = kConfigs[c];
        const auto want = reference(config, op, &words[size_t{kWordsPerInvocation} * i]);
        if (!want) continue;
        if (op >= 3) ++saturating_checked;
        const uint64_t actual = got[kResultsPerInvocation * i + std::size(kOps) * c + op];
        if (actual != *want) {
          const std::string name = std::string(kOps[op]) + (config.count ? " " + std::to_string(config.count) + "x" : " packed 4x") +
                                   std::to_string(config.bits) + "-bit -> " + std::to_string(config.result_bits) + "-bit";
          failures.add(name, i, hex(actual), hex(*want));
        }
      }
  failures.report(kCount);
  // The inputs must exercise the saturating forms, not only leave them undefined.
  EXPECT_GT(saturating_checked, kCount * std::size(kConfigs) * 3 / 4);
}

}  // namespace
}  // namespace kiln::test
