#version 450
#extension GL_GOOGLE_include_directive : require
// storage_image_body.glsl with rgba8i images.
#define FORMAT_LAYOUT ,rgba8i
#define IMAGE iimage2D
#define VEC ivec4
#include "storage_image_body.glsl"
