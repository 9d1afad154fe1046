#pragma once
// The scene of the cube shadow-map scenario: axis-aligned boxes on a lattice of unit cells
// centred on the origin, at most one box per cell (which cells hold one and how large each is
// follow pattern_word). It gives the triangle mesh to draw and, for the check, the first box a
// ray meets, found by walking the cells along the ray (a few dozen box tests, not thousands).
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace kiln::bench {

struct Box {
  std::array<float, 3> min;
  std::array<float, 3> max;
};

// Where a ray first meets a box: which box, through which of its faces (entry_axis 0..2 = the
// x, y or z slab) and at which ray parameter t (the point is origin + t * direction).
struct BoxHit {
  size_t box;
  int entry_axis;
  double t;
};

class BoxLattice {
 public:
  // cells_per_axis^3 cells (an even count, so the origin is a cell corner); a cell holds a box
  // with probability 3/4, of half-size 0.15..0.35, centred in it: every box is at least 0.15 from
  // the planes of its cell, so a point within 0.15 of the origin lies outside all of them.
  BoxLattice(int cells_per_axis, uint32_t seed);

  const std::vector<Box>& boxes() const { return boxes_; }
  size_t triangle_count() const { return boxes_.size() * kTrianglesPerBox; }

  // Each box's 8 corners as xyz floats (corner c: max on axis i when bit i of c is set).
  std::vector<float> corner_positions() const;
  // 12 triangles per box (two per face) indexing corner_positions().
  std::vector<uint32_t> triangle_indices() const;

  // The first box the ray origin + t * direction (t > 0) meets, or nullopt when it leaves the
  // lattice first. The origin must lie inside the lattice and outside every box, and the largest
  // component of `direction` must be exactly +-1.
  std::optional<BoxHit> first_hit(const std::array<double, 3>& origin, const std::array<double, 3>& direction) const;

 private:
  static constexpr size_t kTrianglesPerBox = 12;
  static constexpr int kNoBox = -1;

  // The box in cell (x, y, z), kNoBox if none; each index in [0, cells_per_axis).
  int box_in_cell(int x, int y, int z) const { return cell_boxes_[(size_t(z) * cells_ + y) * cells_ + x]; }

  int cells_;
  std::vector<Box> boxes_;
  std::vector<int> cell_boxes_;
};

}  // namespace kiln::bench
