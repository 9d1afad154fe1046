#pragma once
// SPIR-V → LLVM IR translation into SIMD kernels of W lanes (ARCHITECTURE.md "The compiler").
// Only compiler/ sees LLVM; callers get a compiled kernel address from compiler/kernel_cache.h.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/abi/kernel_abi.h"
#include "compiler/spirv_module.h"
#include "compiler/vertex_input_key.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace kiln::compiler {

// Where a (set, binding) lives at run time, as the pipeline layout decides.
struct BindingLocation {
  uint32_t offset = 0;         // byte offset of the binding's first record in its set's memory
  bool dynamic = false;        // dynamic buffer: read from ResourceContext::dynamic_buffers
  uint32_t dynamic_index = 0;  // first slot in dynamic_buffers (array elements follow)
  bool inline_uniform_block = false;  // bytes in set memory instead of a record
  // Array elements (bytes for an inline uniform block); indices at or past it read a null
  // descriptor. With `variable_count` the set's ResourceContext::variable_counts entry instead.
  uint32_t array_size = 1;
  bool variable_count = false;
};
using BindingResolver = std::function<std::optional<BindingLocation>(uint32_t set, uint32_t binding)>;

struct TranslateOptions {
  uint32_t simd_width = 8;  // W: lanes per kernel call (4, 8 or 16)
  BindingResolver bindings;
  const VertexInputKey* vertex_input = nullptr;  // vertex kernels: the attributes they fetch
  // Tessellation and geometry kernels: where the stage before left what they read by Location or built-in.
  const abi::StageOutputMap* previous_stage = nullptr;
  // Strict mode: what calls ResourceContext::shader_fault (abi::kShaderFault* bits).
  uint32_t strict_reports = 0;
};

struct ComputeKernelInfo {
  uint32_t local_size[3] = {1, 1, 1};
  uint32_t shared_memory_bytes = 0;
  bool uses_barrier = false;
};

// Translates the compute entry point `entry` of `module` into an LLVM module in `context` whose
// function `symbol` has the abi::ComputeKernelFn signature. Returns nullptr and sets `error`
// (naming the SPIR-V instruction) when the module uses something Kiln cannot translate.
std::unique_ptr<llvm::Module> translate_compute(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                const TranslateOptions& options, llvm::LLVMContext& context,
                                                const std::string& symbol, ComputeKernelInfo* info, std::string* error);

// The graphics stages (ABI in kernel_abi.h; Input/Output variables and their built-ins in
// emit_vertex.cpp, emit_fragment.cpp): `symbol` gets the abi::VertexKernelFn / abi::FragmentKernelFn
// signature, and the stage interface the engine needs is reported in `outputs` / `interface`.
std::unique_ptr<llvm::Module> translate_vertex(const spirv::Module& module, const spirv::EntryPoint& entry,
                                               const TranslateOptions& options, llvm::LLVMContext& context,
                                               const std::string& symbol, abi::VertexOutputLayout* outputs,
                                               std::string* error);
std::unique_ptr<llvm::Module> translate_fragment(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                 const TranslateOptions& options, llvm::LLVMContext& context,
                                                 const std::string& symbol, abi::FragmentInterface* interface,
                                                 std::string* error);

// What the engine needs of a tessellation control kernel besides its address.
struct TessControlInfo {
  abi::TessellationModes modes;
  bool uses_barrier = false;
  uint32_t vertex_bytes = 0;                // per-vertex output memory of one patch
  uint32_t patch_bytes = abi::kTessLevelBytes;  // per-patch output memory (levels first)
  abi::StageOutputMap outputs;              // where the evaluation kernel finds what it reads
};
// ... and of a tessellation evaluation kernel.
struct TessEvalInfo {
  abi::TessellationModes modes;
  abi::VertexOutputLayout outputs;
};

// The tessellation stages (ABI in kernel_abi.h; emit_tess_control.cpp, emit_tess_evaluation.cpp). `options.previous_stage`
// must be set: the vertex stage's record_map for a control kernel, the control kernel's
// TessControlInfo::outputs for an evaluation kernel.
std::unique_ptr<llvm::Module> translate_tess_control(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                     const TranslateOptions& options, llvm::LLVMContext& context,
                                                     const std::string& symbol, TessControlInfo* info, std::string* error);
std::unique_ptr<llvm::Module> translate_tess_eval(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                  const TranslateOptions& options, llvm::LLVMContext& context,
                                                  const std::string& symbol, TessEvalInfo* info, std::string* error);

// What the engine needs of a geometry kernel besides its address (emit_geometry.cpp).
struct GeometryInfo {
  abi::GeometryModes modes;
  abi::VertexOutputLayout outputs;  // the layout of each emitted vertex's record
};
std::unique_ptr<llvm::Module> translate_geometry(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                 const TranslateOptions& options, llvm::LLVMContext& context,
                                                 const std::string& symbol, GeometryInfo* info, std::string* error);

// What the engine needs of a task or mesh kernel besides its compute info (emit_mesh.cpp):
// where the workgroup left what it hands on in its shared memory (common/abi/kernel_abi.h,
// "Task and mesh kernels"). A mesh workgroup's vertex records use `outputs`' slots like a vertex
// kernel's; each record word is read from a per-vertex or a per-primitive output array.
using MeshOutputWord = abi::MeshOutputWord;
struct MeshInfo {
  uint32_t payload_offset = 0, payload_bytes = 0;  // the TaskPayloadWorkgroupEXT variable (task and mesh)
  // Mesh kernels only.
  uint8_t output = 0;  // 1 OutputPoints, 2 OutputLinesEXT, 3 OutputTrianglesEXT
  uint32_t max_vertices = 0, max_primitives = 0;  // OutputVertices, OutputPrimitivesEXT
  abi::VertexOutputLayout outputs;
  std::vector<MeshOutputWord> words;  // outputs.slot_count * 4, record word order
  abi::StageOutputAddress indices;    // Primitive{Point,Line,Triangle}IndicesEXT: `output` uint32 per element
  abi::StageOutputAddress cull;       // CullPrimitiveEXT (offset -1: no primitive is culled)
};
std::unique_ptr<llvm::Module> translate_task(const spirv::Module& module, const spirv::EntryPoint& entry,
                                             const TranslateOptions& options, llvm::LLVMContext& context,
                                             const std::string& symbol, ComputeKernelInfo* info, MeshInfo* mesh,
                                             std::string* error);
std::unique_ptr<llvm::Module> translate_mesh(const spirv::Module& module, const spirv::EntryPoint& entry,
                                             const TranslateOptions& options, llvm::LLVMContext& context,
                                             const std::string& symbol, ComputeKernelInfo* info, MeshInfo* mesh,
                                             std::string* error);

}  // namespace kiln::compiler
