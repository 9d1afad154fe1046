#version 460
#extension GL_EXT_mesh_shader : require
// mesh_per_primitive.mesh's outputs: red p_tag + p_color.r, green the provoking vertex's number,
// blue PrimitiveId, alpha p_color.g. Per-primitive inputs are not interpolated, yet an integer one
// must still be flat (VUID-StandaloneSpirv-Flat-04744; glslang insists too, although
// GL_EXT_mesh_shader says perprimitiveEXT would do); the per-vertex one is flat.
layout(location = 0) flat in float v_number;
layout(location = 1) perprimitiveEXT in vec4 p_color;
layout(location = 2) flat perprimitiveEXT in uint p_tag;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(p_tag) + p_color.r, v_number, float(gl_PrimitiveID), p_color.g); }
