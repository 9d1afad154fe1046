#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_image_load_formatted : require
// storage_image_body.glsl with float images declared without a format: the kernel reads and
// writes whatever format the bound views have (shaderStorageImage{Read,Write}WithoutFormat).
#define FORMAT_LAYOUT
#define IMAGE image2D
#define VEC vec4
#include "storage_image_body.glsl"
