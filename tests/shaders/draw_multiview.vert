#version 450
#extension GL_EXT_multiview : require
// Multiview: each view shifts the geometry right by `shift` (clip space, a push constant) per view
// index, and hands its ViewIndex to the fragment shader.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
layout(location = 1) flat out int v_view;
layout(push_constant) uniform Push { float shift; } push;
void main() {
  gl_Position = vec4(position.x + push.shift * float(gl_ViewIndex), position.y, position.z, 1.0);
  v_color = color;
  v_view = int(gl_ViewIndex);
}
