// Fragment input interpolation (pipeline/graphics/fragment_inputs.*): the values a fragment kernel
// reads against a double-precision reference of the spec's formulas (perspective-correct for
// Smooth, screen-space for NoPerspective, vertex 0's bits for Flat, the first covered sample for
// Centroid), and the vector widths (4, 8 and 16 lanes per vector) against each other bit for bit.
#include <bit>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "pipeline/graphics/fragment_inputs.h"
#include "pipeline/graphics_state.h"

namespace kiln::exec::gfx {
namespace {


// Locations: 0 smooth, 1 noperspective, 2 flat (integer bit patterns), 5 smooth + centroid.
constexpr uint32_t kLocations[] = {0, 1, 2, 5};
constexpr abi::Interpolation kModes[] = {abi::Interpolation::Smooth, abi::Interpolation::NoPerspective,
                                         abi::Interpolation::Flat, abi::Interpolation::Smooth};
// Standard 4x sample positions in 1/256 pixel.
constexpr int32_t kSampleX[4] = {96, 224, 32, 160}, kSampleY[4] = {32, 96, 160, 224};

struct Scene {
  GraphicsKernels kernels;
  DrawContext ctx;
  RasterTriangle t{};
  std::vector<uint32_t> values;
  double X[3], Y[3];  // vertices in pixels
  float value[3][16];  // per vertex: 4 varyings x 4 components (raw bits for the flat one)

  // A triangle over roughly (3..61, 2..58) with 1/w differing per vertex unless `affine`.
  Scene(bool affine, uint32_t samples, bool frag_coord) {
    abi::FragmentInterface& fi = kernels.fragment_interface;
    fi.centroid_mask = 1u << 5;
    fi.reads_frag_coord = frag_coord;
    ctx.kernels = &kernels;
    ctx.samples = samples;
    for (uint32_t s = 0; s < samples && samples > 1; ++s) {
      ctx.sample_x[s] = kSampleX[s];
      ctx.sample_y[s] = kSampleY[s];
    }
    if (samples == 1) ctx.sample_x[0] = ctx.sample_y[0] = 128;
    VertexFormat& f = ctx.vertex_format;
    f.varying_count = 4;
    for (uint32_t v = 0; v < 4; ++v) {
      f.varying_location[v] = kLocations[v];
      f.varying_interpolation[v] = kModes[v];
      fi.input_components[kLocations[v]] = 0xF;
    }
    const double px[3] = {3.3, 61.7, 20.1}, py[3] = {2.2, 17.9, 58.4};
    const float inv_w[3] = {1.0f, affine ? 1.0f : 0.25f, affine ? 1.0f : 0.6f};
    const float z[3] = {0.1f, 0.7f, 0.4f};
    for (int i = 0; i < 3; ++i) {
      X[i] = px[i];
      Y[i] = py[i];
      t.x[i] = std::llround(px[i] * kSubpixelOne);
      t.y[i] = std::llround(py[i] * kSubpixelOne);
      X[i] = double(t.x[i]) / kSubpixelOne;
      Y[i] = double(t.y[i]) / kSubpixelOne;
      t.z[i] = z[i];
      t.inv_w[i] = inv_w[i];
    }
    t.kind = PrimitiveKind::Triangle;
    const uint32_t n = f.raster_values();
    values.resize(3 * n);
    for (uint32_t v = 0; v < 3; ++v)
      for (uint32_t k = 0; k < 16; ++k) {
        // Component 3 of location 0 is equal at every vertex (must come out exactly).
        value[v][k] = k == 3 ? 0.3f : float(v * 7 + k) * 0.37f - 2.0f + float(v == 1) * 3.5f;
        values[v * n + k] = std::bit_cast<uint32_t>(value[v][k]);
        if (k / 4 == 2) values[v * n + k] = 0x7FC00000u + v * 97 + k;  // flat: raw bits (a NaN payload)
      }
  }

  // The spec's interpolation at (x, y) in double: screen-space barycentrics, perspective-corrected
  // for Smooth.
  double interpolate(double x, double y, uint32_t component, bool perspective) const {
    const double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
    double b[3];
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      b[i] = ((X[k] - X[j]) * (y - Y[j]) - (Y[k] - Y[j]) * (x - X[j])) / area;
    }
    double w[3], sum = 0;
    for (int i = 0; i < 3; ++i) {
      w[i] = perspective ? b[i] * t.inv_w[i] : b[i];
      sum += w[i];
    }
    double v = 0;
    for (int i = 0; i < 3; ++i) v += w[i] / sum * value[i][component];
    return v;
  }
  double depth(double x, double y) const {
    const double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
    double v = 0;
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      v += ((X[k] - X[j]) * (y - Y[j]) - (Y[k] - Y[j]) * (x - X[j])) / area * t.z[i];
    }
    return v;
  }
};

