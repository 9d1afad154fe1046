// Invalid and hostile SPIR-V (issue 21): modules that spirv-val rejects make pipeline creation
// fail with a code the spec allows (Kiln: VK_ERROR_UNKNOWN, never the extension code
// VK_ERROR_INVALID_SHADER_NV) and exactly one log line that names the problem; valid but huge
// modules (deep nesting, thousands of blocks, huge arrays, workgroup memory beyond the limit)
// compile and run, or fail the same clean way, in bounded time.
//
// The invalid modules go through an instance without the validation layer
// (create_unvalidated_context): the layer would rightly report them, and the point is what the
// driver does with what a layer rejects. The valid ones run validated like every other test.
// Modules are assembled here with SPIRV-Tools (spvTextToBinary), some then broken word by word.
#include <spirv-tools/libspirv.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

std::vector<uint32_t> assemble(const std::string& text) {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_3);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  std::vector<uint32_t> words;
  if (spvTextToBinary(context, text.data(), text.size(), &binary, &diagnostic) == SPV_SUCCESS) {
    words.assign(binary->code, binary->code + binary->wordCount);
  } else {
    ADD_FAILURE() << "spirv-as: " << (diagnostic ? diagnostic->error : "?") << "\n" << text.substr(0, 2000);
  }
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return words;
}

// spirv-val's first diagnostic for `words` (Vulkan 1.3 rules), or "" when it accepts them.
std::string validator_error(const std::vector<uint32_t>& words) {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_3);
  spv_const_binary_t binary{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  std::string error;
  if (spvValidate(context, &binary, &diagnostic) != SPV_SUCCESS) error = diagnostic ? diagnostic->error : "invalid";
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return error;
}

// A compute shader around `body` (instructions of main's entry block, ending with its
// terminator): `out` is a storage buffer of uints at set 0 binding 0, `gid` the invocation id.
// `globals` go after the common types and constants, `locals` (Function variables) first in main.
std::string compute_module(const std::string& globals, const std::string& body, const std::string& locals = "") {
  return R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %out
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %rta ArrayStride 4
               OpDecorate %block Block
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
   %in_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %in_v3uint Input
        %rta = OpTypeRuntimeArray %uint
      %block = OpTypeStruct %rta
   %sb_block = OpTypePointer StorageBuffer %block
        %out = OpVariable %sb_block StorageBuffer
    %sb_uint = OpTypePointer StorageBuffer %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
    %float_1 = OpConstant %float 1
)" + globals + R"(
       %main = OpFunction %void None %fn
      %entry = OpLabel
)" + locals + R"(
     %gid_v = OpLoad %v3uint %gid
     %gid_x = OpCompositeExtract %uint %gid_v 0
     %out_x = OpAccessChain %sb_uint %out %uint_0 %gid_x
)" + body + R"(
               OpFunctionEnd
)";
}

const char* const kStoreOneBody = "OpStore %out_x %uint_1\nOpReturn\n";

