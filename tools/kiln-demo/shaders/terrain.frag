#version 450
#extension GL_GOOGLE_include_directive : require
// The terrain: the ground texture, darker and rockier where it is steep, lit and fogged.
#include "scene.glsl"
layout(set = 0, binding = 0) uniform sampler2D ground;
layout(location = 0) in vec3 world;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 texcoord;
layout(location = 0) out vec4 colour;

void main() {
  const vec3 n = normalize(normal);
  const vec3 grass = texture(ground, texcoord).rgb;
  const vec3 rock = vec3(0.45, 0.40, 0.36) * (0.6 + 0.4 * grass.g);
  const vec3 albedo = mix(rock, grass, smoothstep(0.75, 0.92, n.y));
  colour = vec4(shade(albedo, n, world, 16.0, 0.05), 1.0);
}
