#version 450
// A unit quad per instance: corner from vertex attribute 0, per-instance offset from attribute 1,
// scaled by a push constant; the instance's colour comes from a uniform buffer.
layout(location = 0) in vec2 corner;
layout(location = 1) in vec2 offset;
layout(set = 0, binding = 0) uniform Colors { vec4 colors[8]; };
layout(push_constant) uniform Push { float scale; } push;
layout(location = 0) flat out vec4 v_color;
void main() {
  gl_Position = vec4(offset + corner * push.scale, 0.5, 1.0);
  v_color = colors[gl_InstanceIndex];
}
