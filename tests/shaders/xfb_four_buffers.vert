#version 450
#extension GL_GOOGLE_include_directive : require
// Captures into four buffers with their own strides and offsets (draw a point list):
//   buffer 0, stride 16: xfb_value(i, 0) at 0
//   buffer 1, stride 20: xfb_value(i, 1).x at 0, xfb_value(i, 2).xyz at 4 (packed, no vec4 alignment)
//   buffer 2, stride 12: ivec2(-1 - i, 65536 * i + 7) at 4 (bytes 0..3 a hole)
//   buffer 3, stride 28: gl_Position (xfb_position(i)) at 4, gl_PointSize (1 + i % 3) at 20
//     (bytes 0..3 and 24..27 holes)
#include "xfb_values.glsl"
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 v0;
layout(location = 1, xfb_buffer = 1, xfb_offset = 0, xfb_stride = 20) out float v1_scalar;
layout(location = 2, xfb_buffer = 1, xfb_offset = 4) out vec3 v1_vector;
layout(location = 3, xfb_buffer = 2, xfb_offset = 4, xfb_stride = 12) flat out ivec2 v2;
layout(xfb_buffer = 3, xfb_stride = 28) out;  // on the block itself glslang would take 24
layout(xfb_buffer = 3) out gl_PerVertex {
  layout(xfb_offset = 4) vec4 gl_Position;
  layout(xfb_offset = 20) float gl_PointSize;
};
void main() {
  const int i = gl_VertexIndex;
  v0 = xfb_value(i, 0);
  v1_scalar = xfb_value(i, 1).x;
  v1_vector = xfb_value(i, 2).xyz;
  v2 = ivec2(-1 - i, 65536 * i + 7);
  gl_Position = xfb_position(i);
  gl_PointSize = float(1 + i % 3);
}
