#version 450
layout(location = 0) flat in dvec2 v_wide;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(vec2(v_wide), 0.0, 1.0); }
