#version 450
#extension GL_GOOGLE_include_directive : require
// storage_image_body.glsl with rgba16f images.
#define FORMAT_LAYOUT ,rgba16f
#define IMAGE image2D
#define VEC vec4
#include "storage_image_body.glsl"
