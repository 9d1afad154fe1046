#version 450
// 64-bit varyings are not supported by Kiln's graphics kernels: compiling must fail cleanly.
layout(location = 0) flat in double d;
layout(location = 0) out vec4 o_color;
void main() { o_color = vec4(float(d)); }
