// common/debug_printf.h: GL_EXT_debug_printf's conversions over argument bits, and each stage's
// message prefix.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "common/abi/shader_stage.h"
#include "common/debug_printf.h"

namespace kiln {
namespace {

PrintfValue u32(uint32_t v) { return {32, v}; }
PrintfValue i32(int32_t v) { return {32, uint32_t(v)}; }
PrintfValue f32(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return {32 | abi::kPrintfFloat, bits};
}
PrintfValue f64(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  return {64 | abi::kPrintfFloat, bits};
}

std::string fmt(const char* format, std::vector<PrintfValue> values) { return format_debug_printf(format, values); }

TEST(DebugPrintfFormat, IntegerConversionsReadTheValuesWidth) {
  EXPECT_EQ("-3 -3 4294967293 fffffffd FFFFFFFD 37777777775", fmt("%d %i %u %x %X %o", {i32(-3), i32(-3), i32(-3), i32(-3), i32(-3), i32(-3)}));
  EXPECT_EQ("-1 65535", fmt("%d %u", {{16, 0xffff}, {16, 0xffff}}));
  EXPECT_EQ("A", fmt("%c", {u32(65)}));
}

TEST(DebugPrintfFormat, SixtyFourBitValuesWithEitherSpelling) {
  const PrintfValue big{64, 0x123456789abcdefull};
  EXPECT_EQ("81985529216486895 123456789abcdef 81985529216486895", fmt("%lu %lx %ul", {big, big, big}));
  EXPECT_EQ("-2", fmt("%ld", {{64, ~uint64_t{0} - 1}}));
}

TEST(DebugPrintfFormat, FloatConversionsOfEveryWidth) {
  EXPECT_EQ("1.500000 1.50e+00 0.25 -0x1p+1 2.5", fmt("%f %.2e %g %a %.1f", {f32(1.5f), f32(1.5f), f32(0.25f), f32(-2.0f), f64(2.5)}));
  EXPECT_EQ("0.500000 -inf", fmt("%f %f", {{16 | abi::kPrintfFloat, 0x3800}, {16 | abi::kPrintfFloat, 0xfc00}}));
}

TEST(DebugPrintfFormat, FlagsWidthAndPrecision) {
  EXPECT_EQ("[   7] [7   ] [0007] [+7] [  3.14]", fmt("[%4d] [%-4d] [%04d] [%+d] [%6.2f]", {i32(7), i32(7), i32(7), i32(7), f32(3.14159f)}));
}

TEST(DebugPrintfFormat, VectorsJoinTheirComponents) {
  EXPECT_EQ("(1, 2, 3, 4) (0.50, 1.50)", fmt("(%v4d) (%.2v2f)", {i32(1), i32(2), i32(3), i32(4), f32(0.5f), f32(1.5f)}));
  EXPECT_EQ("1.0, 2.0|1.0, 2.0", fmt("%.1v2f|%v2.1f", {f32(1), f32(2), f32(1), f32(2)}));
}

TEST(DebugPrintfFormat, PercentStringsMissingValuesAndStrayPercents) {
  static const char kText[] = "hello";
  EXPECT_EQ("100% hello", fmt("100%% %s", {{0, uint64_t(uintptr_t(kText))}}));
  EXPECT_EQ("1 (missing)", fmt("%d %d", {i32(1)}));
  EXPECT_EQ("50%q", fmt("50%q", {}));
  EXPECT_EQ("end %", fmt("end %", {}));
}

TEST(DebugPrintfFormat, MessagesNameTheStageAndInvocation) {
  abi::DebugPrintfCall call{};
  const uint8_t kinds[] = {32};
  const uint64_t values[] = {7, 8};
  call.format = "value = %d";
  call.kinds = kinds;
  call.value_count = 1;
  call.width = 2;
  call.values = values;
  auto ids = [&](std::vector<uint32_t> lane1) {
    for (size_t j = 0; j < lane1.size(); ++j) call.ids[j][1] = lane1[j];
  };
  call.stage = uint32_t(ShaderStage::Compute);
  ids({1, 2, 3, 4, 5, 6});
  EXPECT_EQ("compute workgroup (1,2,3) invocation (4,5,6): value = 8", debug_printf_message(call, 1));
  call.stage = uint32_t(ShaderStage::Mesh);
  EXPECT_EQ("mesh workgroup (1,2,3) invocation (4,5,6): value = 8", debug_printf_message(call, 1));
  call.stage = uint32_t(ShaderStage::Vertex);
  ids({9, 1});
  EXPECT_EQ("vertex index 9 instance 1: value = 8", debug_printf_message(call, 1));
  call.stage = uint32_t(ShaderStage::Fragment);
  EXPECT_EQ("fragment at (9,1): value = 8", debug_printf_message(call, 1));
  call.stage = uint32_t(ShaderStage::Geometry);
  EXPECT_EQ("geometry primitive 9 invocation 1: value = 8", debug_printf_message(call, 1));
  call.stage = uint32_t(ShaderStage::TessellationControl);
  EXPECT_EQ("tessellation control primitive 9 invocation 1: value = 8", debug_printf_message(call, 1));
  call.stage = uint32_t(ShaderStage::TessellationEvaluation);
  const float u = 0.5f, v = 0.25f, w = 0.25f;
  uint32_t bits[3];
  std::memcpy(&bits[0], &u, 4);
  std::memcpy(&bits[1], &v, 4);
  std::memcpy(&bits[2], &w, 4);
  ids({3, bits[0], bits[1], bits[2]});
  EXPECT_EQ("tessellation evaluation primitive 3 coord (0.5,0.25,0.25): value = 8", debug_printf_message(call, 1));
}

}  // namespace
}  // namespace kiln
