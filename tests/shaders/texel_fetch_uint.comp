#version 450
#extension GL_GOOGLE_include_directive : require
// texel_fetch_body.glsl with uint texels.
#define SAMPLER usamplerBuffer
#define VEC uvec4
#include "texel_fetch_body.glsl"
