#version 450
// Anisotropic filtering with explicit gradients (tests/e2e/compute_sampling_test.cpp
// AnisotropicFilteringWithGradients): the same textureGrad through an anisotropic sampler and an
// isotropic one. Inputs per invocation: (s, t, -, -), (ds/dx, dt/dx, ds/dy, dt/dy).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D aniso_tex;
layout(set = 0, binding = 1) uniform sampler2D iso_tex;
layout(set = 0, binding = 2) readonly buffer Inputs { vec4 v[]; } inputs;
layout(set = 0, binding = 3) buffer Results { vec4 v[]; } results;

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 p = inputs.v[2u * i], g = inputs.v[2u * i + 1u];
  results.v[2u * i] = textureGrad(aniso_tex, p.xy, g.xy, g.zw);
  results.v[2u * i + 1u] = textureGrad(iso_tex, p.xy, g.xy, g.zw);
}
