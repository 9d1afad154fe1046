#version 450
// Triangle patches: position = u p0 + v p1 + w p2; colour = (TessCoord, PatchVertices / 4 of the
// control shader's output, i.e. 1).
layout(triangles, equal_spacing, cw) in;
layout(location = 0) in vec4 c_color[];
layout(location = 0) out vec4 v_color;
void main() {
  const vec3 t = gl_TessCoord;
  gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position;
  v_color = vec4(t, float(gl_PatchVerticesIn) / 4.0) * c_color[0].a;
}
