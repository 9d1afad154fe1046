#version 460
#extension GL_EXT_mesh_shader : require
// The mesh shader's per-primitive red with green = the Layer and blue = the ViewportIndex it
// wrote, as the fragment shader reads them.
layout(location = 0) perprimitiveEXT in vec4 p_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(p_color.r, float(gl_Layer), float(gl_ViewportIndex), 1.0); }
