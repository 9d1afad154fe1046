#version 450
#extension GL_GOOGLE_include_directive : require
// storage_image_body.glsl with r11f_g11f_b10f images.
#define FORMAT_LAYOUT ,r11f_g11f_b10f
#define IMAGE image2D
#define VEC vec4
#include "storage_image_body.glsl"
