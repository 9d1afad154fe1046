#version 450
// Point i at pixel centre (3.5 + 6i, 20.5) of a 64 x 64 target in colour ((i + 1) / 16, 0.5,
// 0.25, 1), both captured into buffer 0 (stride 32): Position at offset 0, colour at 16, the
// layout xfb_replay.vert reads back as vertex attributes.
layout(xfb_buffer = 0, xfb_stride = 32) out;
layout(xfb_buffer = 0) out gl_PerVertex {
  layout(xfb_offset = 0) vec4 gl_Position;
  float gl_PointSize;
};
layout(location = 0, xfb_buffer = 0, xfb_offset = 16) out vec4 v_color;
void main() {
  const float i = float(gl_VertexIndex);
  gl_Position = vec4((3.5 + 6.0 * i) / 32.0 - 1.0, 20.5 / 32.0 - 1.0, 0.5, 1.0);
  gl_PointSize = 1.0;
  v_color = vec4((i + 1.0) / 16.0, 0.5, 0.25, 1.0);
}
