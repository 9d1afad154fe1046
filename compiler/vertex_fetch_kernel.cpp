#include "compiler/vertex_fetch_kernel.h"

#include <spirv-tools/libspirv.hpp>

#include <sstream>
#include <vector>

#include "compiler/shader_source.h"
#include "compiler/vertex_formats.h"

namespace kiln::compiler {
namespace {

// SPIR-V assembly of the copying vertex shader: per attribute, an input and an output at its
// Location of the type its format reads as (uvec4, ivec4 or vec4).
std::string copy_shader_assembly(const VertexInputKey& vertex_input) {
  std::ostringstream interface, decorations, variables, body;
  for (const VertexAttributeKey& a : vertex_input.attributes) {
    const abi::VertexFormat* format = abi::vertex_format(static_cast<VkFormat>(a.format));
    const char* type = !format                              ? "vf"
                       : format->numeric == abi::Numeric::Uint ? "vu"
                       : format->numeric == abi::Numeric::Sint ? "vi"
                                                               : "vf";
    const uint32_t l = a.location;
    interface << " %in" << l << " %out" << l;
    decorations << "OpDecorate %in" << l << " Location " << l << "\nOpDecorate %out" << l << " Location " << l << "\n";
    variables << "%in" << l << " = OpVariable %in_" << type << " Input\n%out" << l << " = OpVariable %out_" << type
              << " Output\n";
    body << "%value" << l << " = OpLoad %" << type << " %in" << l << "\nOpStore %out" << l << " %value" << l << "\n";
  }
  std::ostringstream s;
  s << "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint Vertex %main \"main\"" << interface.str() << "\n"
    << decorations.str()
    << "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n%i32 = OpTypeInt 32 1\n"
       "%u32 = OpTypeInt 32 0\n%vf = OpTypeVector %f32 4\n%vi = OpTypeVector %i32 4\n%vu = OpTypeVector %u32 4\n"
       "%in_vf = OpTypePointer Input %vf\n%in_vi = OpTypePointer Input %vi\n%in_vu = OpTypePointer Input %vu\n"
       "%out_vf = OpTypePointer Output %vf\n%out_vi = OpTypePointer Output %vi\n%out_vu = OpTypePointer Output %vu\n"
    << variables.str() << "%main = OpFunction %void None %fn\n%entry = OpLabel\n"
    << body.str() << "OpReturn\nOpFunctionEnd\n";
  return s.str();
}

}  // namespace

std::shared_ptr<const CompiledVertexKernel> compile_vertex_fetch_kernel(const VertexInputKey& vertex_input,
                                                                        uint32_t simd_width, KernelCache* cache,
                                                                        std::string* error) {
  std::vector<uint32_t> words;
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  if (!tools.Assemble(copy_shader_assembly(vertex_input), &words)) {
    *error = "the vertex fetch kernel's SPIR-V did not assemble";
    return nullptr;
  }
  ShaderSource source;
  source.words = words;
  source.entry_point = "main";
  source.stage = ShaderStage::Vertex;
  const BindingResolver no_bindings = [](uint32_t, uint32_t) { return std::optional<BindingLocation>(); };
  return compile_vertex_kernel(source, simd_width, vertex_input, no_bindings, 0, cache, error);
}

}  // namespace kiln::compiler
