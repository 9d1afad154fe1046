#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// A 16-bit varying: Kiln's stages pass 32- and 64-bit values only (storageInputOutput16 is FALSE),
// so the graphics compiler must reject this shader (tests/e2e/graphics_pipeline_test.cpp).
layout(location = 0) flat out f16vec2 v_half;
void main() {
  gl_Position = vec4(float(gl_VertexIndex), 0.0, 0.0, 1.0);
  v_half = f16vec2(gl_VertexIndex, 1.0);
}
