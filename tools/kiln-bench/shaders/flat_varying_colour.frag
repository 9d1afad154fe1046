#version 450
// Every fragment gets its primitive's colour (one per sprite, hence flat).
layout(location = 0) flat in vec4 colour;
layout(location = 0) out vec4 out_colour;

void main() { out_colour = colour; }
