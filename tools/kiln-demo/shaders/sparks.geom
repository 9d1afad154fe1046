#version 450
#extension GL_GOOGLE_include_directive : require
// Each spark (a point) becomes a quad facing the camera, as wide as its world radius at its
// distance; sparks behind the camera are dropped.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
#include "scene.glsl"
layout(location = 0) in vec4 colour_in[];
layout(location = 1) in float radius_in[];
layout(location = 0) out vec4 colour;
layout(location = 1) out vec2 offset;

const vec2 kCorners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));

void main() {
  const vec4 centre = gl_in[0].gl_Position;
  if (centre.w <= 0.1) return;
  for (int i = 0; i < 4; ++i) {
    // A view-space offset d moves clip x by projection.x * d and clip y by projection.y * d.
    gl_Position = centre + vec4(kCorners[i] * radius_in[0] * scene.projection.xy, 0.0, 0.0);
    colour = colour_in[0];
    offset = kCorners[i];
    EmitVertex();
  }
  EndPrimitive();
}
