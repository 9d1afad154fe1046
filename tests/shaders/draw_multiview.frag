#version 450
#extension GL_EXT_multiview : require
// Red from the vertex colour, green = 32 × the vertex shader's ViewIndex, blue = 64 × this
// shader's ViewIndex (in 1/255 units).
layout(location = 0) in vec4 v_color;
layout(location = 1) flat in int v_view;
layout(location = 0) out vec4 out_color;
void main() {
  out_color = vec4(v_color.r, float(v_view) * (32.0 / 255.0), float(gl_ViewIndex) * (64.0 / 255.0), 1.0);
}
