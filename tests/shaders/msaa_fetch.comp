#version 450
// Reads every sample of a multisampled image with texelFetch (OpImageFetch + Sample), and the
// size and sample count the shader sees (OpImageQuerySize, OpImageQuerySamples).
// info = (width, height, samples, 0); texels[(y * width + x) * samples + s] = sample s of (x, y).
#extension GL_ARB_shader_texture_image_samples : require
layout(local_size_x = 64) in;
layout(binding = 0) uniform sampler2DMS image;
layout(binding = 1) buffer Result {
  uvec4 info;
  vec4 texels[];
} result;
void main() {
  const ivec2 size = textureSize(image);
  const int samples = textureSamples(image);
  const int i = int(gl_GlobalInvocationID.x);
  if (i == 0) result.info = uvec4(size, samples, 0);
  if (i >= size.x * size.y) return;
  const ivec2 p = ivec2(i % size.x, i / size.x);
  for (int s = 0; s < samples; ++s) result.texels[i * samples + s] = texelFetch(image, p, s);
}
