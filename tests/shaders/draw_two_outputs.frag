#version 450
// The vertex colour to two colour attachments (for per-attachment blend states).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out0;
layout(location = 1) out vec4 out1;
void main() {
  out0 = v_color;
  out1 = v_color;
}