// Everything written to stderr while `run` runs (Kiln logs there, one line per event).
template <typename Fn>
std::string stderr_of(Fn&& run) {
  fflush(stderr);
  testing::internal::CaptureStderr();
  run();
  fflush(stderr);
  return testing::internal::GetCapturedStderr();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

class HostileSpirvTest : public VulkanTest {
 protected:
  // Creates a module of `words` and a compute pipeline from it (entry point `entry`) on a device
  // without the validation layer; returns the pipeline's result and Kiln's log lines.
  struct Outcome {
    VkResult module_result = VK_SUCCESS;
    VkResult pipeline_result = VK_SUCCESS;
    bool pipeline_null = true;
    std::vector<std::string> log;
  };
  // The layout: set 0 bindings 0 .. storage_buffers-1 storage buffers, push constants of push_bytes.
  Outcome create_unvalidated(const std::vector<uint32_t>& words, const char* entry = "main", uint32_t storage_buffers = 1,
                             uint32_t push_bytes = 0) {
    if (!unvalidated_) {
      UnvalidatedContext context = create_unvalidated_context();
      EXPECT_EQ(TestDevice::create(context.physical_device, DeviceOptions{}, &unvalidated_), VK_SUCCESS);
    }
    Outcome outcome;
    if (!unvalidated_) return outcome;
    VkDevice d = unvalidated_->handle();
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t i = 0; i < storage_buffers; ++i)
      bindings.push_back({i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.bindingCount = storage_buffers;
    set_info.pBindings = bindings.data();
    VkDescriptorSetLayout set_layout;
    EXPECT_EQ(vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout), VK_SUCCESS);
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
    layout_info.pPushConstantRanges = &push;
    VkPipelineLayout layout;
    EXPECT_EQ(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout), VK_SUCCESS);
    const std::string log = stderr_of([&] {
      VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      module_info.codeSize = words.size() * 4;
      module_info.pCode = words.data();
      VkShaderModule module = VK_NULL_HANDLE;
      outcome.module_result = vkCreateShaderModule(d, &module_info, nullptr, &module);
      if (outcome.module_result != VK_SUCCESS) return;
      VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, entry};
      info.layout = layout;
      VkPipeline pipeline = VK_NULL_HANDLE;
      outcome.pipeline_result = vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
      outcome.pipeline_null = pipeline == VK_NULL_HANDLE;
      vkDestroyPipeline(d, pipeline, nullptr);
      vkDestroyShaderModule(d, module, nullptr);
    });
    vkDestroyPipelineLayout(d, layout, nullptr);
    vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
    for (const std::string& line : lines_of(log))
      if (line.rfind("kiln ", 0) == 0) outcome.log.push_back(line);
    return outcome;
  }

  // The checks for a module Kiln must reject: the module may be created (Kiln defers the checks to
  // the pipeline) or fail with VK_ERROR_UNKNOWN; the pipeline fails with VK_ERROR_UNKNOWN and no
  // handle; one log line, containing `problem`.
  void expect_rejected(const std::vector<uint32_t>& words, const std::string& problem, const char* entry = "main") {
    const Outcome outcome = create_unvalidated(words, entry);
    const VkResult result = outcome.module_result != VK_SUCCESS ? outcome.module_result : outcome.pipeline_result;
    EXPECT_NE(result, VK_ERROR_INVALID_SHADER_NV) << "an extension's code Kiln does not expose";
    EXPECT_EQ(result, VK_ERROR_UNKNOWN);
    EXPECT_TRUE(outcome.pipeline_null);
    ASSERT_EQ(outcome.log.size(), 1u) << "log:\n" << testing::PrintToString(outcome.log);
    EXPECT_NE(outcome.log[0].find(problem), std::string::npos) << outcome.log[0] << "\nshould name: " << problem;
  }

  // The first line of spirv-val's diagnostic, which Kiln's log line must contain.
  static std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

  void TearDown() override {
    unvalidated_.reset();
    VulkanTest::TearDown();
  }

  std::unique_ptr<TestDevice> unvalidated_;
};

// --- Modules spirv-val rejects ------------------------------------------------------------------

TEST_F(HostileSpirvTest, ValidatorRejectedModulesFailWithUnknownAndOneLogLine) {
  KILN_ONLY();
  struct Case {
    const char* name;
    std::string text;
  };
  const std::vector<Case> cases = {
      {"an id used but never defined", compute_module("", "OpStore %out_x %nowhere\nOpReturn\n")},
      {"operand types that do not match", compute_module("", "%sum = OpIAdd %uint %uint_1 %float_1\nOpStore %out_x %sum\nOpReturn\n")},
      {"a block without a terminator", compute_module("", "OpStore %out_x %uint_1\n")},
      {"a back edge without OpLoopMerge",
       compute_module("", "OpBranch %head\n%head = OpLabel\nOpStore %out_x %uint_1\nOpBranch %head\n")},
      {"a store through an Input pointer", compute_module("", "OpStore %gid %gid_v\nOpReturn\n")},
      {"a function called recursively",
       compute_module("", "%r = OpFunctionCall %void %main\nOpReturn\n")},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<uint32_t> words = assemble(c.text);
    ASSERT_FALSE(words.empty());
    const std::string error = validator_error(words);
    ASSERT_FALSE(error.empty()) << "spirv-val accepts the module meant to be invalid";
    expect_rejected(words, first_line(error));
  }
}

TEST_F(HostileSpirvTest, BrokenWordsFailWithUnknownAndOneLogLine) {
  KILN_ONLY();
  const std::vector<uint32_t> valid = assemble(compute_module("", kStoreOneBody));
  ASSERT_GT(valid.size(), 30u);
  {
    SCOPED_TRACE("the header's id bound below the ids in use");
    std::vector<uint32_t> words = valid;
    words[3] = 2;
    expect_rejected(words, first_line(validator_error(words)));
  }
  {
    SCOPED_TRACE("an opcode that does not exist");
    std::vector<uint32_t> words = valid;
    words.insert(words.begin() + 5, (1u << 16) | 0xfff0u);
    expect_rejected(words, first_line(validator_error(words)));
  }
  {
    SCOPED_TRACE("the last instruction's word count running past the end");
    std::vector<uint32_t> words = valid;
    words.back() = (7u << 16) | (words.back() & 0xffffu);
    expect_rejected(words, first_line(validator_error(words)));
  }
  {
    SCOPED_TRACE("a word count of zero");
    std::vector<uint32_t> words = valid;
    words[5] &= 0xffffu;
    expect_rejected(words, first_line(validator_error(words)));
  }
  {
    SCOPED_TRACE("a wrong magic number");
    std::vector<uint32_t> words = valid;
    words[0] = 0x12345678;
    expect_rejected(words, "magic");
  }
  {
    SCOPED_TRACE("only a header");
    std::vector<uint32_t> words(valid.begin(), valid.begin() + 5);
    expect_rejected(words, first_line(validator_error(words)));
  }
}

