// The values the transform feedback test shaders (xfb_*) capture, computed exactly on the CPU by
// xfb_value() / xfb_position() in tests/e2e/transform_feedback.h: output k of vertex i, every
// component exact in float, and a clip-space position distinct for every vertex i < 29 (the
// spec lets an implementation drop primitives with two vertices at the same position before
// transform feedback), alternately low and high so that triangles of consecutive vertices cover
// pixels.
vec4 xfb_value(int vertex, int k) {
  return vec4(float(vertex) * 4.0 + float(k) * 1000.0) + vec4(0.0, 0.25, 0.5, 0.75);
}
vec4 xfb_position(int vertex) {
  return vec4(-0.875 + 0.0625 * float(vertex % 29), -0.75 + 1.5 * float(vertex % 2), 0.5, 1.0);
}
