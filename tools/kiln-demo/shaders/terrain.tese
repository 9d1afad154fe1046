#version 450
#extension GL_GOOGLE_include_directive : require
// Places each generated point on the terrain: bilinear between the patch's corners in x, z, the
// analytic height in y, the normal from the height's gradient.
layout(quads, fractional_odd_spacing, ccw) in;
#include "scene.glsl"
layout(location = 0) out vec3 world;
layout(location = 1) out vec3 normal;
layout(location = 2) out vec2 texcoord;

void main() {
  const vec2 u = gl_TessCoord.xy;
  const vec4 bottom = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, u.x);
  const vec4 top = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, u.x);
  const vec2 xz = mix(bottom, top, u.y).xz;
  const vec3 h = terrain_height(xz);
  world = vec3(xz.x, h.x, xz.y);
  normal = vec3(-h.y, 1.0, -h.z);
  texcoord = (xz + kTerrainHalfSize) / (2.0 * kTerrainHalfSize);
  gl_Position = scene.view_projection * vec4(world, 1.0);
}