TEST_F(HostileSpirvTest, ValidModuleUsedWronglyFailsWithUnknownAndOneLogLine) {
  KILN_ONLY();
  const std::vector<uint32_t> words = assemble(compute_module("", kStoreOneBody));
  {
    SCOPED_TRACE("an entry point name the module does not have");
    expect_rejected(words, "missing_entry", "missing_entry");
  }
  {
    SCOPED_TRACE("a vertex shader given as the compute stage");
    const std::vector<uint32_t> vertex = test_shader_code("draw_colored.vert");
    ASSERT_FALSE(vertex.empty());
    expect_rejected(vertex, "main");
  }
}

// Found by the fuzzer (tests/fuzz): a constant index far past the end of a built-in vector
// (valid SPIR-V, an undefined value) made the compiler read past the workgroup size it indexes
// (ASan: heap-buffer-overflow in load_builtin). Now every such read is 0 on Kiln.
TEST_F(VulkanTest, BuiltinVectorIndexPastTheEndCompilesAndRuns) {
  const std::string globals = "%in_uint = OpTypePointer Input %uint\n%far = OpConstant %uint 2147483647\n"
                              "%uint_3 = OpConstant %uint 3\n";
  std::string body;
  int n = 0;
  for (const char* index : {"%uint_3", "%far"}) {
    const std::string i = std::to_string(n++);
    body += "%p" + i + " = OpAccessChain %in_uint %gid " + index + "\n%v" + i + " = OpLoad %uint %p" + i + "\n";
  }
  body += "%sum = OpIAdd %uint %v0 %v1\nOpStore %out_x %sum\nOpReturn\n";
  const std::vector<uint32_t> words = assemble(compute_module(globals, body));
  ASSERT_EQ(validator_error(words), "");
  Buffer out = device().create_buffer(64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xff);
  ComputeJob job(device(), words, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.bind_buffer(0, out);
  job.run(1);
  KILN_ONLY();  // the value is undefined; Kiln's is 0
  EXPECT_EQ(mapped_as<uint32_t>(out)[0], 0u);
}

// Every module that crashed the fuzzer (tests/fuzz/regressions, also rerun by the fuzzer itself
// as fuzz.spirv_regressions in the ASan build), through the harness's layout (4 storage buffers,
// 256 bytes of push constants), with the result Kiln gives now.
TEST_F(HostileSpirvTest, ModulesThatCrashedTheFuzzerCompileOrFailCleanly) {
  KILN_ONLY();
  struct Case {
    const char* file;
    VkResult expected;
  };
  const Case cases[] = {
      {"builtin-index-past-end.spv", VK_SUCCESS},   // GlobalInvocationId[0x7fffffff]: reads 0
      {"bitcast-of-pointer.spv", VK_ERROR_UNKNOWN},  // OpBitcast of an Input variable to ivec2
      {"spec-constant-insert-into-scalar.spv", VK_ERROR_UNKNOWN},  // OpSpecConstantOp CompositeInsert into an int
      {"spec-constant-insert-index-past-end.spv", VK_ERROR_UNKNOWN},  // CompositeInsert at index 2097152002 of an ivec3
      {"id-bound-at-maximum.spv", VK_ERROR_UNKNOWN},  // bound 0x3FFFFF (no ids left for the optimizer); binding 89 not in the layout
      {"void-value-operand.spv", VK_ERROR_UNKNOWN},  // a void call's result as OpGroupNonUniformShuffleXor's value
      {"spec-constant-shuffle-past-its-vectors.spv", VK_ERROR_UNKNOWN},  // OpSpecConstantOp VectorShuffle component 54 of 6
      {"bitcast-of-buffer-variable.spv", VK_ERROR_UNKNOWN},  // OpBitcast of a storage buffer variable to a uint
      {"spec-constant-shuffle-of-undefined-components.spv", VK_SUCCESS},  // spec-constant shuffle of 0xFFFFFFFF components
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    std::ifstream file(std::string(KILN_TEST_FUZZ_REGRESSIONS_DIR) + "/" + c.file, std::ios::binary);
    ASSERT_TRUE(file) << "missing";
    const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    const Outcome outcome = create_unvalidated(words, "main", 4, 256);
    EXPECT_EQ(outcome.module_result, VK_SUCCESS);
    EXPECT_EQ(outcome.pipeline_result, c.expected);
    EXPECT_EQ(outcome.pipeline_null, c.expected != VK_SUCCESS);
    if (c.expected != VK_SUCCESS) EXPECT_EQ(outcome.log.size(), 1u) << testing::PrintToString(outcome.log);
  }
}

// --- Valid but huge -----------------------------------------------------------------------------

// Seconds `run` takes.
template <typename Fn>
double seconds_of(Fn&& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Creating a pipeline of a huge module takes bounded time: generous for sanitizer builds and a
// busy CI machine, far below a hang.
constexpr double kCompileSecondsLimit = 120;

class HugeSpirvTest : public VulkanTest {
 protected:
  // Compiles and runs `text` (validated; it must be valid) for one workgroup and returns out[0].
  uint32_t run_module(const std::string& text, double* compile_seconds) {
    const std::vector<uint32_t> words = assemble(text);
    EXPECT_EQ(validator_error(words), "");
    Buffer out = device().create_buffer(64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::unique_ptr<ComputeJob> job;
    *compile_seconds = seconds_of([&] {
      job = std::make_unique<ComputeJob>(device(), words, std::vector<VkDescriptorType>{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    });
    EXPECT_EQ(job->pipeline_result(), VK_SUCCESS);
    if (job->pipeline_result() != VK_SUCCESS) return ~0u;
    job->bind_buffer(0, out);
    job->run(1);
    return mapped_as<uint32_t>(out)[0];
  }
};

TEST_F(HugeSpirvTest, DeeplyNestedSelectionsCompileAndRun) {
  // 300 nested if-blocks, each adding 1 when the (always true) condition holds.
  constexpr int kDepth = 300;
  std::string body = "%v0 = OpIAdd %uint %gid_x %uint_0\n";
  for (int i = 0; i < kDepth; ++i) {
    body += "%c" + std::to_string(i) + " = OpULessThan %bool %gid_x %uint_1\n";
    body += "OpSelectionMerge %m" + std::to_string(i) + " None\n";
    body += "OpBranchConditional %c" + std::to_string(i) + " %t" + std::to_string(i) + " %m" + std::to_string(i) + "\n";
    body += "%t" + std::to_string(i) + " = OpLabel\n";
    body += "%v" + std::to_string(i + 1) + " = OpIAdd %uint %v" + std::to_string(i) + " %uint_1\n";
    body += "OpStore %out_x %v" + std::to_string(i + 1) + "\n";
  }
  for (int i = kDepth - 1; i >= 0; --i) body += "OpBranch %m" + std::to_string(i) + "\n%m" + std::to_string(i) + " = OpLabel\n";
  body += "OpReturn\n";
  double seconds = 0;
  EXPECT_EQ(run_module(compute_module("", body), &seconds), static_cast<uint32_t>(kDepth));
  EXPECT_LT(seconds, kCompileSecondsLimit);
}

TEST_F(HugeSpirvTest, ThousandsOfBlocksCompileAndRun) {
  // 4000 blocks in a chain, each adding 1.
  constexpr int kBlocks = 4000;
  std::string body = "%v0 = OpIAdd %uint %gid_x %uint_0\nOpBranch %b0\n";
  for (int i = 0; i < kBlocks; ++i) {
    body += "%b" + std::to_string(i) + " = OpLabel\n";
    body += "%v" + std::to_string(i + 1) + " = OpIAdd %uint %v" + std::to_string(i) + " %uint_1\n";
    body += "OpBranch %b" + std::to_string(i + 1) + "\n";
  }
  body += "%b" + std::to_string(kBlocks) + " = OpLabel\nOpStore %out_x %v" + std::to_string(kBlocks) + "\nOpReturn\n";
  double seconds = 0;
  EXPECT_EQ(run_module(compute_module("", body), &seconds), static_cast<uint32_t>(kBlocks));
  EXPECT_LT(seconds, kCompileSecondsLimit);
}

TEST_F(HugeSpirvTest, SwitchWithThousandsOfCasesCompilesAndRuns) {
  constexpr int kCases = 500;  // 2000 take ~20 s to compile (much of it LLVM's), fine but slow for CI
  std::string body = "OpSelectionMerge %merge None\nOpSwitch %gid_x %default";
  for (int i = 0; i < kCases; ++i) body += " " + std::to_string(i) + " %case" + std::to_string(i);
  body += "\n";
  for (int i = 0; i < kCases; ++i) {
    body += "%case" + std::to_string(i) + " = OpLabel\n%k" + std::to_string(i) + " = OpIAdd %uint %gid_x %uint_" +
            (i % 2 ? "1" : "2") + "\nOpStore %out_x %k" + std::to_string(i) + "\nOpBranch %merge\n";
  }
  body += "%default = OpLabel\nOpBranch %merge\n%merge = OpLabel\nOpReturn\n";
  double seconds = 0;
  EXPECT_EQ(run_module(compute_module("", body), &seconds), 2u);  // invocation 0 takes case 0: 0 + 2
  EXPECT_LT(seconds, kCompileSecondsLimit);
}

TEST_F(HugeSpirvTest, HugePrivateArraysCompileAndRunOrFailCleanly) {
  // Function-storage arrays of 4K uints (16 KiB per invocation: fits), 4M uints (16 MiB: more
  // stack than a worker has) and 2^32-1 uints (a size that wraps in 32 bits), indexed dynamically
  // and with a constant index (which once made one register per element).
  for (const char* length : {"4096", "4194304", "4294967295"}) {
    for (const char* index_of : {"%dynamic = OpIAdd %uint %gid_x %uint_7", "%constant = OpCopyObject %uint %uint_7"}) {
      const std::string index = std::string(index_of)[1] == 'd' ? "%dynamic" : "%uint_7";
      SCOPED_TRACE(std::string(length) + ", " + index_of);
      const std::string globals =
          std::string("%len = OpConstant %uint ") + length + "\n%arr = OpTypeArray %uint %len\n%fn_arr = OpTypePointer Function %arr\n"
          "%fn_uint = OpTypePointer Function %uint\n%uint_7 = OpConstant %uint 7\n";
      const std::string text = compute_module(globals,
                                              std::string(index_of) + "\n%element = OpAccessChain %fn_uint %local " + index +
                                                  "\nOpStore %element %uint_7\n%loaded = OpLoad %uint %element\n"
                                                  "OpStore %out_x %loaded\nOpReturn\n",
                                              "%local = OpVariable %fn_arr Function");
      const std::vector<uint32_t> words = assemble(text);
      ASSERT_EQ(validator_error(words), "");
      Buffer out = device().create_buffer(64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
      std::unique_ptr<ComputeJob> job;
      const double seconds = seconds_of([&] {
        job = std::make_unique<ComputeJob>(device(), words, std::vector<VkDescriptorType>{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
      });
      EXPECT_LT(seconds, kCompileSecondsLimit);
      if (job->pipeline_result() == VK_SUCCESS) {
        job->bind_buffer(0, out);
        job->run(1);
        EXPECT_EQ(mapped_as<uint32_t>(out)[0], 7u);
      } else {
        EXPECT_EQ(job->pipeline_result(), VK_ERROR_UNKNOWN);
        EXPECT_NE(std::string(length), "4096") << "a 16 KiB array must fit";
      }
    }
  }
}

// Workgroup memory beyond maxComputeSharedMemorySize is invalid usage (the layer reports it, so
// this runs unvalidated): Kiln refuses the pipeline instead of allocating it per workgroup.
TEST_F(HostileSpirvTest, WorkgroupMemoryBeyondTheLimitFailsCleanly) {
  KILN_ONLY();
  for (const char* length : {"65536", "268435456", "4294967295"}) {
    SCOPED_TRACE(length);
    const std::string globals = std::string("%len = OpConstant %uint ") + length +
                                "\n%arr = OpTypeArray %uint %len\n%wg_arr = OpTypePointer Workgroup %arr\n"
                                "%wg_uint = OpTypePointer Workgroup %uint\n%shared = OpVariable %wg_arr Workgroup\n";
    std::string text = compute_module(globals,
                                      "%element = OpAccessChain %wg_uint %shared %gid_x\nOpStore %element %uint_1\n"
                                      "%loaded = OpLoad %uint %element\nOpStore %out_x %loaded\nOpReturn\n");
    text.replace(text.find("%gid %out"), 9, "%gid %out %shared");
    const std::vector<uint32_t> words = assemble(text);
    ASSERT_EQ(validator_error(words), "");
    expect_rejected(words, "maxComputeSharedMemorySize");
  }
}

}  // namespace
}  // namespace kiln::test
