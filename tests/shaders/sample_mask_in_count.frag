#version 450
// Red: the share of the pixel's samples in SampleMaskIn; green: 1. Pixel-rate shading.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(bitCount(gl_SampleMaskIn[0])) / 4.0, 1.0, 0.0, v_color.a); }
