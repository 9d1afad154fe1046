#version 460
// The cube array view of BufferImageTest.ImageViewsOfEveryType (tests/e2e/buffer_image_test.cpp),
// read like the other views by image_view_types.comp, on devices with imageCubeArray.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) uniform usamplerCubeArray view_cube_array;
layout(set = 0, binding = 1) buffer Results { uvec4 results[2]; };

void main() {
  results[0] = textureLod(view_cube_array, vec4(0.0, 0.0, 1.0, 1.0), 3.0);  // cube 1, face +Z: layer 10
  results[1] = uvec4(textureSize(view_cube_array, 0), textureQueryLevels(view_cube_array));
}
