#version 450
// Samples the colour and depth attachments the render pass is drawing into, at this pixel's mirror
// image across x = 64 of a 128-pixel-wide target (VK_EXT_attachment_feedback_loop_layout): red and
// green inverted, depth into blue. Drawn on the left half only, so it reads what it does not write.
layout(set = 0, binding = 0) uniform sampler2D color_attachment;
layout(set = 0, binding = 1) uniform sampler2D depth_attachment;
layout(location = 0) out vec4 color;
void main() {
  const ivec2 pixel = ivec2(127 - int(gl_FragCoord.x), int(gl_FragCoord.y));
  const vec4 previous = texelFetch(color_attachment, pixel, 0);
  color = vec4(1.0 - previous.r, 1.0 - previous.g, texelFetch(depth_attachment, pixel, 0).r, 1.0);
}
