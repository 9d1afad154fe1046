#version 450
// World-space positions from the vertex buffer, passed on untransformed: the geometry shader
// projects each triangle once per cube face.
layout(location = 0) in vec3 position;

void main() { gl_Position = vec4(position, 1.0); }
