#version 450
// Clip distances the fragment shader reads back (draw_clip_read.frag): 1 + x (0..2 over the
// target, never clipping) and a constant 2.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
out float gl_ClipDistance[2];
void main() {
  gl_Position = vec4(position, 1.0);
  gl_ClipDistance[0] = 1.0 + position.x;
  gl_ClipDistance[1] = 2.0;
}
