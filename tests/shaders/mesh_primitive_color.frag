#version 460
#extension GL_EXT_mesh_shader : require
// The mesh shader's per-primitive colour.
layout(location = 0) perprimitiveEXT in vec4 p_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = p_color; }
