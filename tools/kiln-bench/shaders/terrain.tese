#version 450
#extension GL_GOOGLE_include_directive : require
// Tessellated terrain: bilinear interpolation of the patch's corners (0 = (u0, v0), 1 = (u1, v0),
// 2 = (u0, v1), 3 = (u1, v1)) gives the point's (u, v); one textureLod of the height map there
// gives its height (red) and the height's gradient (green, blue), so the point is displaced and
// gets a normal. Also passes on, per axis, the parity of the point's index along the tessellated
// edge (0, 1, 0, 1...): interpolated, a wave whose period shows the tessellation level.
layout(quads, equal_spacing, ccw) in;

#include "terrain.glsl"

layout(set = 0, binding = 0) uniform sampler2D height_map;

layout(location = 0) out float height;
layout(location = 1) out vec3 normal;
layout(location = 2) out vec2 grid_parity;

void main() {
  const vec2 t = gl_TessCoord.xy;
  // a * (1 - t) + b * t is symmetric in the two ends, so patches sharing an edge compute its
  // points identically (no cracks).
  const vec2 near = gl_in[0].gl_Position.xy * (1.0 - t.x) + gl_in[1].gl_Position.xy * t.x;
  const vec2 far = gl_in[2].gl_Position.xy * (1.0 - t.x) + gl_in[3].gl_Position.xy * t.x;
  const vec2 uv = near * (1.0 - t.y) + far * t.y;
  const vec4 texel = textureLod(height_map, uv, 0.0);
  height = texel.r;
  const vec2 slope = (texel.gb * 2.0 - 1.0) * (terrain.gradient_range * terrain.height_scale);
  normal = vec3(-slope.x, 1.0, -slope.y);  // normalised per fragment
  grid_parity = mod(round(t * terrain.level), 2.0);
  gl_Position = terrain.view_projection * vec4(uv.x, height * terrain.height_scale, uv.y, 1.0);
}
