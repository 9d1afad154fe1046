#version 450
#extension GL_GOOGLE_include_directive : require
// False colour: red and green name the sphere (its vertices' colour), blue is the diffuse
// lighting of the interpolated normal.
#include "meshlet_scene.glsl"
layout(location = 0) in vec3 normal;
layout(location = 1) flat in vec4 colour;
layout(location = 0) out vec4 out_colour;

void main() {
  out_colour = vec4(colour.rg, max(dot(normalize(normal), camera.light.xyz), 0.0), 1.0);
}
