#pragma once
// Strict mode (KILN_STRICT=1) reports a shader's out-of-bounds accesses by the application's
// SPIR-V instruction (docs/strict-mode.md). SPIRV-Tools' passes give new ids to what they clone
// (inlining copies a function's body into its callers), but they carry each instruction's OpLine
// along. So before they run, every memory access is given an OpLine of its own whose column holds
// the access's id in the application's module (kStrictAccessTag | id); file and line stay those of
// the application's OpLine, when it had one. The translator reads the tag back
// (spirv::Instruction::source).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::compiler {

// Marks an OpLine column as Kiln's tag; the id is in the bits below (ids are < 2^22).
inline constexpr uint32_t kStrictAccessTag = 0x40000000u;

// `module` with every function-body load, store, copy, atomic, image read, write and fetch and
// texel pointer preceded by its tagging OpLine
// (and followed by the line information that held before it), plus one OpString "" for the
// accesses that had no line. The module must be valid.
std::vector<uint32_t> tag_memory_accesses(std::span<const uint32_t> module);

// How a report names a memory access: "OpLoad %42", "OpStore to %17", "OpImageWrite to %9" — the
// result id, or the pointer (image) written for instructions without a result.
std::string describe_memory_access(uint32_t opcode, uint32_t id);

}  // namespace kiln::compiler
