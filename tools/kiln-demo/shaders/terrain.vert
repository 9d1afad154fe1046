#version 450
// The terrain's patch corners (world x, z) pass through to the control shader.
layout(location = 0) in vec2 corner;

void main() { gl_Position = vec4(corner.x, 0.0, corner.y, 1.0); }
