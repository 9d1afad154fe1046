#version 460
// Mandelbrot escape-time iteration counts, one pixel per invocation: ALU-bound (a handful of
// float multiply-adds per iteration, one 4-byte store per pixel) with divergent loop lengths.
//   counts[y * width + x] = iterations until |z| > 2 (at most kMaxIterations) + kCountOffset
// kCountOffset exists for the pipeline-creation scenarios: changing it makes each pipeline new
// to the driver, and the output shows which specialization ran. mandelbrot.h mirrors this on the CPU.
layout(local_size_x = 16, local_size_y = 16) in;

layout(constant_id = 0) const uint kMaxIterations = 256u;
layout(constant_id = 1) const uint kCountOffset = 0u;

// Pixel (x, y) is the point c = origin + (x, y) * step.
layout(push_constant) uniform View {
  vec2 origin;
  vec2 step;
  uint width;
  uint height;
};

layout(set = 0, binding = 0) writeonly buffer Counts { uint counts[]; };

void main() {
  const uvec2 pixel = gl_GlobalInvocationID.xy;
  if (pixel.x >= width || pixel.y >= height) return;
  const vec2 c = origin + vec2(pixel) * step;
  vec2 z = vec2(0.0);
  uint iterations = 0u;
  while (iterations < kMaxIterations && dot(z, z) <= 4.0) {
    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    ++iterations;
  }
  counts[pixel.y * width + pixel.x] = iterations + kCountOffset;
}
