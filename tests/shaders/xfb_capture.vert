#version 450
#extension GL_GOOGLE_include_directive : require
// Captures two vec4 per vertex into buffer 0 (stride 32): a = xfb_value(VertexIndex, 0) at
// offset 0, b = xfb_value(VertexIndex, 1) at offset 16.
#include "xfb_values.glsl"
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 32) out vec4 a;
layout(location = 1, xfb_buffer = 0, xfb_offset = 16) out vec4 b;
void main() {
  a = xfb_value(gl_VertexIndex, 0);
  b = xfb_value(gl_VertexIndex, 1);
  gl_Position = xfb_position(gl_VertexIndex);
}
