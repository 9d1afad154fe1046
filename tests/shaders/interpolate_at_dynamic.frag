#version 450
// InterpolateAtOffset through a dynamically indexed input array (per pixel).
layout(location = 0) in vec4 v_inputs[2];  // Locations 0 (smooth) and 1 (declared smooth here too)
layout(location = 0) out vec4 out_color;
layout(push_constant) uniform Pick { int index; } pick;
void main() { out_color = vec4(interpolateAtOffset(v_inputs[pick.index], vec2(-0.5, 0.4375)).rg, 0.0, 1.0); }
