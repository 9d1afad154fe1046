#version 450
#extension GL_GOOGLE_include_directive : require
// texel_store_body.glsl with r11f_g11f_b10f storage texel buffers.
#define FORMAT r11f_g11f_b10f
#define IMAGE imageBuffer
#define VEC vec4
#include "texel_store_body.glsl"
