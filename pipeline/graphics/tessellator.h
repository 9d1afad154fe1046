#pragma once
// The fixed-function tessellator (Vulkan "Tessellation": primitive generation): a patch's
// tessellation levels -> domain points (TessCoord) and the points, lines or triangles over them.
// Triangle, quad and isoline domains; equal, fractional-even and fractional-odd spacing; point
// mode; either winding and either domain origin. docs/design/tessellation.md has the rules.
//
// Watertight by construction: coordinates are computed in fixed point with 23 fraction bits, so
// every one is exact in float, and a point on an outer edge is computed from whichever end of the
// edge is nearer, so the point k segments from one end is bit-for-bit 1 - (the point k segments
// from the other). Two patches that share an edge with equal outer levels therefore hand their
// evaluation shaders the same parameters (mirrored exactly), and a TES that interpolates the edge's
// control points symmetrically (mix(a, b, t) vs mix(b, a, 1 - t)) produces identical positions.
#include <cstdint>
#include <vector>

namespace kiln::exec::gfx {

enum class TessDomain : uint8_t { Triangles, Quads, Isolines };
enum class TessSpacing : uint8_t { Equal, FractionalEven, FractionalOdd };

// The maximum tessellation level (maxTessellationGenerationLevel).
constexpr float kMaxTessellationLevel = 64.0f;

// The pipeline's tessellation state (execution modes of the TCS/TES, VkPipelineTessellation*).
struct TessellatorState {
  TessDomain domain = TessDomain::Triangles;
  TessSpacing spacing = TessSpacing::Equal;
  bool point_mode = false;
  bool counter_clockwise = true;  // VertexOrderCcw (else VertexOrderCw)
  bool origin_lower_left = false;  // VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT (VK_KHR_maintenance2)

  bool operator==(const TessellatorState&) const = default;
};

// TessLevelOuter / TessLevelInner as the tessellation control shader wrote them.
struct TessLevels {
  float outer[4] = {};
  float inner[2] = {};
};

// One patch's tessellation: domain points as three arrays (the evaluation shader reads them as
// lanes; w is 0 outside the triangle domain) and the primitives over them, `vertices_per_primitive`
// indices each (1 point, 2 line, 3 triangle), in the order they are emitted.
struct Tessellation {
  std::vector<float> u, v, w;
  std::vector<uint32_t> indices;
  uint32_t vertices_per_primitive = 3;

  uint32_t point_count() const { return uint32_t(u.size()); }
  uint32_t primitive_count() const { return uint32_t(indices.size() / vertices_per_primitive); }
};

// Whether the patch is discarded: a relevant outer level (3 for triangles, 4 for quads, 2 for
// isolines) is <= 0 or NaN.
bool tessellation_discards(TessDomain domain, const TessLevels& levels);

// What tessellating a patch with `levels` makes, counted as domain points plus primitives, for
// cutting a draw's patches into batches of similar work before they are tessellated: at least
// what tessellate() makes and at most about twice that (tessellator_test checks both); 0 for a
// discarded patch.
uint32_t tessellation_work_bound(const TessellatorState& state, const TessLevels& levels);

// Tessellates one patch into `out` (replacing its contents). Returns false, with `out` empty, for a
// discarded patch.
bool tessellate(const TessellatorState& state, const TessLevels& levels, Tessellation& out);

}  // namespace kiln::exec::gfx
