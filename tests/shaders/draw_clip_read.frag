#version 450
// Writes the interpolated clip distances: (ClipDistance[0] / 2, ClipDistance[1] / 4, 0, 1).
in float gl_ClipDistance[2];
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_ClipDistance[0] / 2.0, gl_ClipDistance[1] / 4.0, 0.0, 1.0); }
