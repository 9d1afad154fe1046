// debugPrintfEXT (NonSemantic.DebugPrintf) in Kiln's kernels (docs/design/debug-output.md): every
// active invocation formats its message, which reaches the messengers whose filters take INFO /
// GENERAL "KILN-debug-printf" messages, or stdout when none does. Compute, vertex and fragment
// shaders; texts checked exactly. lavapipe has no native debugPrintfEXT (it drops the
// instructions), so there the pipelines run and the message checks are skipped.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "e2e/compute_job.h"
#include "e2e/debug_messages.h"
#include "e2e/draw_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr const char* kPrintfId = "KILN-debug-printf";
constexpr VkDebugUtilsMessageTypeFlagsEXT kAllTypes = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;

std::string printf_string(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string printf_string(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

// What printf_values.comp prints, 2 workgroups of 4: every invocation but 5.
std::vector<std::string> expected_compute_messages() {
  std::vector<std::string> out;
  for (uint32_t i = 0; i < 8; ++i) {
    if (i == 5) continue;
    const float f = float(i) * 0.5f + 0.25f;
    out.push_back(printf_string(
        "compute workgroup (%u,0,0) invocation (%u,0,0): i=%u s=%d f=%.2f x=%x v=%f, %f, %f big=%llu e=%e 100%%", i / 4,
        i % 4, i, int(i) - 2, f, i * 255u, f, -1.5, double(i), static_cast<unsigned long long>(uint64_t(i) << 40), f));
  }
  return out;
}

std::vector<std::string> texts(const std::vector<DebugMessage>& messages) {
  std::vector<std::string> out;
  for (const DebugMessage& m : messages) out.push_back(m.text);
  return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Skips the rest of a test (the message checks) on drivers without native debugPrintfEXT.
#define SKIP_UNLESS_NATIVE_PRINTF()                                                                   \
  do {                                                                                                \
    if (!is_kiln())                                                                                   \
      GTEST_SKIP() << properties().deviceName << " has no native debugPrintfEXT (it drops NonSemantic.DebugPrintf)"; \
  } while (0)

class DebugPrintfTest : public VulkanTest {
 protected:
  // A device with shaderInt64 (printf_values.comp prints a 64-bit value).
  TestDevice& int64_device() {
    if (!int64_device_) {
      DeviceFeatures enabled;
      enabled.core.features.shaderInt64 = VK_TRUE;
      int64_device_ = create_device(enabled);
      if (!int64_device_) throw std::runtime_error("device with shaderInt64");
    }
    return *int64_device_;
  }
  // Runs printf_values.comp over 2 workgroups of 4 invocations.
  void run_compute() {
    ASSERT_TRUE(features().core.features.shaderInt64) << "shaderInt64";
    TestDevice& dev = int64_device();
    ComputeJob job(dev, "printf_values.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    ASSERT_EQ(VK_SUCCESS, job.pipeline_result());
    Buffer done = dev.create_buffer(8 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    job.bind_buffer(0, done);
    job.run(2);
    for (uint32_t i = 0; i < 8; ++i) ASSERT_EQ(1u, mapped_as<uint32_t>(done)[i]) << "invocation " << i << " ran";
  }

  // Draws `count` vertices of printf_draw.vert from `first` (fragments: printf_draw.frag) into a
  // 4x4 target with an INFO messenger; returns the colour texels, the printf texts in `printed`.
  std::vector<uint8_t> draw_printing(uint32_t count, uint32_t first, std::vector<std::string>* printed) {
    MessageLog log;
    log.create(instance().handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT);
    DrawJobOptions o;
    o.vertex_shader = "printf_draw.vert";
    o.fragment_shader = "printf_draw.frag";
    o.width = o.height = 4;
    DrawJob job(device(), o);
    if (job.pipeline_result() != VK_SUCCESS) throw std::runtime_error("printf_draw pipeline");
    job.draw(VkClearColorValue{}, [&](VkCommandBuffer cb) { vkCmdDraw(cb, count, 1, first, 0); });
    *printed = texts(log.with_id(kPrintfId));
    return job.read_color();
  }

 private:
  TestDevice* int64_device_ = nullptr;
};

TEST_F(DebugPrintfTest, ComputeInvocationsPrintTheirValues) {
  MessageLog log;
  log.create(instance().handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT);
  run_compute();
  SKIP_UNLESS_NATIVE_PRINTF();
  const std::vector<DebugMessage> messages = log.with_id(kPrintfId);
  for (const DebugMessage& m : messages) {
    EXPECT_EQ(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, m.severity);
    EXPECT_EQ(VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, m.types);
  }
  const std::vector<std::string> got = texts(messages);
  EXPECT_EQ(sorted(expected_compute_messages()), sorted(got));
  // One kernel call runs a workgroup's invocations (W >= 4): they print in ascending lane order.
  std::vector<size_t> first_group;
  for (size_t k = 0; k < got.size(); ++k)
    if (got[k].rfind("compute workgroup (0,0,0)", 0) == 0) first_group.push_back(k);
  EXPECT_TRUE(std::is_sorted(first_group.begin(), first_group.end(),
                             [&](size_t a, size_t b) { return got[a] < got[b]; }));
}

// Kiln's reports reach only the messengers whose severity and type filters take them; while one
// does, nothing goes to stdout.
TEST_F(DebugPrintfTest, OnlyMessengersWhoseFiltersMatchHearIt) {
  MessageLog info_general, verbose, info_validation;
  info_general.create(instance().handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT);
  verbose.create(instance().handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT, kAllTypes);
  info_validation.create(instance().handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
                         VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT);
  testing::internal::CaptureStdout();
  run_compute();
  const std::string out = testing::internal::GetCapturedStdout();
  SKIP_UNLESS_NATIVE_PRINTF();
  EXPECT_EQ(7u, info_general.with_id(kPrintfId).size());
  EXPECT_EQ(0u, verbose.with_id(kPrintfId).size());
  EXPECT_EQ(0u, info_validation.with_id(kPrintfId).size());
  EXPECT_EQ(std::string::npos, out.find("compute workgroup")) << out;
}

// With no messenger that takes INFO messages (the fixture's takes warnings and errors only),
// every message is a line on stdout.
TEST_F(DebugPrintfTest, WithoutAMessengerItGoesToStdout) {
  testing::internal::CaptureStdout();
  run_compute();
  const std::string out = testing::internal::GetCapturedStdout();
  SKIP_UNLESS_NATIVE_PRINTF();
  std::vector<std::string> lines;
  std::istringstream stream(out);
  for (std::string line; std::getline(stream, line);)
    if (line.rfind("compute workgroup", 0) == 0) lines.push_back(line);
  EXPECT_EQ(sorted(expected_compute_messages()), sorted(lines)) << out;
}

// A vertex shader prints once per vertex and a fragment shader once per covered pixel (helper
// invocations do not print): two triangles over a 4x4 target.
TEST_F(DebugPrintfTest, VertexAndFragmentShadersPrintPerInvocation) {
  std::vector<std::string> printed;
  const std::vector<uint8_t> pixels = draw_printing(6, 0, &printed);
  for (size_t i = 0; i < pixels.size(); ++i) ASSERT_EQ(255, pixels[i]) << "byte " << i << ": every pixel drawn";
  SKIP_UNLESS_NATIVE_PRINTF();

  const float corners[6][2] = {{-1, -1}, {1, -1}, {-1, 1}, {-1, 1}, {1, -1}, {1, 1}};
  std::vector<std::string> expected_vertices, expected_fragments, vertices, fragments;
  for (int v = 0; v < 6; ++v)
    expected_vertices.push_back(
        printf_string("vertex index %d instance 0: vertex %d at %f, %f", v, v, corners[v][0], corners[v][1]));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      expected_fragments.push_back(printf_string("fragment at (%d,%d): frag %.1f %.1f", x, y, x + 0.5, y + 0.5));
  for (const std::string& text : printed) (text.rfind("vertex", 0) == 0 ? vertices : fragments).push_back(text);
  EXPECT_EQ(sorted(expected_vertices), sorted(vertices));
  EXPECT_EQ(sorted(expected_fragments), sorted(fragments));
}

// Quads on a triangle's edge run helper invocations for derivatives; they do not print. The
// triangle covers the pixels with x + y <= 2 of a 4x4 target: the quads at (2,0) and (0,2) have
// one covered pixel and three helpers each.
TEST_F(DebugPrintfTest, HelperInvocationsDoNotPrint) {
  std::vector<std::string> printed;
  const std::vector<uint8_t> pixels = draw_printing(3, 6, &printed);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      ASSERT_EQ(x + y <= 2 ? 255 : 0, pixels[(y * 4 + x) * 4]) << "pixel (" << x << "," << y << ")";
  SKIP_UNLESS_NATIVE_PRINTF();
  std::vector<std::string> expected, fragments;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x + y <= 2; ++x)
      expected.push_back(printf_string("fragment at (%d,%d): frag %.1f %.1f", x, y, x + 0.5, y + 0.5));
  for (const std::string& text : printed)
    if (text.rfind("fragment", 0) == 0) fragments.push_back(text);
  EXPECT_EQ(sorted(expected), sorted(fragments));
}

}  // namespace
}  // namespace kiln::test
