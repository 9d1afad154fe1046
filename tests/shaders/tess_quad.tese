#version 450
// Bilinear quad patches: control points 0 (u=0, v=0), 1 (u=1), 2 (v=1), 3 (u=1, v=1). Colour:
// (1, PrimitiveId + 1, the position mapped to [0, 1]) so a pixel's colour says which patch
// covered it and where the patch put it.
layout(quads, fractional_odd_spacing, ccw) in;
layout(location = 1) patch in vec4 p_info;
layout(location = 0) out vec4 v_color;
void main() {
  const vec2 uv = gl_TessCoord.xy;
  const vec4 bottom = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, uv.x);
  const vec4 top = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, uv.x);
  gl_Position = mix(bottom, top, uv.y);
  v_color = vec4(1.0, p_info.x + 1.0, gl_Position.xy * 0.5 + 0.5);
}
