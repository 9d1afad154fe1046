#version 450
// draw_colored.vert with a flat colour: each primitive takes its provoking vertex's colour.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
layout(location = 0) flat out vec4 v_color;
void main() {
  gl_Position = vec4(position, 1.0);
  v_color = color;
}
