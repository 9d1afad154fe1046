#version 450
// Sample shading / InterpolateAt* tests: the colour's alpha is the vertex's clip w (the position is
// given after the divide), so smooth inputs interpolate perspective-correctly. The colour goes out
// smooth (Location 0), noperspective (1) and again smooth for a centroid input (2).
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_smooth;
layout(location = 1) noperspective out vec4 v_linear;
layout(location = 2) out vec4 v_again;
void main() {
  const float w = color.a;
  gl_Position = vec4(position * w, w);
  v_smooth = color;
  v_linear = color;
  v_again = color;
}
