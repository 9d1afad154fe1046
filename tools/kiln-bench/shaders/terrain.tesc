#version 450
#extension GL_GOOGLE_include_directive : require
// Tessellated terrain: passes the patch's four corners through and sets every outer and inner
// level to the push constants' level.
layout(vertices = 4) out;

#include "terrain.glsl"

void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter[0] = terrain.level;
    gl_TessLevelOuter[1] = terrain.level;
    gl_TessLevelOuter[2] = terrain.level;
    gl_TessLevelOuter[3] = terrain.level;
    gl_TessLevelInner[0] = terrain.level;
    gl_TessLevelInner[1] = terrain.level;
  }
}
