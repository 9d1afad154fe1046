#version 450
// Red = the PrimitiveId the geometry shader wrote; the rest from its colour.
layout(location = 0) flat in vec4 g_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(gl_PrimitiveID), g_color.gba); }
