#version 450
#extension GL_GOOGLE_include_directive : require
// Captures with holes in the stride, which a capture must leave as they were.
// Buffer 0, stride 32: a float at 0, a vec2 at 12, a float at 28 (bytes 4..11 and 20..27 holes).
// Buffer 1, stride 24, from a block: a float at 4, a vec2 at 16 (bytes 0..3, 8..15 holes).
#include "xfb_values.glsl"
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 32) out float first;
layout(location = 1, xfb_buffer = 0, xfb_offset = 12) out vec2 middle;
layout(location = 2, xfb_buffer = 0, xfb_offset = 28) out float last;
layout(location = 3, xfb_buffer = 1, xfb_stride = 24) out Block {
  layout(xfb_offset = 4) float x;
  layout(xfb_offset = 16) vec2 y;
} block;
void main() {
  const vec4 v = xfb_value(gl_VertexIndex, 0), w = xfb_value(gl_VertexIndex, 1);
  first = v.x;
  middle = v.yz;
  last = v.w;
  block.x = w.x;
  block.y = w.zw;
  gl_Position = xfb_position(gl_VertexIndex);
}
