#pragma once
// Helpers for the draw engine's unit tests (tests/unit/draw_*_test.cpp): fake vertex and
// fragment kernels with the exact abi signatures (the JIT's kernels are not needed to test the
// fixed-function pipeline), render targets as mem::Image/ImageView, and a DrawCmd builder.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "memory/format_pack.h"
#include "memory/image_view.h"
#include "pipeline/command_list.h"
#include "pipeline/draw.h"
#include "pipeline/thread_pool.h"

namespace kiln::exec::test {

// What the fake vertex kernel reads from vertex buffer 0 at element VertexIndex.
struct Vertex {
  float pos[4];
  float color[4];
  float point_size = 1.0f;
  int32_t layer = 0;
};

inline uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
inline float flt(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

// Vertex kernel: slot 0 = position, slot 1 = colour (Location 0), slot 2 = point size,
// slot 3 = (clip x, clip y, 0, 0) for tests that use them as clip/cull distances, slot 4 = layer.
// Instance i shifts x by i * instance_shift (clip space) so instancing is visible.
inline float instance_shift = 0.0f;
template <uint32_t W>
void fake_vertex_kernel(const abi::VertexInvocation* inv) {
  const abi::VertexBufferRecord& vb = inv->vertex_buffers[0];
  for (uint32_t lane = 0; lane < inv->lane_count; ++lane) {
    const int64_t id = inv->vertex_index[lane];
    Vertex v{};
    if (id >= 0 && uint64_t(id + 1) * sizeof(Vertex) <= vb.size) memcpy(&v, vb.address + id * sizeof(Vertex), sizeof v);
    v.pos[0] += instance_shift * float(inv->instance_index) * v.pos[3];
    for (uint32_t c = 0; c < 4; ++c) {
      inv->outputs[(0 * 4 + c) * W + lane] = bits(v.pos[c]);
      inv->outputs[(1 * 4 + c) * W + lane] = bits(v.color[c]);
    }
    inv->outputs[(2 * 4) * W + lane] = bits(v.point_size);
    inv->outputs[(3 * 4 + 0) * W + lane] = bits(v.pos[0]);
    inv->outputs[(3 * 4 + 1) * W + lane] = bits(v.pos[1]);
    inv->outputs[(4 * 4) * W + lane] = uint32_t(v.layer);
  }
}

// Fragment kernel: output 0 = input Location 0.
template <uint32_t W>
uint32_t fake_color_kernel(const abi::FragmentInvocation* inv) {
  for (uint32_t lane = 0; lane < W; ++lane)
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[c * W + lane] = inv->inputs[c * W + lane];
  return inv->covered_mask;
}
// Fragment kernel: red when front-facing, green otherwise.
template <uint32_t W>
uint32_t fake_facing_kernel(const abi::FragmentInvocation* inv) {
  for (uint32_t lane = 0; lane < W; ++lane) {
    const float rgba[4] = {inv->front_facing ? 1.0f : 0.0f, inv->front_facing ? 0.0f : 1.0f, 0.0f, 1.0f};
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[c * W + lane] = bits(rgba[c]);
  }
  return inv->covered_mask;
}
// Fragment kernel: (PointCoord.s, PointCoord.t, FragCoord.z, 1).
template <uint32_t W>
uint32_t fake_point_coord_kernel(const abi::FragmentInvocation* inv) {
  for (uint32_t lane = 0; lane < W; ++lane) {
    const float rgba[4] = {inv->point_coord ? inv->point_coord[lane] : -1.0f,
                           inv->point_coord ? inv->point_coord[W + lane] : -1.0f, inv->frag_coord[2 * W + lane], 1.0f};
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[c * W + lane] = bits(rgba[c]);
  }
  return inv->covered_mask;
}
// Fragment kernel: (SampleId, 0, 0, 1).
template <uint32_t W>
uint32_t fake_sample_id_kernel(const abi::FragmentInvocation* inv) {
  for (uint32_t lane = 0; lane < W; ++lane) {
    const float rgba[4] = {float(inv->sample_id), 0, 0, 1};
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[c * W + lane] = bits(rgba[c]);
  }
  return inv->covered_mask;
}
// Fragment kernel: discards fragments whose input red is > 0.5, else writes the input.
template <uint32_t W>
uint32_t fake_discard_kernel(const abi::FragmentInvocation* inv) {
  uint32_t alive = inv->covered_mask;
  for (uint32_t lane = 0; lane < W; ++lane) {
    for (uint32_t c = 0; c < 4; ++c) inv->outputs[c * W + lane] = inv->inputs[c * W + lane];
    if (flt(inv->inputs[lane]) > 0.5f) alive &= ~(1u << lane);
  }
  return alive;
}

// An image and a view of it (one mip level, one layer unless asked).
struct TestTarget {
  mem::Image image;
  std::vector<uint8_t> storage;
  mem::ImageView view;
  TestTarget(VkFormat format, uint32_t width, uint32_t height, VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT,
             VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT, uint32_t layers = 1) {
    image.desc.format = format;
    image.desc.extent = {width, height, 1};
    image.desc.array_layers = layers;
    image.desc.samples = samples;
    EXPECT_TRUE(image.layout.init(image.desc));
    storage.assign(image.layout.total_size(), 0);
    image.data = storage.data();
    view.image = &image;
    view.format = format;
    view.type = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    view.range = {aspects, 0, 1, 0, layers};
  }
  uint8_t* texel(VkImageAspectFlagBits aspect, uint32_t x, uint32_t y, uint32_t sample = 0, uint32_t layer = 0) {
    const mem::SubresourceAddress a = image.layout.address(aspect, 0, layer);
    const uint32_t sample_bytes = a.texel_bytes / uint32_t(image.desc.samples);
    return image.data + a.offset + y * a.row_pitch + x * a.texel_bytes + sample * sample_bytes;
  }
  VkClearColorValue color(uint32_t x, uint32_t y, uint32_t sample = 0, uint32_t layer = 0) {
    VkClearColorValue v{};
    fmt::unpack_color(image.desc.format, texel(VK_IMAGE_ASPECT_COLOR_BIT, x, y, sample, layer), &v);
    return v;
  }
  void fill(const VkClearColorValue& v) {
    for (uint32_t y = 0; y < image.desc.extent.height; ++y)
      for (uint32_t x = 0; x < image.desc.extent.width; ++x)
        for (uint32_t s = 0; s < uint32_t(image.desc.samples); ++s)
          fmt::pack_color(image.desc.format, v, texel(VK_IMAGE_ASPECT_COLOR_BIT, x, y, s));
  }
  float depth(uint32_t x, uint32_t y, uint32_t sample = 0) {
    float d = -1;
    fmt::unpack_depth(image.desc.format, texel(VK_IMAGE_ASPECT_DEPTH_BIT, x, y, sample), &d);
    return d;
  }
  void fill_depth(float d) {
    for (uint32_t y = 0; y < image.desc.extent.height; ++y)
      for (uint32_t x = 0; x < image.desc.extent.width; ++x)
        for (uint32_t s = 0; s < uint32_t(image.desc.samples); ++s)
          fmt::pack_depth(image.desc.format, d, texel(VK_IMAGE_ASPECT_DEPTH_BIT, x, y, s));
  }
  uint32_t stencil(uint32_t x, uint32_t y) { return *texel(VK_IMAGE_ASPECT_STENCIL_BIT, x, y); }
};

// One draw's state, kernels and inputs, with defaults for a W=8 pass-through pipeline drawing
// triangle lists into one colour target with no blending.
struct DrawSetup {
  GraphicsKernels kernels;
  GraphicsState state;
  RenderTargets targets;
  abi::ResourceContext resources{};
  abi::VertexBufferRecord vertex_buffers[abi::kMaxVertexBindings] = {};
  std::vector<Vertex> vertices;
  std::vector<uint8_t> index_bytes;
  DrawCmd cmd{};

  explicit DrawSetup(const mem::ImageView* color = nullptr, uint32_t width = 16, uint32_t height = 16) {
    kernels.vertex = &fake_vertex_kernel<8>;
    kernels.vertex_width = 8;
    kernels.vertex_outputs.slot_count = 5;
    kernels.vertex_outputs.location_slot[0] = 1;
    kernels.fragment = &fake_color_kernel<8>;
    kernels.fragment_width = 8;
    kernels.fragment_interface.input_location_mask = 1;
    kernels.fragment_interface.input_components[0] = 0xF;
    kernels.fragment_interface.output_location_mask = 1;
    kernels.fragment_interface.reads_frag_coord = true;  // some fake kernels read FragCoord.z
    state.kernels = &kernels;
    state.viewport.viewport_count = state.viewport.scissor_count = 1;
    state.viewport.viewports[0] = {0, 0, float(width), float(height), 0, 1};
    state.viewport.scissors[0] = {{0, 0}, {width, height}};
    state.color_blend.attachment_count = 1;
    state.color_blend.attachments[0].colorWriteMask = 0xF;
    if (color) {
      targets.color[0] = color;
      targets.color_count = 1;
    }
    targets.render_area = {{0, 0}, {width, height}};
  }
  void blend(VkBlendFactor src, VkBlendFactor dst, VkBlendOp op = VK_BLEND_OP_ADD) {
    VkPipelineColorBlendAttachmentState& a = state.color_blend.attachments[0];
    a.blendEnable = VK_TRUE;
    a.srcColorBlendFactor = a.srcAlphaBlendFactor = src;
    a.dstColorBlendFactor = a.dstAlphaBlendFactor = dst;
    a.colorBlendOp = a.alphaBlendOp = op;
  }
  // Adds a vertex at framebuffer position (x, y) of a width x height viewport at (0, 0).
  void add(float x, float y, const float color[4], float z = 0.5f, float w = 1.0f, float width = 16, float height = 16) {
    Vertex v{};
    v.pos[0] = (x / width * 2 - 1) * w;
    v.pos[1] = (y / height * 2 - 1) * w;
    v.pos[2] = z * w;
    v.pos[3] = w;
    memcpy(v.color, color, sizeof v.color);
    vertices.push_back(v);
  }
  template <typename Index>
  void set_indices(const std::vector<Index>& indices, VkIndexType type) {
    index_bytes.resize(indices.size() * sizeof(Index));
    memcpy(index_bytes.data(), indices.data(), index_bytes.size());
    cmd.index_type = type;
  }
  void prepare(uint32_t count, bool indexed = false) {
    vertex_buffers[0].address = reinterpret_cast<const uint8_t*>(vertices.data());
    vertex_buffers[0].size = vertices.size() * sizeof(Vertex);
    vertex_buffers[0].stride = sizeof(Vertex);
    cmd.type = CommandType::Draw;
    cmd.state = &state;
    cmd.targets = &targets;
    cmd.resources = &resources;
    cmd.vertex_buffers = vertex_buffers;
    cmd.indexed = indexed;
    if (indexed) {
      cmd.index_data = index_bytes.data();
      cmd.index_bytes = index_bytes.size();
    }
    cmd.count = count;
    if (cmd.instance_count == 0) cmd.instance_count = 1;
  }
  void draw(uint32_t count, unsigned threads = 1, bool indexed = false) {
    prepare(count, indexed);
    ThreadPool pool(threads);
    run_draw(pool, cmd);
  }
};

constexpr float kWhite[4] = {1, 1, 1, 1};
constexpr float kOne[4] = {1, 1, 1, 1};

}  // namespace kiln::exec::test
