#version 450
// A 64-bit varying: kernel_abi.h's stage interfaces carry 32-bit values only, so the graphics
// compiler must reject this shader (tests/e2e/graphics_pipeline_test.cpp).
layout(location = 0) flat out dvec2 v_wide;
void main() {
  gl_Position = vec4(float(gl_VertexIndex), 0.0, 0.0, 1.0);
  v_wide = dvec2(gl_VertexIndex, 1.0);
}
