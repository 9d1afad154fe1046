#version 450
#extension GL_GOOGLE_include_directive : require
// No transform feedback of its own: hands xfb_value(VertexIndex, 0) on at Location 0, for the
// tessellation and geometry stages after it (which capture) and for the primitives generated
// query (PointSize for point lists).
#include "xfb_values.glsl"
layout(location = 0) out vec4 v_value;
void main() {
  v_value = xfb_value(gl_VertexIndex, 0);
  gl_Position = xfb_position(gl_VertexIndex);
  gl_PointSize = 1.0;
}
