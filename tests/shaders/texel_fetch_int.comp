#version 450
#extension GL_GOOGLE_include_directive : require
// texel_fetch_body.glsl with int texels.
#define SAMPLER isamplerBuffer
#define VEC ivec4
#include "texel_fetch_body.glsl"
