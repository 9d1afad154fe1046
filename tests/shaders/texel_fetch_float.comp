#version 450
#extension GL_GOOGLE_include_directive : require
// texel_fetch_body.glsl with float texels.
#define SAMPLER samplerBuffer
#define VEC vec4
#include "texel_fetch_body.glsl"
