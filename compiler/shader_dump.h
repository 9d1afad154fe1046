#pragma once
// Shader dumps for debugging, controlled by the environment:
//   KILN_DUMP      comma-separated kinds to write: spirv, glsl, llvm, asm (or "all")
//   KILN_DUMP_DIR  directory for the files (created when needed); default ./kiln-dump
// Files are named <hash>.<stage>.<extension>, hash = shader_hash() as 16 hex digits and stage
// as stage_suffix() (or any tag the caller chooses), so every artifact of one shader sorts
// together. Failures to write are logged, never fatal. The front end (spirv_front.cpp) writes
// the SPIR-V and GLSL files; the translator writes llvm/asm through dump_text.
#include <cstdint>
#include <span>
#include <string_view>

#include "compiler/shader_source.h"

namespace kiln::compiler {

// Whether KILN_DUMP asks for `kind` ("spirv", "glsl", "llvm", "asm"). Read on every call, so it
// is cheap to ask before producing expensive text.
bool dump_enabled(std::string_view kind);

// The application's module as given: <hash>.<stage>.spv (kind "spirv").
void dump_source_spirv(uint64_t hash, ShaderStage stage, std::span<const uint32_t> words);

// The front end's output: <hash>.<stage>.prepared.spv (kind "spirv") and its decompilation by
// SPIRV-Cross, <hash>.<stage>.glsl (kind "glsl"). `words` must be a valid module.
void dump_prepared_spirv(uint64_t hash, ShaderStage stage, std::span<const uint32_t> words);

// Text for `kind` as <hash>.<stage>.<ext>, ext = "ll" for llvm, "s" for asm, else the kind.
// Does nothing unless dump_enabled(kind).
void dump_text(const char* kind, uint64_t hash, std::string_view stage, std::string_view text);

}  // namespace kiln::compiler
