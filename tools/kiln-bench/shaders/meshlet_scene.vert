#version 450
#extension GL_GOOGLE_include_directive : require
// The indexed reference: the scene's vertices through the same transform as the mesh shader's.
#include "meshlet_scene.glsl"
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 colour;
layout(location = 0) out vec3 out_normal;
layout(location = 1) flat out vec4 out_colour;

void main() {
  gl_Position = clip_position(position);
  out_normal = normal;
  out_colour = colour;
}
