#pragma once
// The compiler's front end (ARCHITECTURE.md "The compiler", step 1): turns an application's
// SPIR-V into the module the translator reads —
//   1. validate it with SPIRV-Tools for Vulkan 1.3 (SPIR-V 1.0–1.6),
//   2. keep only the requested entry point,
//   3. apply specialization constants (after which no OpSpecConstant* with a SpecId remains),
//   4. run a fixed list of SPIRV-Tools passes (see kOptimizationPasses in spirv_front.cpp) that
//      inline functions, build SSA form and remove dead code, all keeping structured control flow.
// It never throws and never crashes on bad input: every failure comes back as a message.
// It also writes the KILN_DUMP files for "spirv" and "glsl" (compiler/shader_dump.h).
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/shader_source.h"

namespace kiln::compiler {

// Block-layout rules the validator relaxes. Defaults are Vulkan 1.3's strict rules (relaxed block
// layout is core since 1.1 and always on; LocalSizeId is core in 1.3 and always allowed). Kiln
// validates with the rules of the features it supports (kKilnLayoutSupport), whether or not the
// application enabled them: a module that uses a layout its device did not enable is an
// application error the validation layer reports, and Kiln translates it correctly anyway, because
// every buffer access follows the module's own Offset/ArrayStride/MatrixStride decorations.
struct LayoutFeatures {
  bool uniform_buffer_standard_layout = false;
  bool scalar_block_layout = false;
  bool workgroup_scalar_block_layout = false;
};
inline constexpr LayoutFeatures kKilnLayoutSupport{.uniform_buffer_standard_layout = true, .scalar_block_layout = true};

struct FrontResult {
  bool ok() const { return error.empty(); }

  std::vector<uint32_t> words;  // the prepared module (empty on failure)
  std::string error;            // empty on success; names the failing instruction or pass
  uint64_t source_hash = 0;     // shader_hash(source): key for caches and dump file names
};

// With `tag_accesses` (strict mode), memory accesses keep the application's ids through the
// optimizer (compiler/strict_access_tags.h).
FrontResult prepare_spirv(const ShaderSource& source, const LayoutFeatures& layout = {}, bool tag_accesses = false);

}  // namespace kiln::compiler
