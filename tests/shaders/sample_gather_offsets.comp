#version 450
// textureGatherOffsets (ConstOffsets, shaderImageGatherExtended). A shader of its own because it
// crashes lavapipe's shader compiler (Mesa 22.3), so only Kiln runs it.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D repeated;
layout(set = 0, binding = 1) buffer Results { vec4 v[]; } results;

const ivec2 kOffsets[4] = ivec2[4](ivec2(0, 0), ivec2(1, -1), ivec2(-2, 3), ivec2(5, 1));

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 uv = vec2(float(i % 8u) * 0.173 - 0.31, float(i / 8u) * 0.121 - 0.2);
  results.v[i] = textureGatherOffsets(repeated, uv, kOffsets, 2);
}
