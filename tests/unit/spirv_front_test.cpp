// The SPIR-V front end (compiler/spirv_front.h), the shader hash and the KILN_DUMP files.
#include "compiler/spirv_front.h"

#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "compiler/shader_dump.h"
#include "compiler/shader_hash.h"
#include "shaders/test_shaders.h"

namespace kiln::compiler {
namespace {

const char* const kComputeShaders[] = {"saxpy.comp",          "loop_control.comp",          "shared_reduction.comp",
                                       "histogram.comp",      "spec_constants.comp",        "spec_constants_int64.comp",
                                       "push_constants.comp"};

ShaderSource compute_source(const std::vector<uint32_t>& words, std::string_view entry_point = "main") {
  ShaderSource source;
  source.words = words;
  source.entry_point = entry_point;
  source.stage = ShaderStage::Compute;
  return source;
}

std::string disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string text;
  EXPECT_TRUE(tools.Disassemble(words, &text));
  return text;
}

std::vector<uint32_t> assemble(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << text;
  return words;
}

bool is_valid(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
    messages += m;
    messages += "\n";
  });
  const bool valid = tools.Validate(words);
  EXPECT_TRUE(valid) << messages;
  return valid;
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

template <typename T>
void set_value(SpecializationInput& spec, uint32_t id, T value) {
  ASSERT_TRUE(spec.set(id, &value, sizeof value));
}

// Two GLCompute entry points writing different constants to one buffer.
constexpr const char* kTwoEntryPoints = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main_a "main_a" %buf
               OpEntryPoint GLCompute %main_b "main_b" %buf
               OpExecutionMode %main_a LocalSize 1 1 1
               OpExecutionMode %main_b LocalSize 4 1 1
               OpDecorate %Block Block
               OpMemberDecorate %Block 0 Offset 0
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %Block = OpTypeStruct %uint
        %ptr = OpTypePointer StorageBuffer %Block
   %ptr_uint = OpTypePointer StorageBuffer %uint
        %buf = OpVariable %ptr StorageBuffer
     %uint_0 = OpConstant %uint 0
   %uint_111 = OpConstant %uint 111
   %uint_222 = OpConstant %uint 222
     %main_a = OpFunction %void None %fn
         %la = OpLabel
         %pa = OpAccessChain %ptr_uint %buf %uint_0
               OpStore %pa %uint_111
               OpReturn
               OpFunctionEnd
     %main_b = OpFunction %void None %fn
         %lb = OpLabel
         %pb = OpAccessChain %ptr_uint %buf %uint_0
               OpStore %pb %uint_222
               OpReturn
               OpFunctionEnd
)";

TEST(SpirvFront, TestShadersComeOutValidInlinedAndSpecialized) {
  for (const char* name : kComputeShaders) {
    SCOPED_TRACE(name);
    const std::vector<uint32_t> words = kiln_test_shader(name);
    ASSERT_FALSE(words.empty());
    const FrontResult result = prepare_spirv(compute_source(words));
    ASSERT_TRUE(result.ok()) << result.error;
    ASSERT_TRUE(is_valid(result.words));
    const std::string text = disassemble(result.words);
    EXPECT_EQ(count_of(text, "OpEntryPoint GLCompute"), 1u);
    EXPECT_EQ(count_of(text, "OpFunctionCall"), 0u) << text;
    EXPECT_EQ(count_of(text, "OpSpecConstant"), 0u) << text;
    EXPECT_EQ(count_of(text, "SpecId"), 0u) << text;
    EXPECT_EQ(result.source_hash, shader_hash(compute_source(words)));
  }
}

TEST(SpirvFront, LoopShaderIsInSsaFormWithStructureKept) {
  const std::vector<uint32_t> words = kiln_test_shader("loop_control.comp");
  const std::string before = disassemble(words);
  ASSERT_GT(count_of(before, "OpFunctionCall"), 0u);  // the helper with an early return
  ASSERT_GT(count_of(before, "OpVariable %_ptr_Function"), 0u);

  const FrontResult result = prepare_spirv(compute_source(words));
  ASSERT_TRUE(result.ok()) << result.error;
  const std::string text = disassemble(result.words);
  EXPECT_EQ(count_of(text, "OpFunction "), 1u) << text;              // the helper was inlined and removed
  EXPECT_EQ(count_of(text, "OpVariable %_ptr_Function"), 0u) << text;  // locals became SSA values
  EXPECT_GT(count_of(text, "OpPhi"), 0u);
  EXPECT_GE(count_of(text, "OpLoopMerge"), 2u) << text;  // both loops keep their structure
}

