#version 450
// Bilinear quad patches with equal spacing; white.
layout(quads, equal_spacing, ccw) in;
layout(location = 0) out vec4 v_color;
void main() {
  const vec2 uv = gl_TessCoord.xy;
  const vec4 bottom = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, uv.x);
  const vec4 top = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, uv.x);
  gl_Position = mix(bottom, top, uv.y);
  v_color = vec4(1.0);
}