struct Output {
  std::vector<float> inputs, frag_coord, frag_depth, point_coord;
  explicit Output(uint32_t W)
      : inputs(size_t(abi::kFragmentInputSlots) * 4 * W, -7.0f), frag_coord(4 * W), frag_depth(W), point_coord(2 * W) {}
  // Whether the first `lanes` lanes of every row (W lanes each) hold the same bits. Lanes past
  // the batch are not compared: they are masked off, and where they extrapolate to a NaN the
  // propagated payload may depend on the instruction's operand order.
  bool same_bits(const Output& o, uint32_t W, uint32_t lanes) const {
    auto rows_equal = [&](const std::vector<float>& a, const std::vector<float>& b) {
      for (size_t row = 0; row < a.size() / W; ++row)
        if (memcmp(&a[row * W], &b[row * W], lanes * 4) != 0) return false;
      return true;
    };
    return rows_equal(inputs, o.inputs) && rows_equal(frag_coord, o.frag_coord) &&
           rows_equal(frag_depth, o.frag_depth) && rows_equal(point_coord, o.point_coord);
  }
};

// A batch of `quads` quads in an 8x8 block pattern at (ox + 8, oy + 16), with `coverage` per lane.
QuadBatch make_batch(uint32_t quads, int32_t ox, int32_t oy, uint32_t full) {
  QuadBatch b;
  b.quads = quads;
  for (uint32_t q = 0; q < quads; ++q) {
    b.quad_x[q] = ox + 8 + int32_t(q % 4) * 2;
    b.quad_y[q] = oy + 16 + int32_t(q / 4) * 2;
    for (uint32_t i = 0; i < 4; ++i) b.coverage[q * 4 + i] = full;
  }
  return b;
}

// Checks every lane of the batch against the reference; `sample` < 0 is the pixel centre.
void check_against_reference(const Scene& s, const QuadBatch& batch, uint32_t W, int32_t sample, const Output& out,
                             bool centroid_moves) {
  for (uint32_t l = 0; l < batch.lanes(); ++l) {
    const double x = batch.x(l) + (sample < 0 ? 0.5 : s.ctx.sample_x[sample] / 256.0);
    const double y = batch.y(l) + (sample < 0 ? 0.5 : s.ctx.sample_y[sample] / 256.0);
    for (uint32_t v = 0; v < 4; ++v)
      for (uint32_t c = 0; c < 4; ++c) {
        const uint32_t k = v * 4 + c;
        const float got = out.inputs[(kLocations[v] * 4 + c) * W + l];
        if (kModes[v] == abi::Interpolation::Flat) {
          EXPECT_EQ(std::bit_cast<uint32_t>(got), s.values[k]) << "flat, lane " << l;
          continue;
        }
        double px = x, py = y;
        if (kLocations[v] == 5 && centroid_moves && sample < 0) {
          const uint32_t full = (1u << s.ctx.samples) - 1, cov = batch.coverage[l] & full;
          if (cov && cov != full) {
            const int first = __builtin_ctz(cov);
            px = batch.x(l) + s.ctx.sample_x[first] / 256.0;
            py = batch.y(l) + s.ctx.sample_y[first] / 256.0;
          }
        }
        const double want = s.interpolate(px, py, k, kModes[v] == abi::Interpolation::Smooth);
        if (k == 3) {
          EXPECT_EQ(got, 0.3f) << "a value equal at every vertex is exact, lane " << l;
        } else {
          EXPECT_NEAR(got, want, 2e-5 * (1.0 + std::fabs(want))) << "location " << kLocations[v] << "." << c << " lane " << l;
        }
      }
    if (s.kernels.fragment_interface.reads_frag_coord) {
      EXPECT_EQ(out.frag_coord[0 * W + l], float(x)) << l;
      EXPECT_EQ(out.frag_coord[1 * W + l], float(y)) << l;
      EXPECT_NEAR(out.frag_coord[2 * W + l], s.depth(x, y), 1e-6) << l;
      EXPECT_EQ(out.frag_depth[l], out.frag_coord[2 * W + l]) << l;
      // 1/w interpolates linearly in screen space.
      double b_sum = 0;
      for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        const double area = (s.X[1] - s.X[0]) * (s.Y[2] - s.Y[0]) - (s.Y[1] - s.Y[0]) * (s.X[2] - s.X[0]);
        b_sum += ((s.X[k] - s.X[j]) * (y - s.Y[j]) - (s.Y[k] - s.Y[j]) * (x - s.X[j])) / area * s.t.inv_w[i];
      }
      EXPECT_NEAR(out.frag_coord[3 * W + l], b_sum, 1e-5) << l;
    }
  }
}

