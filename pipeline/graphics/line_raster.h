#pragma once
// Per-pixel line rules that the triangles of a line cannot express by their edges alone
// (VK_EXT_line_rasterization): Bresenham lines (the diamond-exit rule), smooth lines (coverage
// into alpha) and line stipple.
//
// A line that needs one still becomes two RasterTriangles and flows through binning like any
// triangle; its triangles carry the index of a LineRaster in their BatchOutput, and the tile back
// end passes each pixel's edge coverage through line_coverage(). For Bresenham lines the triangles
// only bound the candidate pixels (the line's parallelogram widened and lengthened so every
// pixel the rule can produce has its centre strictly inside) and the rule decides coverage;
// smooth lines likewise bound every pixel their rectangle touches. For stippled rectangular lines
// the edges decide coverage and the stipple removes samples.
// See docs/design/optional-features-and-gaps.md "Bresenham, smooth and stippled lines".
#include <cstdint>
#include <vector>

namespace kiln::exec::gfx {

struct LineRaster {
  bool bresenham = false;
  bool smooth = false;       // RECTANGULAR_SMOOTH: the rectangle's pixel coverage...
  bool scale_alpha = false;  // ...scales location 0's alpha (not for an integer attachment 0)
  bool x_major = true;
  bool stipple = false;
  bool continues_strip = false;  // the stipple counter goes on from the previous segment
  int32_t width = 1;             // Bresenham: fragments per major-axis step (rounded line width)
  // Bresenham: the segment in 8-bit fixed point, already offset by -(width-1)/2 along the minor axis.
  int64_t ax = 0, ay = 0, bx = 0, by = 0;
  // Bresenham: the first and last major-axis pixel coordinate that produces fragments, in the
  // direction of travel (first == last + step: none).
  int32_t first_major = 0, last_major = -1, major_step = 1;
  // Rectangular (stipple, smooth): the start point (pixels), the unit direction of the line, its
  // length and half its width.
  float origin_x = 0.0f, origin_y = 0.0f, dir_x = 0.0f, dir_y = 0.0f;
  float length = 0.0f, half_width = 0.5f;
  // Stipple: counter units this segment spans (Bresenham: fragments per width; rectangular: its
  // length in pixels) and the counter at its start (set in API order by resolve_line_stipple).
  float stipple_length = 0.0f, stipple_start = 0.0f;
  uint32_t stipple_factor = 1;
  uint16_t stipple_pattern = 0xFFFF;
};

// RasterTriangle::line of triangles without a per-pixel rule. A batch's lines number at most its
// primitives times the edges of a clipped polygon, far below this.
constexpr uint16_t kNoLineRaster = 0xFFFF;

// Bresenham: the minor-axis pixel coordinate of the thin (width 1) line's fragment at major-axis
// pixel coordinate `major`, or false when the diamond-exit rule produces none there.
bool bresenham_thin_minor(const LineRaster& line, int32_t major, int32_t* minor);

// Fills first_major/last_major/major_step/stipple_length of a Bresenham line (ax..by, x_major set).
void finish_bresenham_line(LineRaster& line);

struct DrawContext;
struct TriangleEdges;
struct QuadBatch;

// The samples of pixel (x, y) that a line produces, given the samples `edge_mask` that one of its
// triangles (`edges`) covers. The tile back end's one hook for lines with a per-pixel rule.
uint32_t line_coverage(const LineRaster& line, const TriangleEdges& edges, const DrawContext& ctx, int32_t x, int32_t y,
                       uint32_t edge_mask);

// Smooth lines: multiplies the alpha of colour location 0 (`alpha`, one value per lane) of the
// lanes in `lanes` by the pixel's coverage, after shading (the back end's second hook).
void scale_smooth_line_alpha(const LineRaster& line, const QuadBatch& batch, uint32_t lanes, float* alpha);

// Sets each line's stipple_start from `carry` (the counter where the previous segment of its
// strip ended) in API order, and advances `carry`. Called serially per batch, batches in order.
void resolve_line_stipple(std::vector<LineRaster>& lines, float& carry);

}  // namespace kiln::exec::gfx
