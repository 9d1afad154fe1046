#version 450
#extension GL_GOOGLE_include_directive : require
// texel_store_body.glsl with rgb10_a2 storage texel buffers.
#define FORMAT rgb10_a2
#define IMAGE imageBuffer
#define VEC vec4
#include "texel_store_body.glsl"
