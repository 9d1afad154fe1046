#version 450
#extension GL_GOOGLE_include_directive : require
// Records the vertex order of triangles_adjacency input primitives (geom_record_inputs.glsl).
layout(triangles_adjacency) in;
#include "geom_record_inputs.glsl"
