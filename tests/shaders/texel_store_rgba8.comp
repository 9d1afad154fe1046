#version 450
#extension GL_GOOGLE_include_directive : require
// texel_store_body.glsl with rgba8 storage texel buffers.
#define FORMAT rgba8
#define IMAGE imageBuffer
#define VEC vec4
#include "texel_store_body.glsl"
