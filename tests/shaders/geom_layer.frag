#version 450
// The geometry shader's colour with blue = the Layer it wrote, as the fragment shader reads it.
layout(location = 0) flat in vec4 g_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(g_color.rg, float(gl_Layer), g_color.a); }
