#version 450
// Counts its fragments with an atomic and records which pixels ran.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 1) buffer Fragments { uint fragment_count; uint pixel_hits[]; };
void main() {
  atomicAdd(fragment_count, 1u);
  const ivec2 p = ivec2(gl_FragCoord.xy);
  atomicAdd(pixel_hits[p.y * 64 + p.x], 1u);
  out_color = v_color;
}
