#version 450
#extension GL_GOOGLE_include_directive : require
// Tessellated terrain, in false colour: red = height, green = diffuse lighting from the normal,
// blue = the mean of the two grid-parity waves (the tessellation pattern).
#include "terrain.glsl"

layout(location = 0) in float height;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 grid_parity;

layout(location = 0) out vec4 colour;

void main() {
  const float diffuse = max(dot(normalize(normal), terrain.light.xyz), 0.0);
  colour = vec4(height, diffuse, 0.5 * (grid_parity.x + grid_parity.y), 1.0);
}
