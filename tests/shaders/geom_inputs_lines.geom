#version 450
#extension GL_GOOGLE_include_directive : require
// Records the vertex order of lines input primitives (geom_record_inputs.glsl).
layout(lines) in;
#include "geom_record_inputs.glsl"
