#version 450
#extension GL_GOOGLE_include_directive : require
// The torus: polished copper, with stripes around the tube.
#include "scene.glsl"
layout(location = 0) in vec3 world;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 colour;

void main() {
  const vec3 copper = vec3(0.85, 0.45, 0.22);
  colour = vec4(shade(copper, normal, world, 48.0, 0.6), 1.0);
}