TEST(SpirvFront, DefaultSpecializationFreezesDefaults) {
  const std::vector<uint32_t> words = kiln_test_shader("spec_constants.comp");
  const FrontResult result = prepare_spirv(compute_source(words));
  ASSERT_TRUE(result.ok()) << result.error;
  const std::string text = disassemble(result.words);
  EXPECT_NE(text.find("LocalSizeId %uint_1 "), std::string::npos) << text;
  EXPECT_NE(text.find("OpConstant %float 3\n"), std::string::npos) << text;  // float(kMultiplier)
  // kAddOffset is false: the branch and kOffset are gone.
  EXPECT_EQ(text.find("OpConstant %float 0.5"), std::string::npos) << text;
  EXPECT_EQ(count_of(text, "OpSelectionMerge"), 0u) << text;
}

TEST(SpirvFront, SpecializationValuesReplaceDefaults) {
  const std::vector<uint32_t> words = kiln_test_shader("spec_constants.comp");
  ShaderSource source = compute_source(words);
  set_value<uint32_t>(source.specialization, 0, 32);  // local_size_x
  set_value<uint32_t>(source.specialization, 1, 7);   // kMultiplier
  set_value<uint32_t>(source.specialization, 2, 1);   // kAddOffset = VK_TRUE (a 4-byte VkBool32)
  set_value<float>(source.specialization, 3, 2.0f);  // kOffset
  const FrontResult result = prepare_spirv(source);
  ASSERT_TRUE(result.ok()) << result.error;
  ASSERT_TRUE(is_valid(result.words));
  const std::string text = disassemble(result.words);
  EXPECT_NE(text.find("LocalSizeId %uint_32 "), std::string::npos) << text;
  EXPECT_NE(text.find("OpConstant %float 7\n"), std::string::npos) << text;
  EXPECT_NE(text.find("OpConstant %float 32\n"), std::string::npos) << text;  // float(gl_WorkGroupSize.x)
  // kAddOffset is true: kOffset * float(kMultiplier + 1) folds to 2 * 8.
  EXPECT_NE(text.find("OpConstant %float 16\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("OpConstant %float 3\n"), std::string::npos) << text;
}

TEST(SpirvFront, SixtyFourBitSpecializationUsesBothWords) {
  const std::vector<uint32_t> words = kiln_test_shader("spec_constants_int64.comp");
  ShaderSource source = compute_source(words);
  set_value<uint64_t>(source.specialization, 4, 0x100000002ull);
  const FrontResult result = prepare_spirv(source);
  ASSERT_TRUE(result.ok()) << result.error;
  const std::string text = disassemble(result.words);
  EXPECT_NE(text.find("OpConstant %ulong 4294967298\n"), std::string::npos) << text;
}

TEST(SpirvFront, MismatchedSpecializationSizeKeepsTheDefault) {
  // A 64-bit value for a 32-bit constant is invalid usage; the default (3) stays.
  const std::vector<uint32_t> words = kiln_test_shader("spec_constants.comp");
  ShaderSource source = compute_source(words);
  set_value<uint64_t>(source.specialization, 1, 9);
  const FrontResult result = prepare_spirv(source);
  ASSERT_TRUE(result.ok()) << result.error;
  EXPECT_NE(disassemble(result.words).find("OpConstant %float 3\n"), std::string::npos);
}

TEST(SpirvFront, KeepsOnlyTheRequestedEntryPoint) {
  const std::vector<uint32_t> words = assemble(kTwoEntryPoints);
  const FrontResult result = prepare_spirv(compute_source(words, "main_b"));
  ASSERT_TRUE(result.ok()) << result.error;
  ASSERT_TRUE(is_valid(result.words));
  const std::string text = disassemble(result.words);
  EXPECT_EQ(count_of(text, "OpEntryPoint"), 1u) << text;
  EXPECT_NE(text.find("\"main_b\""), std::string::npos);
  EXPECT_NE(text.find("LocalSize 4 1 1"), std::string::npos);
  EXPECT_EQ(text.find("LocalSize 1 1 1"), std::string::npos);
  EXPECT_NE(text.find("OpConstant %uint 222"), std::string::npos);
  EXPECT_EQ(text.find("OpConstant %uint 111"), std::string::npos) << text;  // main_a's code is gone
  EXPECT_EQ(count_of(text, "OpFunction "), 1u);
}

TEST(SpirvFront, MissingEntryPointOrWrongStageFails) {
  const std::vector<uint32_t> words = assemble(kTwoEntryPoints);
  const FrontResult missing = prepare_spirv(compute_source(words, "main_c"));
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.error.find("main_c"), std::string::npos) << missing.error;
  EXPECT_NE(missing.error.find("main_a"), std::string::npos) << missing.error;  // lists what exists
  EXPECT_TRUE(missing.words.empty());

  ShaderSource fragment = compute_source(words, "main_a");
  fragment.stage = ShaderStage::Fragment;
  EXPECT_FALSE(prepare_spirv(fragment).ok());
}

TEST(SpirvFront, AcceptsByteSwappedModules) {
  std::vector<uint32_t> words = kiln_test_shader("saxpy.comp");
  for (uint32_t& word : words) word = __builtin_bswap32(word);
  const FrontResult result = prepare_spirv(compute_source(words));
  ASSERT_TRUE(result.ok()) << result.error;
  EXPECT_TRUE(is_valid(result.words));
}

TEST(SpirvFront, RejectsEmptyShortAndNonSpirvInput) {
  const std::vector<std::vector<uint32_t>> inputs = {
      {}, {0x07230203, 0x00010600}, {0xdeadbeef, 0x00010600, 0, 10, 0, 0x00020011, 1}};
  for (const auto& words : inputs) {
    const FrontResult result = prepare_spirv(compute_source(words));
    EXPECT_FALSE(result.ok()) << words.size();
    EXPECT_FALSE(result.error.empty());
    EXPECT_TRUE(result.words.empty());
  }
}

TEST(SpirvFront, InvalidModuleErrorNamesTheInstruction) {
  std::string text = kTwoEntryPoints;
  text.replace(text.find("OpStore %pb %uint_222"), std::strlen("OpStore %pb %uint_222"),
               "%bad = OpIAdd %uint %uint_0 %ptr_uint\nOpStore %pb %uint_222");
  const FrontResult result = prepare_spirv(compute_source(assemble(text), "main_b"));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error.find("OpIAdd"), std::string::npos) << result.error;
}

