#version 450
#extension GL_GOOGLE_include_directive : require
// storage_image_body.glsl with rgba8ui images.
#define FORMAT_LAYOUT ,rgba8ui
#define IMAGE uimage2D
#define VEC uvec4
#include "storage_image_body.glsl"
