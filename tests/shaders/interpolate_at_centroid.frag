#version 450
// Per pixel: interpolateAtCentroid of a plain input and a centroid-qualified copy of it.
layout(location = 0) in vec4 v_smooth;
layout(location = 2) centroid in vec4 v_again;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(interpolateAtCentroid(v_smooth).rg, v_again.rg); }
