#include "compiler/shader_dump.h"

#include <spirv_cross_c.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/env.h"
#include "common/log.h"

namespace kiln::compiler {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

std::string file_name(uint64_t hash, std::string_view stage, std::string_view extension) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, hash);
  return std::string(hex) + "." + std::string(stage) + "." + std::string(extension);
}

void write_file(const std::string& name, const void* data, size_t size) {
  std::string dir = env_string("KILN_DUMP_DIR");
  if (dir.empty()) dir = "kiln-dump";
  std::error_code ignored;  // an existing directory is fine; a real failure shows when opening
  std::filesystem::create_directories(dir, ignored);
  const std::filesystem::path path = std::filesystem::path(dir) / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) KILN_LOG_ONCE(LogLevel::Warn, "KILN_DUMP: cannot write %s", path.c_str());
}

// SPIRV-Cross's GLSL for a valid module, or "" with *error set. Vulkan semantics keep
// descriptor sets, push constants and specialization ids visible in the output.
std::string decompile_to_glsl(std::span<const uint32_t> words, std::string* error) {
  spvc_context context = nullptr;
  if (spvc_context_create(&context) != SPVC_SUCCESS) {
    *error = "cannot create a SPIRV-Cross context";
    return "";
  }
  std::string glsl;
  spvc_parsed_ir ir = nullptr;
  spvc_compiler compiler = nullptr;
  spvc_compiler_options options = nullptr;
  const char* source = nullptr;
  if (spvc_context_parse_spirv(context, words.data(), words.size(), &ir) == SPVC_SUCCESS &&
      spvc_context_create_compiler(context, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) ==
          SPVC_SUCCESS &&
      spvc_compiler_create_compiler_options(compiler, &options) == SPVC_SUCCESS &&
      spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, 460) == SPVC_SUCCESS &&
      spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS, SPVC_TRUE) == SPVC_SUCCESS &&
      spvc_compiler_install_compiler_options(compiler, options) == SPVC_SUCCESS &&
      spvc_compiler_compile(compiler, &source) == SPVC_SUCCESS && source) {
    glsl = source;
  } else {
    *error = spvc_context_get_last_error_string(context);
  }
  spvc_context_destroy(context);  // frees everything the context handed out, `source` included
  return glsl;
}

}  // namespace

bool dump_enabled(std::string_view kind) {
  const std::string list = env_string("KILN_DUMP");
  std::string_view rest = list;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    if (item == kind || item == "all") return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

void dump_source_spirv(uint64_t hash, ShaderStage stage, std::span<const uint32_t> words) {
  if (dump_enabled("spirv")) write_file(file_name(hash, stage_suffix(stage), "spv"), words.data(), words.size_bytes());
}

void dump_prepared_spirv(uint64_t hash, ShaderStage stage, std::span<const uint32_t> words) {
  if (dump_enabled("spirv"))
    write_file(file_name(hash, stage_suffix(stage), "prepared.spv"), words.data(), words.size_bytes());
  if (dump_enabled("glsl")) {
    std::string error;
    const std::string glsl = decompile_to_glsl(words, &error);
    if (glsl.empty())
      log(LogLevel::Warn, "KILN_DUMP: SPIRV-Cross cannot decompile shader %016" PRIx64 ": %s", hash, error.c_str());
    else
      write_file(file_name(hash, stage_suffix(stage), "glsl"), glsl.data(), glsl.size());
  }
}

void dump_text(const char* kind, uint64_t hash, std::string_view stage, std::string_view text) {
  if (!dump_enabled(kind)) return;
  const std::string_view name = kind;
  const std::string_view extension = name == "llvm" ? "ll" : name == "asm" ? "s" : name;
  write_file(file_name(hash, stage, extension), text.data(), text.size());
}

}  // namespace kiln::compiler
