#version 450
// Tessellated terrain: a patch corner (u, v in [0, 1], from the vertex buffer) passed on as the
// control point's position.
layout(location = 0) in vec2 position;

void main() { gl_Position = vec4(position, 0.0, 1.0); }
