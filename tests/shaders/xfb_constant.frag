#version 450
// No inputs (for vertex shaders whose outputs no fragment shader could read): opaque white.
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(1.0); }