TEST(SpirvFront, ExecutionModeIdOperandMustBeAConstant) {
  // SPIRV-Tools 2023.1 validates this module, then aggressive-dce crashes on it (found by
  // fuzzing): LocalSizeId's y operand is made to name an OpLabel.
  std::vector<uint32_t> words = kiln_test_shader("spec_constants.comp");
  size_t mode_at = 0;
  uint32_t label_id = 0;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    const uint32_t opcode = words[at] & 0xffff;
    if (opcode == 331 /* OpExecutionModeId */) mode_at = at;
    if (opcode == 248 /* OpLabel */ && !label_id) label_id = words[at + 1];
  }
  ASSERT_NE(mode_at, 0u);
  ASSERT_NE(label_id, 0u);
  words[mode_at + 4] = label_id;  // opcode word, entry point, mode, x, y
  const FrontResult result = prepare_spirv(compute_source(words));
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.error.find("OpExecutionModeId"), std::string::npos) << result.error;
}

TEST(SpirvFront, TruncatedModulesFailCleanly) {
  const std::vector<uint32_t> words = kiln_test_shader("loop_control.comp");
  ASSERT_GT(words.size(), 100u);
  for (size_t length = 0; length < words.size(); length += 3) {
    const std::vector<uint32_t> prefix(words.begin(), words.begin() + length);
    EXPECT_FALSE(prepare_spirv(compute_source(prefix)).ok()) << length;
  }
}

TEST(SpirvFront, RandomWordsFailCleanly) {
  std::mt19937 random(1234);
  for (int round = 0; round < 300; ++round) {
    std::vector<uint32_t> words(5 + random() % 200);
    for (uint32_t& word : words) word = random();
    if (round % 2) {  // half with a plausible header, so the parser gets past it
      words[0] = 0x07230203;
      words[1] = 0x00010000 | ((random() % 7) << 8);
      words[3] = 1 + random() % 1000;
      words[4] = 0;
    }
    EXPECT_FALSE(prepare_spirv(compute_source(words)).ok()) << round;
  }
}

TEST(SpirvFront, CorruptedModulesNeverCrash) {
  // Single-word corruptions of a real shader: many are rejected, some still validate; either
  // way prepare_spirv must return, and anything it accepts must come out valid.
  const std::vector<uint32_t> original = kiln_test_shader("shared_reduction.comp");
  std::mt19937 random(99);
  int accepted = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<uint32_t> words = original;
    const size_t at = 5 + random() % (words.size() - 5);
    words[at] = round % 2 ? random() : words[at] ^ (1u << (random() % 32));
    const FrontResult result = prepare_spirv(compute_source(words));
    if (result.ok()) {
      ++accepted;
      EXPECT_TRUE(is_valid(result.words)) << "corrupted word " << at;
    } else {
      EXPECT_FALSE(result.error.empty());
    }
  }
  EXPECT_GT(accepted, 0);  // some corruptions (e.g. in a constant's value) stay valid
  EXPECT_LT(accepted, 200);
}

