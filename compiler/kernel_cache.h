#pragma once
// Compiled kernels as object code, keyed by a stable hash of everything that decides the code
// (shader, specialization, binding layout, SIMD width, host CPU). One KernelCache backs each
// VkPipelineCache; its serialized form is the cache's data after the Vulkan header, so a second
// process that passes that data back creates the same pipelines without running LLVM.
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "common/abi/shader_stage.h"
#include "compiler/translator.h"

namespace kiln::compiler {

// Object code plus what the stage's caller needs besides the function address: the compute
// info, a vertex kernel's output layout, a tessellation kernel's info or a fragment kernel's
// interface.
struct CachedKernel {
  std::string symbol;
  uint32_t simd_width = 0;
  ShaderStage stage = ShaderStage::Compute;
  ComputeKernelInfo info;
  abi::VertexOutputLayout vertex_outputs;
  TessControlInfo tess_control;
  TessEvalInfo tess_eval;
  GeometryInfo geometry;
  MeshInfo mesh;  // task and mesh kernels (with `info`)
  abi::FragmentInterface fragment;
  std::vector<char> object;  // host object code from Jit::compile_to_object
};

class KernelCache {
 public:
  std::shared_ptr<const CachedKernel> find(uint64_t key) const;
  void insert(uint64_t key, std::shared_ptr<const CachedKernel> kernel);
  void merge(const KernelCache& other);
  size_t size() const;

  // Entries as bytes (for this CPU only: `cpu` is recorded and checked on load).
  std::vector<uint8_t> serialize(const std::string& cpu) const;
  // Adds the entries in `data`. Data from another CPU or that is malformed adds nothing and
  // returns false; it never crashes, whatever the bytes.
  bool deserialize(std::span<const uint8_t> data, const std::string& cpu);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<const CachedKernel>> entries_;
};

}  // namespace kiln::compiler
