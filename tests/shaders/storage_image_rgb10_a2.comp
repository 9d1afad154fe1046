#version 450
#extension GL_GOOGLE_include_directive : require
// storage_image_body.glsl with rgb10_a2 images.
#define FORMAT_LAYOUT ,rgb10_a2
#define IMAGE image2D
#define VEC vec4
#include "storage_image_body.glsl"
