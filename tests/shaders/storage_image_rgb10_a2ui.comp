#version 450
#extension GL_GOOGLE_include_directive : require
// storage_image_body.glsl with rgb10_a2ui images.
#define FORMAT_LAYOUT ,rgb10_a2ui
#define IMAGE uimage2D
#define VEC uvec4
#include "storage_image_body.glsl"
