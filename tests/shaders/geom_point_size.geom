#version 450
// Points sized by the geometry shader (shaderTessellationAndGeometryPointSize): input point p
// becomes a point of size 1 + 2 (p % 4), i.e. 1, 3, 5, 7, in its vertex colour.
layout(points) in;
layout(points, max_vertices = 1) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
void main() {
  gl_Position = gl_in[0].gl_Position;
  gl_PointSize = 1.0 + 2.0 * float(gl_PrimitiveIDIn % 4);
  g_color = v_color[0];
  EmitVertex();
}
