#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// 16-bit varyings are not supported by Kiln's graphics kernels (no storageInputOutput16):
// compiling must fail cleanly.
layout(location = 0) flat in float16_t h;
layout(location = 0) out vec4 o_color;
void main() { o_color = vec4(float(h)); }
