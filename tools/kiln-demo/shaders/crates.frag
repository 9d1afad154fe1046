#version 450
#extension GL_GOOGLE_include_directive : require
// The crates: wooden planks (the ground texture's detail, tinted) with dark edges.
#include "scene.glsl"
layout(set = 0, binding = 0) uniform sampler2D ground;
layout(location = 0) in vec3 world;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 texcoord;
layout(location = 0) out vec4 colour;

void main() {
  const float grain = texture(ground, vec2(0.25, 0.1) + texcoord * vec2(0.05, 0.4)).g;
  const vec2 edge = min(texcoord, 1.0 - texcoord);
  const float frame = smoothstep(0.04, 0.08, min(edge.x, edge.y));
  const vec3 wood = vec3(0.62, 0.42, 0.22) * (0.65 + 0.5 * grain);
  colour = vec4(shade(wood * mix(0.45, 1.0, frame), normal, world, 8.0, 0.05), 1.0);
}
