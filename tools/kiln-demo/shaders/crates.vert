#version 450
#extension GL_GOOGLE_include_directive : require
// Crates resting on the terrain around the torus: one cube mesh (vertex buffer), drawn instanced;
// instance i stands on a ring at angle i / count, turned by its own angle, sitting on the ground.
#include "scene.glsl"
layout(location = 0) in vec3 position;  // a unit cube, -0.5 .. 0.5
layout(location = 1) in vec3 normal_in;
layout(location = 2) in vec2 texcoord_in;
layout(location = 0) out vec3 world;
layout(location = 1) out vec3 normal;
layout(location = 2) out vec2 texcoord;

const uint kCrates = 10;

void main() {
  const float angle = 6.28318530718 * float(gl_InstanceIndex) / float(kCrates);
  const float size = 0.55 + 0.15 * float(gl_InstanceIndex % 3);
  const vec2 at = (4.2 + 0.6 * float(gl_InstanceIndex % 2)) * vec2(cos(angle), sin(angle));
  const float turn = angle * 1.7 + 0.3 * scene.eye.w;
  const mat3 rotation = mat3(cos(turn), 0.0, -sin(turn), 0.0, 1.0, 0.0, sin(turn), 0.0, cos(turn));
  const float ground = terrain_height(at).x;
  world = vec3(at.x, ground + 0.45 * size, at.y) + rotation * (size * position);
  normal = rotation * normal_in;
  texcoord = texcoord_in;
  gl_Position = scene.view_projection * vec4(world, 1.0);
}
