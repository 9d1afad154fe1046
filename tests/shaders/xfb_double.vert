#version 450
// Captures 64-bit values (shaderFloat64) into buffer 0, stride 48: a float at 0 (bytes 4..7 a
// hole), a double at 8 (bytes 16..23 a hole), a dvec3 at 24, for vertex i:
//   i + 0.5, i + 1/3, (i * 2^40 + 1, -1/7, 1e300 * (i + 1))
// (1/3, -1/7 and 1e300 are no floats: a capture through 32 bits would show).
layout(xfb_buffer = 0, xfb_stride = 48) out;
layout(location = 0, xfb_offset = 0) out float f;
layout(location = 1, xfb_offset = 8) out double d;
layout(location = 2, xfb_offset = 24) out dvec3 d3;
void main() {
  const int i = gl_VertexIndex;
  f = float(i) + 0.5;
  d = double(i) + 1.0LF / 3.0LF;
  d3 = dvec3(double(i) * 1099511627776.0LF + 1.0LF, -1.0LF / 7.0LF, 1.0e300LF * double(i + 1));
  gl_Position = vec4(-0.875 + 0.0625 * float(i % 29), -0.75 + 1.5 * float(i % 2), 0.5, 1.0);
}
