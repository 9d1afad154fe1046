#version 450
#extension GL_GOOGLE_include_directive : require
// Level of detail by distance: each outer level comes from its edge's midpoint only, so two
// patches sharing an edge agree on it and the terrain has no cracks; the inner levels follow the
// largest outer level.
layout(vertices = 4) out;
#include "scene.glsl"

float edge_level(vec4 a, vec4 b) {
  const float d = distance(scene.eye.xyz, vec3(0.5 * (a.x + b.x), 0.0, 0.5 * (a.z + b.z)));
  return clamp(48.0 / d, 1.0, 24.0);
}

void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  if (gl_InvocationID == 0) {
    // Corners: 0 = (x0, z0), 1 = (x1, z0), 2 = (x0, z1), 3 = (x1, z1); quad domain edges: outer 0 is
    // u = 0, 1 is v = 0, 2 is u = 1, 3 is v = 1.
    gl_TessLevelOuter[0] = edge_level(gl_in[0].gl_Position, gl_in[2].gl_Position);
    gl_TessLevelOuter[1] = edge_level(gl_in[0].gl_Position, gl_in[1].gl_Position);
    gl_TessLevelOuter[2] = edge_level(gl_in[1].gl_Position, gl_in[3].gl_Position);
    gl_TessLevelOuter[3] = edge_level(gl_in[2].gl_Position, gl_in[3].gl_Position);
    const float inner = max(max(gl_TessLevelOuter[0], gl_TessLevelOuter[1]),
                            max(gl_TessLevelOuter[2], gl_TessLevelOuter[3]));
    gl_TessLevelInner[0] = inner;
    gl_TessLevelInner[1] = inner;
  }
}
