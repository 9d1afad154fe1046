#version 450
// Draws captured vertices (xfb_points.vert's layout) as points: position and colour attributes.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = position;
  gl_PointSize = 1.0;
  v_color = color;
}
