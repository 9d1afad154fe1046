#version 450
#extension GL_GOOGLE_include_directive : require
// xfb_streams.glsl with Position and colour in stream 0.
#define POSITION_STREAM 0
#include "xfb_values.glsl"
#include "xfb_streams.glsl"
