#version 450
// Counts the invocations of each pixel (FragCoord is the pixel's centre or one of its samples)
// and writes the plain smooth input.
layout(location = 0) in vec4 v_smooth;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) buffer Counts { uint invocations[]; };
layout(push_constant) uniform Target { uint width; } target;
void main() {
  atomicAdd(invocations[uint(gl_FragCoord.y) * target.width + uint(gl_FragCoord.x)], 1u);
  out_color = v_smooth;
}
