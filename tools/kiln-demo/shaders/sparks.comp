#version 450
#extension GL_GOOGLE_include_directive : require
// Moves the sparks for this frame: each rises along a helix around the torus and fades as it
// climbs, its phase fixed by its index, so a frame depends only on the time.
layout(local_size_x = 64) in;
#include "scene.glsl"
#include "sparks.glsl"
layout(std430, set = 0, binding = 0) writeonly buffer Sparks { Spark sparks[]; };

float hash(uint i) {
  i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16;
  return float(i & 0xffffffu) / 16777216.0;
}

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= kSparks) return;
  const float time = scene.eye.w;
  const float life = fract(hash(i) + 0.08 * time);  // 0 at the ground, 1 at the top
  const float angle = 6.28318530718 * hash(i + 7919u) + 2.2 * life + 0.4 * time;
  const float radius = 2.6 + 1.8 * hash(i + 104729u) - 0.9 * life;
  const vec3 position = vec3(radius * cos(angle), 0.4 + 5.0 * life, radius * sin(angle));
  const vec3 warm = vec3(1.0, 0.85, 0.35), hot = vec3(1.0, 0.35, 0.1);
  sparks[i].position = vec4(position, 0.035 + 0.035 * hash(i + 3u));
  sparks[i].colour = vec4(mix(warm, hot, life), 1.0 - life * life);
}
