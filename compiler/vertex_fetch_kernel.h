#pragma once
// Vertex fetch as a kernel of its own, for fast-linked graphics pipelines
// (docs/design/pipeline-libraries.md): a vertex kernel normally fetches and converts its
// attributes itself, which ties it to one vertex input state. A pipeline library's vertex shader
// is compiled before that state is known, as a kernel that reads its attributes converted
// (VertexInputKey::staged); the vertex input library compiles the kernel made here, which only
// fetches: a vertex shader copying each attribute of `vertex_input` to the output of its Location,
// compiled with that state by the usual path (so the values are bit for bit the fused kernel's).
#include <cstdint>
#include <memory>
#include <string>

#include "compiler/graphics_compiler.h"
#include "compiler/vertex_input_key.h"

namespace kiln::compiler {

// Its outputs: Location L of the vertex input state in record slot outputs.location_slot[L].
std::shared_ptr<const CompiledVertexKernel> compile_vertex_fetch_kernel(const VertexInputKey& vertex_input,
                                                                        uint32_t simd_width, KernelCache* cache,
                                                                        std::string* error);

}  // namespace kiln::compiler
