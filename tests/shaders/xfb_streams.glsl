// The two-stream geometry shader of the transform feedback tests, included with POSITION_STREAM
// (0 or 1): the stream whose vertices carry Position and the Location 0 colour, i.e. the one that
// can be rasterized. Output points (transformFeedbackStreamsLinesTriangles may be false).
// For input point i (xfb_values.vert):
//   stream 1: two points j = 0, 1 at pixel centre (4.5 + 8i + 2j, 40.5), colour
//     (0, i / 8, (j + 1) / 2, 1); captured into buffer 1 (stride 32): xfb_value(i, 1 + j) at
//     offset 0, (i, j, 1, 0) at 16
//   stream 0: one point at pixel centre (4.5 + 8i, 8.5), colour (1, i / 8, 0, 1); captured into
//     buffer 0 (stride 16): its Location 0 input, xfb_value(i, 0)
// Position and colour are written before each emit, also for the stream without them: a driver
// that rasterized the wrong stream would draw at the other stream's pixels.
layout(points) in;
layout(points, max_vertices = 3) out;
layout(location = 0) in vec4 v_value[];
layout(stream = 0, location = 1, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 s0_value;
layout(stream = 1, location = 2, xfb_buffer = 1, xfb_offset = 0, xfb_stride = 32) out vec4 s1_value;
layout(stream = 1, location = 3, xfb_buffer = 1, xfb_offset = 16) out vec4 s1_where;
// Everything of a buffer must be in one stream: the uncaptured outputs join the buffer of theirs.
layout(xfb_buffer = POSITION_STREAM) out;
layout(stream = POSITION_STREAM, location = 0) out vec4 g_color;
layout(stream = POSITION_STREAM) out gl_PerVertex {
  vec4 gl_Position;
};
vec4 pixel_centre(float x, float y) { return vec4(x / 32.0 - 1.0, y / 32.0 - 1.0, 0.5, 1.0); }
void main() {
  const int i = gl_PrimitiveIDIn;
  for (int j = 0; j < 2; ++j) {
    gl_Position = pixel_centre(4.5 + 8.0 * float(i) + 2.0 * float(j), 40.5);
    g_color = vec4(0.0, float(i) / 8.0, float(j + 1) / 2.0, 1.0);
    s1_value = xfb_value(i, 1 + j);
    s1_where = vec4(float(i), float(j), 1.0, 0.0);
    EmitStreamVertex(1);
  }
  gl_Position = pixel_centre(4.5 + 8.0 * float(i), 8.5);
  g_color = vec4(1.0, float(i) / 8.0, 0.0, 1.0);
  s0_value = v_value[0];
  EmitStreamVertex(0);
}