TEST(ShaderHash, EqualForEqualInputsAndSensitiveToEachField) {
  const std::vector<uint32_t> words = kiln_test_shader("spec_constants.comp");
  ShaderSource a = compute_source(words);
  set_value<uint32_t>(a.specialization, 1, 7);
  set_value<uint32_t>(a.specialization, 0, 32);
  ShaderSource b = compute_source(words);  // same values, set in the other order
  set_value<uint32_t>(b.specialization, 0, 32);
  set_value<uint32_t>(b.specialization, 1, 7);
  EXPECT_EQ(shader_hash(a), shader_hash(b));

  ShaderSource other_value = compute_source(words);
  set_value<uint32_t>(other_value.specialization, 0, 32);
  set_value<uint32_t>(other_value.specialization, 1, 8);
  EXPECT_NE(shader_hash(a), shader_hash(other_value));

  ShaderSource other_entry = b;
  other_entry.entry_point = "main2";
  EXPECT_NE(shader_hash(a), shader_hash(other_entry));

  ShaderSource other_stage = b;
  other_stage.stage = ShaderStage::Fragment;
  EXPECT_NE(shader_hash(a), shader_hash(other_stage));

  std::vector<uint32_t> changed = words;
  changed.back() ^= 1;
  ShaderSource other_words = b;
  other_words.words = changed;
  EXPECT_NE(shader_hash(a), shader_hash(other_words));

  EXPECT_NE(shader_hash(compute_source(words)), shader_hash(a));  // no specialization at all
}

TEST(ShaderHash, FieldBoundariesMatter) {
  EXPECT_NE(StableHasher().add_string("ab").add_string("c").finish(),
            StableHasher().add_string("a").add_string("bc").finish());
  EXPECT_NE(StableHasher().add_u64(1).add_u64(2).finish(), StableHasher().add_u64(2).add_u64(1).finish());
  EXPECT_EQ(StableHasher().add_u64(42).finish(), StableHasher().add_u64(42).finish());
}

TEST(SpecializationInput, KeepsValuesSortedAndRejectsOddSizes) {
  SpecializationInput spec;
  const uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_TRUE(spec.set(9, bytes, 2));
  EXPECT_TRUE(spec.set(3, bytes, 8));
  EXPECT_FALSE(spec.set(5, bytes, 3));
  EXPECT_TRUE(spec.set(9, bytes, 4));  // replaces
  ASSERT_EQ(spec.values().size(), 2u);
  EXPECT_EQ(spec.values()[0].constant_id, 3u);
  EXPECT_EQ(spec.values()[0].bits, 0x0807060504030201ull);
  EXPECT_EQ(spec.values()[1].constant_id, 9u);
  EXPECT_EQ(spec.values()[1].size, 4u);
  EXPECT_EQ(spec.values()[1].bits, 0x04030201ull);
}

// Sets environment variables for one test and restores them afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_.empty())
      unsetenv(name_);
    else
      setenv(name_, old_.c_str(), 1);
  }

 private:
  const char* name_;
  std::string old_;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TEST(ShaderDump, KindsComeFromKilnDump) {
  ScopedEnv dump("KILN_DUMP", "spirv, llvm");
  EXPECT_TRUE(dump_enabled("spirv"));
  EXPECT_TRUE(dump_enabled("llvm"));
  EXPECT_FALSE(dump_enabled("glsl"));
  EXPECT_FALSE(dump_enabled("asm"));
  ScopedEnv all("KILN_DUMP", "all");
  EXPECT_TRUE(dump_enabled("asm"));
}

TEST(ShaderDump, WritesSpirvGlslAndText) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("kiln-dump-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  ScopedEnv dump_dir("KILN_DUMP_DIR", dir.string());
  ScopedEnv dump("KILN_DUMP", "spirv,glsl,llvm");

  const std::vector<uint32_t> words = kiln_test_shader("saxpy.comp");
  const FrontResult result = prepare_spirv(compute_source(words));
  ASSERT_TRUE(result.ok()) << result.error;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(result.source_hash));
  const std::string base = std::string(hex) + ".comp.";

  const std::string spv = read_file(dir / (base + "spv"));
  ASSERT_EQ(spv.size(), words.size() * 4);
  EXPECT_EQ(std::memcmp(spv.data(), words.data(), spv.size()), 0);
  EXPECT_EQ(read_file(dir / (base + "prepared.spv")).size(), result.words.size() * 4);
  const std::string glsl = read_file(dir / (base + "glsl"));
  EXPECT_NE(glsl.find("void main()"), std::string::npos) << glsl;
  EXPECT_NE(glsl.find("gl_GlobalInvocationID"), std::string::npos) << glsl;

  dump_text("llvm", result.source_hash, "comp", "define void @kernel() { ret void }");
  dump_text("asm", result.source_hash, "comp", "ret");  // not in KILN_DUMP
  EXPECT_EQ(read_file(dir / (base + "ll")), "define void @kernel() { ret void }");
  EXPECT_FALSE(std::filesystem::exists(dir / (base + "s")));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kiln::compiler
