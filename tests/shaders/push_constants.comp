#version 460
// Push constants of several types: dst[i] = src[first + i] * scale + bias[i % 4].
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
  uint first;
  uint count;
  float scale;
  vec4 bias;
};

layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { float dst[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  dst[i] = src[first + i] * scale + bias[i % 4];
}
