#version 450
#extension GL_GOOGLE_include_directive : require
// texel_store_body.glsl with rgb10_a2ui storage texel buffers.
#define FORMAT rgb10_a2ui
#define IMAGE uimageBuffer
#define VEC uvec4
#include "texel_store_body.glsl"
