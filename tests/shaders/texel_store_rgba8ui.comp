#version 450
#extension GL_GOOGLE_include_directive : require
// texel_store_body.glsl with rgba8ui storage texel buffers.
#define FORMAT rgba8ui
#define IMAGE uimageBuffer
#define VEC uvec4
#include "texel_store_body.glsl"
