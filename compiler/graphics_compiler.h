#pragma once
// Vertex, tessellation, geometry and fragment kernels from SPIR-V (the graphics stages of ARCHITECTURE.md "Stage ABIs";
// signatures in common/abi/kernel_abi.h). Like compute kernels they are keyed by (shader,
// specialization, binding layout, SIMD width, host CPU) plus the stage's variant key — for a
// vertex kernel the vertex input state it fetches with — linked once per process, and shared
// through VkPipelineCache.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "common/abi/shader_stage.h"
#include "compiler/compile_request.h"
#include "compiler/kernel_cache.h"
#include "compiler/shader_source.h"
#include "compiler/translator.h"
#include "compiler/vertex_input_key.h"

namespace kiln::compiler {

struct CompiledVertexKernel {
  static constexpr ShaderStage kStage = ShaderStage::Vertex;
  abi::VertexKernelFn function = nullptr;
  uint32_t simd_width = 8;
  abi::VertexOutputLayout outputs;
};

struct CompiledTessControlKernel {
  static constexpr ShaderStage kStage = ShaderStage::TessellationControl;
  abi::TessControlKernelFn function = nullptr;
  uint32_t simd_width = 8;
  TessControlInfo info;
};

struct CompiledTessEvalKernel {
  static constexpr ShaderStage kStage = ShaderStage::TessellationEvaluation;
  abi::TessEvalKernelFn function = nullptr;
  uint32_t simd_width = 8;
  TessEvalInfo info;
};

struct CompiledGeometryKernel {
  static constexpr ShaderStage kStage = ShaderStage::Geometry;
  abi::GeometryKernelFn function = nullptr;
  uint32_t simd_width = 8;
  GeometryInfo info;
};

struct CompiledFragmentKernel {
  static constexpr ShaderStage kStage = ShaderStage::Fragment;
  abi::FragmentKernelFn function = nullptr;
  uint32_t simd_width = 8;  // a multiple of 4: W / 4 quads per call
  abi::FragmentInterface interface;
};

// Task and mesh kernels: compute kernels of a graphics pipeline (docs/design/mesh-shading.md).
struct CompiledTaskKernel {
  static constexpr ShaderStage kStage = ShaderStage::Task;
  abi::ComputeKernelFn function = nullptr;
  uint32_t simd_width = 8;
  ComputeKernelInfo info;
  MeshInfo mesh;  // the payload's place
};
struct CompiledMeshKernel {
  static constexpr ShaderStage kStage = ShaderStage::Mesh;
  abi::ComputeKernelFn function = nullptr;
  uint32_t simd_width = 8;
  ComputeKernelInfo info;
  MeshInfo mesh;
};

// As compile_compute_kernel (compiler/compute_compiler.h): nullptr and a one-line `error` naming
// the instruction when the shader cannot be compiled; `compile_required` for
// FAIL_ON_PIPELINE_COMPILE_REQUIRED.
std::shared_ptr<const CompiledVertexKernel> compile_vertex_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                  const VertexInputKey& vertex_input,
                                                                  const BindingResolver& bindings, uint64_t layout_hash,
                                                                  KernelCache* cache, std::string* error,
                                                                  CompileRequest* request = nullptr);

// Tessellation kernels are compiled against the stage before them: a control kernel against the
// vertex kernel's output layout, an evaluation kernel against the control kernel's outputs map.
std::shared_ptr<const CompiledTessControlKernel> compile_tess_control_kernel(
    const ShaderSource& source, uint32_t simd_width, const abi::VertexOutputLayout& vertex_outputs,
    const BindingResolver& bindings, uint64_t layout_hash, KernelCache* cache, std::string* error,
    CompileRequest* request = nullptr);
std::shared_ptr<const CompiledTessEvalKernel> compile_tess_eval_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                       const abi::StageOutputMap& control_outputs,
                                                                       const BindingResolver& bindings, uint64_t layout_hash,
                                                                       KernelCache* cache, std::string* error,
                                                                       CompileRequest* request = nullptr);

// A geometry kernel is compiled against the records of the stage before it (the vertex or the
// tessellation evaluation kernel's output layout, abi::record_map).
std::shared_ptr<const CompiledGeometryKernel> compile_geometry_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                      const abi::VertexOutputLayout& previous_outputs,
                                                                      const BindingResolver& bindings, uint64_t layout_hash,
                                                                      KernelCache* cache, std::string* error,
                                                                      CompileRequest* request = nullptr);

std::shared_ptr<const CompiledTaskKernel> compile_task_kernel(const ShaderSource& source, uint32_t simd_width,
                                                              const BindingResolver& bindings, uint64_t layout_hash,
                                                              KernelCache* cache, std::string* error,
                                                              CompileRequest* request = nullptr);
std::shared_ptr<const CompiledMeshKernel> compile_mesh_kernel(const ShaderSource& source, uint32_t simd_width,
                                                              const BindingResolver& bindings, uint64_t layout_hash,
                                                              KernelCache* cache, std::string* error,
                                                              CompileRequest* request = nullptr);

std::shared_ptr<const CompiledFragmentKernel> compile_fragment_kernel(const ShaderSource& source, uint32_t simd_width,
                                                                      const BindingResolver& bindings, uint64_t layout_hash,
                                                                      KernelCache* cache, std::string* error,
                                                                      CompileRequest* request = nullptr);

}  // namespace kiln::compiler
