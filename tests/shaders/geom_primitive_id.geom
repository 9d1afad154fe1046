#version 450
// Passes triangles through and writes PrimitiveId = PrimitiveIdIn + 100 for the fragment shader
// (geom_primitive_id.frag), so what it reads can only have come from this shader.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    gl_PrimitiveID = gl_PrimitiveIDIn + 100;
    g_color = v_color[i];
    EmitVertex();
  }
}
