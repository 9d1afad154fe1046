#version 450
// Transform feedback capture: each vertex's clip position and one attribute vector are written
// to buffer 0, 32 bytes a vertex (position at 0, attributes at 16); nothing is rasterized.
layout(push_constant) uniform Transform {
  mat4 matrix;
} transform;

layout(location = 0) in vec4 position;

layout(xfb_buffer = 0, xfb_stride = 32) out;
out gl_PerVertex {
  layout(xfb_offset = 0) vec4 gl_Position;
  float gl_PointSize;
};
layout(location = 0, xfb_offset = 16) out vec4 attributes;

void main() {
  gl_Position = transform.matrix * position;
  gl_PointSize = 1.0;  // point lists need it; not captured
  attributes = vec4(position.zxy * 2.0 - 1.0, float(gl_VertexIndex));
}
