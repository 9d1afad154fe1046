#version 460
// y[i] = a * x[i] + y[i] over n elements: storage buffers, a uniform block, GlobalInvocationID and
// a bounds check that leaves the last workgroup partly idle.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer XBuffer { float x[]; };
layout(set = 0, binding = 1) buffer YBuffer { float y[]; };
layout(set = 0, binding = 2) uniform Params {
  float a;
  uint n;
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
