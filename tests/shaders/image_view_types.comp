#version 460
// What a shader sees through the views of BufferImageTest.ImageViewsOfEveryType
// (tests/e2e/buffer_image_test.cpp), whose images hold one value per (level, layer): per view, one
// texel of a level and layer the test picks, relative to the view's own first level and layer, and
// the view's size at its level 0 and its level count.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) uniform usampler1D view_1d;
layout(set = 0, binding = 1) uniform usampler1DArray view_1d_array;
layout(set = 0, binding = 2) uniform usampler2D view_2d;
layout(set = 0, binding = 3) uniform usampler2DArray view_2d_array;
layout(set = 0, binding = 4) uniform usampler3D view_3d;
layout(set = 0, binding = 5) uniform usamplerCube view_cube;
layout(set = 0, binding = 6) uniform usampler2D view_cube_face;
layout(set = 0, binding = 7) uniform usampler2DArray view_cube_layers;
layout(set = 0, binding = 8) buffer Results { uvec4 results[16]; };

void main() {
  results[0] = texelFetch(view_1d, 0, 0);
  results[1] = uvec4(textureSize(view_1d, 0), 0, 0, textureQueryLevels(view_1d));
  results[2] = texelFetch(view_1d_array, ivec2(0, 2), 3);
  results[3] = uvec4(textureSize(view_1d_array, 0), 0, textureQueryLevels(view_1d_array));
  results[4] = texelFetch(view_2d, ivec2(0), 1);
  results[5] = uvec4(textureSize(view_2d, 0), 0, textureQueryLevels(view_2d));
  results[6] = texelFetch(view_2d_array, ivec3(0, 0, 2), 1);
  results[7] = uvec4(textureSize(view_2d_array, 0), textureQueryLevels(view_2d_array));
  results[8] = texelFetch(view_3d, ivec3(0), 2);
  results[9] = uvec4(textureSize(view_3d, 0), textureQueryLevels(view_3d));
  results[10] = textureLod(view_cube, vec3(0.0, -1.0, 0.0), 2.0);  // face -Y: the view's layer 3
  results[11] = uvec4(textureSize(view_cube, 0), 0, textureQueryLevels(view_cube));
  results[12] = texelFetch(view_cube_face, ivec2(0), 0);
  results[13] = uvec4(textureSize(view_cube_face, 0), 0, textureQueryLevels(view_cube_face));
  results[14] = texelFetch(view_cube_layers, ivec3(0, 0, 11), 4);
  results[15] = uvec4(textureSize(view_cube_layers, 0), textureQueryLevels(view_cube_layers));
}
