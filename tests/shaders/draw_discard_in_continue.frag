#version 450
// A function that discards, called from a for loop's increment — the loop's continue construct,
// where SPIR-V inliners cannot inline a kill. Pixels with x % 4 == 1 discard on the loop's second
// step; the others take three steps and write red = 0.75.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
int advance(int i) {
  if (i == 1 && int(gl_FragCoord.x) % 4 == 1) discard;
  return i + 1;
}
void main() {
  float sum = 0.0;
  for (int i = 0; i < 3; i = advance(i)) sum += 0.25;
  out_color = vec4(sum, v_color.gba);
}
