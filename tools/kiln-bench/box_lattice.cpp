#include "tools/kiln-bench/box_lattice.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {

namespace {

constexpr float kMinHalfSize = 0.15f;
constexpr float kHalfSizeRange = 0.2f;

// The ray parameter where the ray enters `box` and the slab it enters through, or nullopt if it
// misses (slab test; an origin outside the box, so the entry is at t > 0).
std::optional<BoxHit> enter_box(const Box& box, size_t index, const std::array<double, 3>& origin,
                                const std::array<double, 3>& direction) {
  double enter = 0, leave = std::numeric_limits<double>::infinity();
  int entry_axis = -1;
  for (int axis = 0; axis < 3; ++axis) {
    const double inverse = 1.0 / direction[axis];  // +-infinity along a slab: fine for the compare
    double near = (double(box.min[axis]) - origin[axis]) * inverse;
    double far = (double(box.max[axis]) - origin[axis]) * inverse;
    if (near > far) std::swap(near, far);
    if (near > enter) {
      enter = near;
      entry_axis = axis;
    }
    leave = std::min(leave, far);
  }
  if (entry_axis < 0 || enter > leave) return std::nullopt;
  return BoxHit{index, entry_axis, enter};
}

}  // namespace

BoxLattice::BoxLattice(int cells_per_axis, uint32_t seed)
    : cells_(cells_per_axis), cell_boxes_(size_t(cells_per_axis) * cells_per_axis * cells_per_axis, kNoBox) {
  const float half_lattice = float(cells_) / 2;
  for (size_t cell = 0; cell < cell_boxes_.size(); ++cell) {
    const uint32_t word = pattern_word(cell, seed);
    if ((word & 3) == 0) continue;  // a quarter of the cells are empty: rays see further
    const float half_size = kMinHalfSize + kHalfSizeRange * float((word >> 8) & 0xff) / 255.0f;
    const int coordinates[3] = {int(cell % cells_), int(cell / cells_ % cells_), int(cell / cells_ / cells_)};
    Box box;
    for (int axis = 0; axis < 3; ++axis) {
      const float centre = float(coordinates[axis]) - half_lattice + 0.5f;
      box.min[axis] = centre - half_size;
      box.max[axis] = centre + half_size;
    }
    cell_boxes_[cell] = int(boxes_.size());
    boxes_.push_back(box);
  }
}

std::vector<float> BoxLattice::corner_positions() const {
  std::vector<float> positions;
  positions.reserve(boxes_.size() * 8 * 3);
  for (const Box& box : boxes_) {
    for (int corner = 0; corner < 8; ++corner) {
      for (int axis = 0; axis < 3; ++axis) positions.push_back((corner >> axis) & 1 ? box.max[axis] : box.min[axis]);
    }
  }
  return positions;
}

std::vector<uint32_t> BoxLattice::triangle_indices() const {
  // The faces as corner quads (-x, +x, -y, +y, -z, +z), each split into two triangles.
  static constexpr uint32_t kFaces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                            {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
  std::vector<uint32_t> indices;
  indices.reserve(triangle_count() * 3);
  for (uint32_t box = 0; box < boxes_.size(); ++box) {
    const uint32_t base = box * 8;
    for (const auto& quad : kFaces) {
      indices.insert(indices.end(), {base + quad[0], base + quad[1], base + quad[2]});
      indices.insert(indices.end(), {base + quad[0], base + quad[2], base + quad[3]});
    }
  }
  return indices;
}

std::optional<BoxHit> BoxLattice::first_hit(const std::array<double, 3>& origin,
                                            const std::array<double, 3>& direction) const {
  // Walk the slabs of cells across the major axis, nearest first. Along it t is the distance
  // travelled (|direction| is 1 there), so a box in a nearer slab is met before any in a farther
  // one; within a slab the ray crosses at most 2 x 2 cells (|other components| <= 1).
  int major = 0;
  for (int axis = 1; axis < 3; ++axis) {
    if (std::abs(direction[axis]) > std::abs(direction[major])) major = axis;
  }
  const int step = direction[major] > 0 ? 1 : -1;
  const double half_lattice = double(cells_) / 2;
  const auto cell_of = [&](double coordinate) { return int(std::floor(coordinate + half_lattice)); };
  for (int slab = cell_of(origin[major]); slab >= 0 && slab < cells_; slab += step) {
    const double slab_start = slab - half_lattice + (step > 0 ? 0 : 1);
    const double slab_end = slab_start + step;
    const double t_start = std::max(0.0, (slab_start - origin[major]) * step);
    const double t_end = (slab_end - origin[major]) * step;
    int first[3], last[3];
    first[major] = last[major] = slab;
    bool inside = true;
    for (int axis = 0; axis < 3; ++axis) {
      if (axis == major) continue;
      const double a = origin[axis] + direction[axis] * t_start, b = origin[axis] + direction[axis] * t_end;
      first[axis] = std::max(cell_of(std::min(a, b)), 0);
      last[axis] = std::min(cell_of(std::max(a, b)), cells_ - 1);
      inside = inside && first[axis] <= last[axis];
    }
    if (!inside) return std::nullopt;  // out through a side of the lattice, never to return
    std::optional<BoxHit> nearest;
    for (int z = first[2]; z <= last[2]; ++z) {
      for (int y = first[1]; y <= last[1]; ++y) {
        for (int x = first[0]; x <= last[0]; ++x) {
          const int box = box_in_cell(x, y, z);
          if (box == kNoBox) continue;
          const std::optional<BoxHit> hit = enter_box(boxes_[size_t(box)], size_t(box), origin, direction);
          if (hit && (!nearest || hit->t < nearest->t)) nearest = hit;
        }
      }
    }
    if (nearest) return nearest;
  }
  return std::nullopt;
}

}  // namespace kiln::bench
