#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_image_load_formatted : require
// storage_image_body.glsl with unsigned-integer images declared without a format.
#define FORMAT_LAYOUT
#define IMAGE uimage2D
#define VEC uvec4
#include "storage_image_body.glsl"
