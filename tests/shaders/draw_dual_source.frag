#version 450
// Dual-source blending: the vertex colour as the first source (Index 0) and a second source
// (Index 1) that varies per pixel, exact in float: (x / 64, y / 64, (x + y) / 128, 1 - x / 64)
// for pixel (x, y).
layout(location = 0) in vec4 v_color;
layout(location = 0, index = 0) out vec4 out_color;
layout(location = 0, index = 1) out vec4 out_source1;
void main() {
  const vec2 p = floor(gl_FragCoord.xy);
  out_color = v_color;
  out_source1 = vec4(p.x / 64.0, p.y / 64.0, (p.x + p.y) / 128.0, 1.0 - p.x / 64.0);
}
