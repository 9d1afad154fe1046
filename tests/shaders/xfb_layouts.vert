#version 450
// Capture layouts beyond plain variables (draw a point list; vertex i):
//   buffer 0, stride 24: a block whose members' Offsets decrease — `early` (vec4) at 0, `late`
//     (vec2) at 16 — written through a dynamic index, so the block lives in memory sized by its
//     furthest member: (i, i + 1, i + 2, i + 3) and (-i, 0.5)
//   buffers 1 and 2, stride 8: an array of two blocks, element k into buffer 1 + k: (k, i)
//   buffer 3, stride 32: a struct { uvec3; double } at 0: the double aligned to 8, at 16: uvec3
//     (i, 7, 9), double i + 1/3; bytes 12..15 and 24..31 untouched
layout(location = 0, xfb_buffer = 0, xfb_stride = 24) out Block0 {
  layout(xfb_offset = 16) vec2 late;
  layout(xfb_offset = 0) vec4 early;
} b0;
layout(location = 2, xfb_buffer = 1, xfb_stride = 8) out Instance {
  layout(xfb_offset = 0) vec2 value;
} instances[2];
layout(xfb_buffer = 2, xfb_stride = 8) out;
struct Mixed {
  uvec3 counts;
  double exact;
};
layout(location = 4, xfb_buffer = 3, xfb_offset = 0, xfb_stride = 32) flat out Mixed mixed;
void main() {
  const int i = gl_VertexIndex;
  for (int c = 0; c < 4; ++c) b0.early[c] = float(i + c);
  b0.late = vec2(-i, 0.5);
  for (int k = 0; k < 2; ++k) instances[k].value = vec2(k, i);
  mixed.counts = uvec3(i, 7, 9);
  mixed.exact = double(i) + 1.0LF / 3.0LF;
  gl_Position = vec4(0, 0, 0.5, 1);
  gl_PointSize = 1.0;
}
