// The push constants of the tessellated terrain (scenarios/tess_terrain.cpp: TerrainConstants),
// one block that all four stages see.
layout(push_constant) uniform Terrain {
  mat4 view_projection;  // world (u, height, v) to clip space
  vec4 light;            // xyz: unit vector towards the light
  float level;           // every outer and inner tessellation level
  float height_scale;    // world height of a height-map value of 1
  float gradient_range;  // green/blue codes 0..1 of the height map hold gradients -range..+range
} terrain;
