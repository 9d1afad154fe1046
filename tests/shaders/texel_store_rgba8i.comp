#version 450
#extension GL_GOOGLE_include_directive : require
// texel_store_body.glsl with rgba8i storage texel buffers.
#define FORMAT rgba8i
#define IMAGE iimageBuffer
#define VEC ivec4
#include "texel_store_body.glsl"
