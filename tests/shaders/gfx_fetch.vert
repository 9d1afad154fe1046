#version 460
// Vertex kernel test (tests/unit/graphics_kernel_test.cpp): attribute fetch in several formats,
// built-ins, output layout, push constant and uniform buffer reads.
#extension GL_EXT_multiview : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(location = 0) in vec4 in_unorm8;
layout(location = 1) in vec4 in_snorm16;
layout(location = 2) in ivec4 in_sint8;
layout(location = 3) in vec4 in_float3;
layout(location = 4) in vec4 in_packed;
layout(location = 5) in vec4 in_bgra;
layout(location = 6) in vec4 in_half;
layout(location = 7) in uvec4 in_instance;
layout(location = 8) in vec4 in_sscaled;
layout(location = 9) in vec4 in_robust;

layout(location = 0) out vec4 out_unorm8;
layout(location = 1) out vec4 out_snorm16;
layout(location = 2) flat out ivec4 out_sint8;
layout(location = 3) out vec4 out_float3;
layout(location = 4) out vec4 out_packed;
layout(location = 5) out vec4 out_bgra;
layout(location = 6) out vec4 out_half;
layout(location = 7) flat out uvec4 out_instance;
layout(location = 8) out vec4 out_sscaled;
layout(location = 9) out vec4 out_robust;
layout(location = 10) flat out ivec4 out_ids;
layout(location = 11) flat out uvec2 out_draw;
layout(location = 11, component = 2) flat out uint out_component;
layout(location = 12) out mat2 out_matrix;
layout(location = 14) flat out uvec2 out_subgroup;

out gl_PerVertex {
  vec4 gl_Position;
  float gl_PointSize;
  float gl_ClipDistance[2];
};

layout(push_constant) uniform Push { float scale; } pc;
layout(set = 0, binding = 0) uniform Ubo { vec4 offset; } ubo;

void main() {
  out_unorm8 = in_unorm8;
  out_snorm16 = in_snorm16;
  out_sint8 = in_sint8;
  out_float3 = in_float3;
  out_packed = in_packed;
  out_bgra = in_bgra;
  out_half = in_half;
  out_instance = in_instance;
  out_sscaled = in_sscaled;
  out_robust = in_robust;
  out_ids = ivec4(gl_VertexIndex, gl_InstanceIndex, gl_BaseVertex, gl_BaseInstance);
  out_draw = uvec2(gl_DrawID, gl_ViewIndex);
  out_component = 77u;
  out_matrix = mat2(1.0, 2.0, 3.0, 4.0);
  out_subgroup = uvec2(gl_SubgroupSize, subgroupAdd(1u));
  gl_Position = vec4(in_float3.xyz * pc.scale, 1.0) + ubo.offset;
  gl_PointSize = 3.0;
  gl_ClipDistance[0] = 0.5;
  gl_ClipDistance[1] = float(gl_VertexIndex) - 1.5;
}
