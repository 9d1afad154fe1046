// Shared body of the texel_fetch_*.comp tests (SAMPLER and VEC defined by the includer): each
// invocation fetches its texel of the uniform texel buffer (no format in the shader: the view's
// decides the conversion) and writes the value unchanged.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform SAMPLER src;
layout(set = 0, binding = 1, std430) writeonly buffer Texels { VEC texels[]; };

void main() {
  const int i = int(gl_GlobalInvocationID.x);
  if (i < textureSize(src)) texels[i] = texelFetch(src, i);
}
