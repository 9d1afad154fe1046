#version 450
#extension GL_GOOGLE_include_directive : require
// xfb_streams.glsl with Position and colour in stream 1.
#define POSITION_STREAM 1
#include "xfb_values.glsl"
#include "xfb_streams.glsl"