// Fills with every vector width the CPU runs for W and checks they agree bit for bit; returns the
// first (4 lanes per vector, which every x86-64 CPU runs).
Output fill_all_widths(const TriangleInterpolator& ti, const QuadBatch& batch, uint32_t W, int32_t sample) {
  Output reference(W);
  EXPECT_TRUE(ti.fill_with(4, batch, W, sample, reference.inputs.data(), reference.frag_coord.data(),
                           reference.frag_depth.data(), reference.point_coord.data()));
  for (uint32_t lanes : {8u, 16u}) {
    Output out(W);
    if (!ti.fill_with(lanes, batch, W, sample, out.inputs.data(), out.frag_coord.data(), out.frag_depth.data(),
                      out.point_coord.data()))
      continue;
    EXPECT_TRUE(out.same_bits(reference, W, batch.lanes())) << lanes << " lanes per vector differ from 4, W = " << W;
  }
  Output best(W);
  ti.fill(batch, W, sample, best.inputs.data(), best.frag_coord.data(), best.frag_depth.data(), best.point_coord.data());
  EXPECT_TRUE(best.same_bits(reference, W, batch.lanes()));
  return reference;
}

TEST(FragmentInputs, MatchTheReferenceAtEveryWidthAndBatchSize) {
  for (bool affine : {false, true}) {
    const Scene s(affine, 1, true);
    const int32_t ox = 0, oy = 0;
    const TriangleInterpolator ti(s.ctx, s.t, s.values.data(), ox, oy);
    for (uint32_t W : {4u, 8u, 16u, 32u}) {  // 32: wider than any kernel today, as QuadBatch allows
      for (uint32_t quads = 1; quads <= W / 4; ++quads) {
        SCOPED_TRACE(testing::Message() << "affine " << affine << " W " << W << " quads " << quads);
        const QuadBatch batch = make_batch(quads, ox, oy, 1);
        const Output out = fill_all_widths(ti, batch, W, -1);
        check_against_reference(s, batch, W, -1, out, false);
      }
    }
  }
}

// A batch of merged triangles is filled triangle by triangle, each for its own quads: a range of
// quads gets the same bits as a whole fill in its lanes, at every vector width, and the lanes
// outside it keep what they held (even inside a vector group the range covers partly).
TEST(FragmentInputs, QuadRangesFillOnlyTheirLanesWithTheWholeFillsBits) {
  const Scene s(false, 1, true);
  const TriangleInterpolator ti(s.ctx, s.t, s.values.data(), 0, 0);
  constexpr uint32_t W = 16;
  const QuadBatch batch = make_batch(4, 0, 0, 1);
  const Output whole = fill_all_widths(ti, batch, W, -1);
  for (uint32_t first = 0; first < 4; ++first)
    for (uint32_t end = first + 1; end <= 4; ++end)
      for (uint32_t lanes : {4u, 8u, 16u}) {
        Output part(W);
        if (!ti.fill_with(lanes, batch, W, -1, part.inputs.data(), part.frag_coord.data(), part.frag_depth.data(),
                          part.point_coord.data(), first, end))
          continue;
        for (uint32_t row = 0; row < part.inputs.size() / W; ++row)
          for (uint32_t l = 0; l < W; ++l) {
            const bool inside = l >= 4 * first && l < 4 * end;
            const float want = inside ? whole.inputs[row * W + l] : -7.0f;  // Output's initial value
            ASSERT_EQ(std::bit_cast<uint32_t>(part.inputs[row * W + l]), std::bit_cast<uint32_t>(want))
                << "quads [" << first << ", " << end << ") row " << row << " lane " << l << " vectors of " << lanes;
          }
        for (uint32_t l = 4 * first; l < 4 * end; ++l)
          ASSERT_EQ(part.frag_coord[2 * W + l], whole.frag_coord[2 * W + l]) << l;
      }
  // The depths of a range are the whole batch's.
  float all[QuadBatch::kMaxLanes * kMaxSamples], part[QuadBatch::kMaxLanes * kMaxSamples] = {};
  ti.sample_depths(batch, all);
  ti.sample_depths(batch, part, 1, 3);
  for (uint32_t l = 0; l < 16; ++l)
    EXPECT_EQ(part[l * kMaxSamples], l >= 4 && l < 12 ? all[l * kMaxSamples] : 0.0f) << l;
}

