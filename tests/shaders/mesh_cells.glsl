// The cell grid of the mesh shader tests (cell_corner in tests/e2e/mesh_shader_fixture.h): corner
// k (0 .. 3) of the quad in cell c of a grid of 8 x 8-pixel cells, `columns` a row, on a
// `size`-pixel square target, in clip space. The quad's triangles are kCellTriangles[0] and [1].
vec4 cell_corner(uint c, uint k, uint columns, float size) {
  const vec2 offsets[4] = vec2[](vec2(0, 0), vec2(6, 0), vec2(6, 5), vec2(0, 5));
  const vec2 pixel = vec2(8 * (c % columns) + 1, 8 * (c / columns) + 1) + offsets[k];
  return vec4(pixel * (2.0 / size) - 1.0, 0.5, 1.0);
}
const uvec3 kCellTriangles[2] = uvec3[](uvec3(0, 1, 3), uvec3(2, 3, 1));
