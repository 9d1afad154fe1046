#version 450
#extension GL_GOOGLE_include_directive : require
// Passes the vertex shader's 64-bit values through gl_in[] to the fragment shader (wide_varyings_test.cpp).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 1) flat in dvec3 wide_vector_in[];
layout(location = 3) flat in double wide_scalar_in[];
layout(location = 1) flat out dvec3 wide_vector;
layout(location = 3) flat out double wide_scalar;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    wide_vector = wide_vector_in[i];
    wide_scalar = wide_scalar_in[i];
    EmitVertex();
  }
}