TEST(FragmentInputs, SampleRateAndCentroidPositions) {
  const Scene s(false, 4, true);
  const int32_t ox = 0, oy = 0;
  const TriangleInterpolator ti(s.ctx, s.t, s.values.data(), ox, oy);
  constexpr uint32_t W = 16;
  QuadBatch batch = make_batch(4, ox, oy, 0xF);
  // Partly covered pixels (centroid inputs move to their first covered sample), a helper lane.
  batch.coverage[1] = 0x6;
  batch.coverage[6] = 0x8;
  batch.coverage[9] = 0x0;
  batch.coverage[15] = 0x3;
  SCOPED_TRACE("pixel rate");
  check_against_reference(s, batch, W, -1, fill_all_widths(ti, batch, W, -1), true);
  for (int32_t sample = 0; sample < 4; ++sample) {
    SCOPED_TRACE(testing::Message() << "sample " << sample);
    check_against_reference(s, batch, W, sample, fill_all_widths(ti, batch, W, sample), false);
  }
}

TEST(FragmentInputs, OriginAwayFromZeroAndFlatOnlyPrimitives) {
  // Tiles far from the framebuffer corner: positions relative to the origin stay exact.
  Scene s(false, 1, true);
  for (int i = 0; i < 3; ++i) {
    s.t.x[i] += int64_t{4096} * kSubpixelOne;
    s.t.y[i] += int64_t{2048} * kSubpixelOne;
    s.X[i] += 4096;
    s.Y[i] += 2048;
  }
  const TriangleInterpolator ti(s.ctx, s.t, s.values.data(), 4096, 2048);
  const QuadBatch batch = make_batch(3, 4096, 2048, 1);
  check_against_reference(s, batch, 16, -1, fill_all_widths(ti, batch, 16, -1), false);

  // Points carry only vertex 0's values (flat_only): every lane gets its bits.
  s.t.flat_only = true;
  const TriangleInterpolator flat(s.ctx, s.t, s.values.data(), 4096, 2048);
  const Output out = fill_all_widths(flat, batch, 16, -1);
  for (uint32_t v = 0; v < 4; ++v)
    for (uint32_t c = 0; c < 4; ++c)
      for (uint32_t l = 0; l < 16; ++l)
        EXPECT_EQ(std::bit_cast<uint32_t>(out.inputs[(kLocations[v] * 4 + c) * 16 + l]), s.values[v * 4 + c]) << v << "." << c << " " << l;
}

// Depth at each sample of each lane (the depth tests' input): the plane at the sample, the same
// bits as FragCoord.z / FragDepth at that sample, close to the double reference.
TEST(FragmentInputs, SampleDepthsAreTheDepthPlaneAtEachSample) {
  for (uint32_t samples : {1u, 4u}) {
    const Scene s(false, samples, true);
    const TriangleInterpolator ti(s.ctx, s.t, s.values.data(), 0, 0);
    const QuadBatch batch = make_batch(3, 0, 0, (1u << samples) - 1);
    std::vector<float> depth(QuadBatch::kMaxLanes * kMaxSamples, -1.0f);
    ti.sample_depths(batch, depth.data());
    for (uint32_t sample = 0; sample < samples; ++sample) {
      Output out(16);
      ti.fill(batch, 16, samples == 1 ? -1 : int32_t(sample), out.inputs.data(), out.frag_coord.data(),
              out.frag_depth.data(), out.point_coord.data());
      for (uint32_t l = 0; l < batch.lanes(); ++l) {
        const double x = batch.x(l) + (samples == 1 ? 0.5 : s.ctx.sample_x[sample] / 256.0);
        const double y = batch.y(l) + (samples == 1 ? 0.5 : s.ctx.sample_y[sample] / 256.0);
        const float got = depth[l * kMaxSamples + sample];
        EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(out.frag_depth[l])) << "samples " << samples << " sample " << sample << " lane " << l;
        EXPECT_NEAR(got, s.depth(x, y), 1e-6) << "samples " << samples << " sample " << sample << " lane " << l;
      }
    }
  }
}

TEST(FragmentInputs, PointCoordRunsFromTheSpritesCorner) {
  Scene s(true, 1, false);
  s.t.kind = PrimitiveKind::Point;
  s.t.flat_only = true;
  s.t.point_origin[0] = 10.0f;
  s.t.point_origin[1] = 16.0f;
  s.t.point_size = 8.0f;
  const TriangleInterpolator ti(s.ctx, s.t, s.values.data(), 0, 0);
  const QuadBatch batch = make_batch(4, 0, 0, 1);
  Output out(16);
  ti.fill(batch, 16, -1, out.inputs.data(), out.frag_coord.data(), out.frag_depth.data(), out.point_coord.data());
  for (uint32_t l = 0; l < 16; ++l) {
    EXPECT_EQ(out.point_coord[l], (float(batch.x(l)) + 0.5f - 10.0f) / 8.0f) << l;
    EXPECT_EQ(out.point_coord[16 + l], (float(batch.y(l)) + 0.5f - 16.0f) / 8.0f) << l;
  }
}

}  // namespace
}  // namespace kiln::exec::gfx
