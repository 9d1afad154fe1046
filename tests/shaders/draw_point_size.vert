#version 450
// Points whose size comes from a vertex attribute.
layout(location = 0) in vec3 position;
layout(location = 1) in float size;
void main() {
  gl_Position = vec4(position, 1.0);
  gl_PointSize = size;
}
