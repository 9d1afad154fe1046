#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// Instance i draws into framebuffer layer i (shaderOutputLayer), shifted right by 8 pixels of a
// 64-pixel target per instance; alpha = (i + 1) × 50 / 255.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = vec4(position.x + 0.25 * float(gl_InstanceIndex), position.y, position.z, 1.0);
  gl_Layer = gl_InstanceIndex;
  v_color = vec4(color.rgb, float(gl_InstanceIndex + 1) * (50.0 / 255.0));
}
