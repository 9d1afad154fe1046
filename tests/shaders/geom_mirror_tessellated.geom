#version 450
// After tess_quad.tese: mirrors each tessellated triangle across x = 0 and replaces red with
// PrimitiveIdIn + 1, which after tessellation is the patch's index (the same value as the
// tessellation shaders' PrimitiveId); green, blue and alpha come from the evaluation shader
// (patch index + 1 and the unmirrored position mapped to [0, 1]).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) out vec4 g_color;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = vec4(-gl_in[i].gl_Position.x, gl_in[i].gl_Position.yzw);
    g_color = vec4(float(gl_PrimitiveIDIn + 1), v_color[i].gba);
    EmitVertex();
  }
}
