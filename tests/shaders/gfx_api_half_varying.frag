#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(location = 0) flat in f16vec2 v_half;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(vec2(v_half), 0.0, 1.0); }
