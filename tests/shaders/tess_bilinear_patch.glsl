// Shared by the quad-domain and isoline evaluation shaders: the domain point's position on a
// bilinear patch whose control points are in row order (0 at u=0 v=0, 1 at u=1, 2 at v=1, 3 at
// u=1 v=1).
vec4 bilinear_patch_position() {
  const vec2 uv = gl_TessCoord.xy;
  const vec4 bottom = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, uv.x);
  const vec4 top = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, uv.x);
  return mix(bottom, top, uv.y);
}
