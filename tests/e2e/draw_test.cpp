// End-to-end draws through the loader with the validation layer: triangles rendered into a colour
// (and depth) attachment of a classic render pass and read back, each pixel compared with a CPU
// reference computed from the spec's rules (pixel centres, top-left fill rule, barycentric
// interpolation, depth test).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "e2e/compute_job.h"
#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {


class DrawTest : public VulkanTest {};

// Two triangles covering the whole target, split along the diagonal that passes through pixel
// centres, and a fan of eight triangles around the target's centre (a pixel corner; its spokes
// run through pixel centres too): with additive blending every pixel must be covered exactly
// once — the top-left rule decides each shared edge.
TEST_F(DrawTest, SharedEdgesCoverEveryPixelExactlyOnce) {
  DrawJobOptions o = colored_options();
  o.blend = kAdditiveBlend;
  DrawJob job(device(), o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const float c = 20.0f / 255.0f;
  auto v = [&](float x, float y) { return ColoredVertex{x, y, 0.5f, c, c, c, c}; };
  std::vector<ColoredVertex> vertices = rect(-1, -1, 1, 1, 0.5f, {c, c, c, c});
  const float spokes[9][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}};
  for (int i = 0; i < 8; ++i) {
    vertices.push_back(v(0, 0));
    vertices.push_back(v(spokes[i][0], spokes[i][1]));
    vertices.push_back(v(spokes[i + 1][0], spokes[i + 1][1]));
  }
  Buffer vb = vertex_buffer(device(), vertices);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, static_cast<uint32_t>(vertices.size()), 1, 0, 0);
  });
  const std::vector<uint8_t> pixels = job.read_color();
  PixelCheck failures(64, 64);
  for (size_t i = 0; i < 64 * 64; ++i)
    for (int k = 0; k < 4; ++k) failures.expect_eq(i, pixels[i * 4 + k], uint8_t{40}, "covered twice (40 = once per draw)");
}

// A triangle with a colour per vertex: each pixel whose centre lies inside gets the barycentric
// blend of the vertex colours at its centre (w = 1, so perspective correction changes nothing);
// pixels outside keep the clear colour. Pixels within a hair of an edge are not checked.
TEST_F(DrawTest, SmoothColorsFollowBarycentricInterpolation) {
  DrawJob job(device(), colored_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const std::vector<ColoredVertex> vertices = {{-0.9f, -0.8f, 0.5f, 1, 0, 0, 1},
                                               {0.85f, -0.3f, 0.5f, 0, 1, 0, 1},
                                               {-0.2f, 0.95f, 0.5f, 0, 0, 1, 0.5f}};
  Buffer vb = vertex_buffer(device(), vertices);
  draw_vertices(job, vb, 3);
  const std::vector<uint8_t> pixels = job.read_color();
  // Framebuffer coordinates of the vertices (viewport = the 64x64 target).
  float px[3], py[3];
  for (int k = 0; k < 3; ++k) {
    px[k] = (vertices[k].x + 1) * 32;
    py[k] = (vertices[k].y + 1) * 32;
  }
  const float area = (px[1] - px[0]) * (py[2] - py[0]) - (px[2] - px[0]) * (py[1] - py[0]);
  uint32_t inside_pixels = 0;
  PixelCheck failures(64, 64);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const float cx = x + 0.5f, cy = y + 0.5f;
      float b[3];
      for (int k = 0; k < 3; ++k) {
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        b[k] = ((px[k2] - px[k1]) * (cy - py[k1]) - (cx - px[k1]) * (py[k2] - py[k1])) / area;
      }
      const float margin = std::min({b[0], b[1], b[2]});
      if (std::fabs(margin) < 1e-3f) continue;
      const uint8_t* got = &pixels[(y * 64 + x) * 4];
      const size_t i = y * 64 + x;
      if (margin < 0) {
        for (int c = 0; c < 4; ++c) failures.expect_eq(i, got[c], uint8_t{0}, "outside: clear colour");
        continue;
      }
      ++inside_pixels;
      const float* colors[3] = {&vertices[0].r, &vertices[1].r, &vertices[2].r};
      for (int c = 0; c < 4; ++c) {
        const float value = b[0] * colors[0][c] + b[1] * colors[1][c] + b[2] * colors[2][c];
        const int expected = static_cast<int>(std::lround(value * 255));
        failures.expect_near(i, got[c], expected, 1, "interpolated colour channel " + std::to_string(c));
      }
    }
  EXPECT_GT(inside_pixels, 1000u);
}

// Depth test LESS with depth writes: a near green quad on the left half, then a far red quad over
// everything. Green stays where it is nearer; depth holds 0.25 there and 0.75 elsewhere. Also with
// a depth-only view of a depth/stencil image as the attachment: a framebuffer attachment ignores
// the view's aspectMask, so the stencil aspect is cleared and written too (CTS
// renderpass*.subpass_dependencies.late_fragment_tests use such views).
TEST_F(DrawTest, DepthTestKeepsTheNearestSurface) {
  DeviceFeatures separate_layouts;  // to move the stencil aspect on its own
  separate_layouts.v12.separateDepthStencilLayouts = VK_TRUE;
  TestDevice& stencil_device = *create_device(separate_layouts);
  for (const VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
    SCOPED_TRACE(format == VK_FORMAT_D32_SFLOAT ? "D32_SFLOAT" : "D32_SFLOAT_S8_UINT, depth-only view");
    const bool stencil = format == VK_FORMAT_D32_SFLOAT_S8_UINT;
    TestDevice& dev = stencil ? stencil_device : device();
    DrawJobOptions o = colored_options();
    o.depth_format = format;
    o.depth_view_aspects = VK_IMAGE_ASPECT_DEPTH_BIT;
    o.depth_stencil.depthTestEnable = VK_TRUE;
    o.depth_stencil.depthWriteEnable = VK_TRUE;
    o.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
    // Stencil 7 where the near quad passes; the far quad fails the depth test there (KEEP) and
    // writes 9 elsewhere (reference set per draw).
    o.depth_stencil.stencilTestEnable = stencil;
    o.depth_stencil.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 7};
    o.depth_stencil.back = o.depth_stencil.front;
    o.dynamic_states = {VK_DYNAMIC_STATE_STENCIL_REFERENCE};
    DrawJob job(dev, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    std::vector<ColoredVertex> vertices = rect(-1, -1, 0, 1, 0.25f, {0, 1, 0, 1});
    const std::vector<ColoredVertex> far = rect(-1, -1, 1, 1, 0.75f, {1, 0, 0, 1});
    vertices.insert(vertices.end(), far.begin(), far.end());
    Buffer vb = vertex_buffer(dev, vertices);
    // The validation layer tracks the layout of the view's aspects only: the stencil aspect goes to
    // the pass's final layout by hand (as the CTS does), so reading it back is valid.
    if (stencil)
      dev.run_commands([&](VkCommandBuffer cb) {
        transition(cb, job.depth_image().image, VK_IMAGE_ASPECT_STENCIL_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      });
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 7);
      vkCmdDraw(cb, 6, 1, 0, 0);
      vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 9);
      vkCmdDraw(cb, 6, 1, 6, 0);
    });
    const std::vector<uint8_t> pixels = job.read_color();
    const std::vector<uint8_t> depth = job.read_depth();
    ASSERT_EQ(depth.size(), size_t{64} * 64 * 4);
    const std::vector<uint8_t> stencil_values = stencil ? job.read_stencil() : std::vector<uint8_t>(64 * 64);
    ASSERT_EQ(stencil_values.size(), size_t{64} * 64);
    PixelCheck failures(64, 64);
    for (size_t i = 0; i < 64 * 64; ++i) {
      const bool near = i % 64 < 32;
      failures.expect_eq(i, pixels[i * 4 + 0], uint8_t(near ? 0 : 255), "red");
      failures.expect_eq(i, pixels[i * 4 + 1], uint8_t(near ? 255 : 0), "green");
      float d;
      std::memcpy(&d, &depth[i * 4], 4);
      failures.expect_eq(i, d, near ? 0.25f : 0.75f, "depth");
      if (stencil) failures.expect_eq(i, stencil_values[i], uint8_t(near ? 7 : 9), "stencil");
    }
  }
}

// Indexed, instanced quads: the corner comes from a per-vertex attribute, the offset from a
// per-instance one, the colour from a uniform buffer indexed by gl_InstanceIndex (flat), the
// size from a push constant. Back-facing triangles are culled: the index list draws every quad
// twice, once in each winding.
TEST_F(DrawTest, IndexedInstancedQuadsWithUniformsPushConstantsAndCulling) {
  DrawJobOptions o;
  o.vertex_shader = "draw_instanced.vert";
  o.fragment_shader = "draw_flat.frag";
  o.vertex_bindings = {{0, 8, VK_VERTEX_INPUT_RATE_VERTEX}, {1, 8, VK_VERTEX_INPUT_RATE_INSTANCE}};
  o.vertex_attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}, {1, 1, VK_FORMAT_R32G32_SFLOAT, 0}};
  o.bindings = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
  o.push_constant_bytes = 4;
  o.cull_mode = VK_CULL_MODE_BACK_BIT;
  o.front_face = VK_FRONT_FACE_CLOCKWISE;  // in framebuffer space (y down) these are clockwise
  DrawJob job(device(), o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);

  const float corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const uint16_t indices[12] = {0, 1, 2, 0, 2, 3, /* reversed winding: culled */ 0, 2, 1, 0, 3, 2};
  const float offsets[4][2] = {{-0.75f, -0.75f}, {0.25f, -0.75f}, {-0.75f, 0.25f}, {0.25f, 0.25f}};
  float colors[8][4] = {};
  for (int i = 0; i < 4; ++i) {
    colors[i][0] = (i & 1) ? 1.0f : 0.0f;
    colors[i][1] = (i & 2) ? 1.0f : 0.0f;
    colors[i][2] = 0.5f;
    colors[i][3] = 1.0f;
  }
  Buffer corner_buffer = device().create_buffer(sizeof corners, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  Buffer offset_buffer = device().create_buffer(sizeof offsets, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  Buffer index_buffer = device().create_buffer(sizeof indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  Buffer uniforms = device().create_buffer(sizeof colors, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  std::memcpy(corner_buffer.mapped, corners, sizeof corners);
  std::memcpy(offset_buffer.mapped, offsets, sizeof offsets);
  std::memcpy(index_buffer.mapped, indices, sizeof indices);
  std::memcpy(uniforms.mapped, colors, sizeof colors);
  job.bind_buffer(0, uniforms);
  const float scale = 0.5f;
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    const VkBuffer buffers[2] = {corner_buffer.buffer, offset_buffer.buffer};
    const VkDeviceSize offsets_in[2] = {0, 0};
    vkCmdBindVertexBuffers(cb, 0, 2, buffers, offsets_in);
    vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT16);
    vkCmdPushConstants(cb, job.layout(), VK_SHADER_STAGE_ALL_GRAPHICS, 0, 4, &scale);
    vkCmdDrawIndexed(cb, 12, 4, 0, 0, 0);
  });
  const std::vector<uint8_t> pixels = job.read_color();
  // Quad i covers framebuffer pixels [x0, x0 + 16) x [y0, y0 + 16) with x0 = (offset + 1) * 32.
  PixelCheck failures(64, 64);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      uint8_t expected[4] = {0, 0, 0, 0};
      for (int q = 0; q < 4; ++q) {
        const uint32_t x0 = static_cast<uint32_t>((offsets[q][0] + 1) * 32), y0 = static_cast<uint32_t>((offsets[q][1] + 1) * 32);
        if (x >= x0 && x < x0 + 16 && y >= y0 && y < y0 + 16)
          for (int c = 0; c < 4; ++c) expected[c] = static_cast<uint8_t>(std::lround(colors[q][c] * 255));
      }
      for (int c = 0; c < 4; ++c) failures.expect_eq(y * 64 + x, pixels[(y * 64 + x) * 4 + c], expected[c], "channel " + std::to_string(c));
    }
}

// fullDrawIndexUint32: 32-bit index values above 2^24 reach the vertex stage whole, and
// VertexIndex = index + vertexOffset wraps in 32 bits. A full-target quad's six vertices are
// reached through indices near 2^32 (vertexOffset 16 wraps them to 0..2) and near 2^24 + 3
// (vertexOffset -2^24); indices cut to 24 bits, or clamped to a limit, would fetch nothing.
TEST_F(DrawTest, FullUint32IndicesWrapWithTheVertexOffset) {
  REQUIRE_ON_KILN(features().core.features.fullDrawIndexUint32 && properties().limits.maxDrawIndexedIndexValue == 0xFFFFFFFFu,
                  "fullDrawIndexUint32");
  DeviceFeatures enabled;
  enabled.core.features.fullDrawIndexUint32 = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  const std::vector<ColoredVertex> quad = rect(-1, -1, 1, 1, 0.5f, {0.2f, 0.4f, 0.6f, 1.0f});
  Buffer vb = vertex_buffer(device, quad);
  const uint32_t indices[6] = {0xFFFFFFF0u, 0xFFFFFFF1u, 0xFFFFFFF2u, 0x01000003u, 0x01000004u, 0x01000005u};
  Buffer ib = device.create_buffer(sizeof indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  std::memcpy(ib.mapped, indices, sizeof indices);
  DrawJob job(device, colored_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &offset);
    vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cb, 3, 1, 0, 16, 0);
    vkCmdDrawIndexed(cb, 3, 1, 3, -0x01000000, 0);
  });
  check_rgba8(job.read_color(), "colour", [](uint32_t, uint32_t) { return std::array<int, 4>{51, 102, 153, 255}; }, 1);
}

// Demote keeps a pixel's invocation running as a helper (its neighbours' derivatives stay right)
// but drops its output; terminateInvocation ends the invocation. Both leave the clear colour.
TEST_F(DrawTest, DemotedAndTerminatedInvocationsWriteNothing) {
  REQUIRE_ON_KILN(features().v13.shaderDemoteToHelperInvocation && features().v13.shaderTerminateInvocation,
                  "shaderDemoteToHelperInvocation and shaderTerminateInvocation");
  DeviceFeatures enabled;
  enabled.v13.shaderDemoteToHelperInvocation = VK_TRUE;
  enabled.v13.shaderTerminateInvocation = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  const float c[4] = {0.2f, 0.4f, 0.6f, 1.0f};
  const std::vector<ColoredVertex> quad = rect(-1, -1, 1, 1, 0.5f, {c[0], c[1], c[2], c[3]});
  Buffer vb = vertex_buffer(device, quad);
  for (const bool demote : {true, false}) {
    SCOPED_TRACE(demote ? "demote" : "terminateInvocation");
    DrawJobOptions o = colored_options();
    o.fragment_shader = demote ? "draw_demote.frag" : "draw_terminate.frag";
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    draw_vertices(job, vb, 6);
    check_rgba8(job.read_color(), "colour", [&](uint32_t x, uint32_t y) {
      if ((x + y) % 3 == (demote ? 0u : 1u)) return std::array<int, 4>{0, 0, 0, 0};  // dropped
      return demote ? std::array<int, 4>{255, 128, 64, 255} : std::array<int, 4>{51, 102, 153, 255};
    }, 1);
  }
}

// Subgroups in the fragment stage (subgroupSupportedStages has FRAGMENT): a triangle with partly
// covered quads, whose shader checks that ballots, counts, elections, broadcasts, shuffles and
// votes agree with each other. Every pixel is the clear colour or white (all checks held).
TEST_F(DrawTest, SubgroupOperationsInFragmentShaders) {
  REQUIRE_ON_KILN(has_subgroup_checks(physical_device(), VK_SHADER_STAGE_FRAGMENT_BIT),
                  "basic, ballot, arithmetic, vote and shuffle subgroup operations in fragment shaders");
  const std::vector<ColoredVertex> triangle = {{-0.9f, -0.95f, 0.5f, 1, 1, 1, 1}, {0.97f, -0.3f, 0.5f, 1, 1, 1, 1},
                                               {-0.2f, 0.93f, 0.5f, 1, 1, 1, 1}};
  Buffer vb = vertex_buffer(device(), triangle);
  DrawJobOptions o = colored_options();
  o.fragment_shader = "draw_subgroup.frag";
  DrawJob job(device(), o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  draw_vertices(job, vb, 3);
  const std::vector<uint8_t> pixels = job.read_color();
  uint32_t white = 0;
  PixelCheck check(64, 64);
  for (size_t i = 0; i < 64 * 64; ++i) {
    const uint8_t* px = &pixels[i * 4];
    const bool clear = px[0] == 0 && px[1] == 0 && px[2] == 0 && px[3] == 0;
    white += !clear;
    if (!clear)
      for (int c = 0; c < 4; ++c) check.expect_eq(i, int{px[c]}, 255, "subgroup check " + std::to_string(c));
  }
  EXPECT_GT(white, 1000u) << "the triangle covers about 1500 pixels";
}

// Subgroups in the vertex stage (subgroupSupportedStages has VERTEX): a full-target quad whose
// vertex shader checks that ballots, counts, elections, broadcasts, shuffles and votes agree; its
// checks are the colour, so every pixel must be white.
TEST_F(DrawTest, SubgroupOperationsInVertexShaders) {
  REQUIRE_ON_KILN(has_subgroup_checks(physical_device(), VK_SHADER_STAGE_VERTEX_BIT),
                  "basic, ballot, arithmetic, vote and shuffle subgroup operations in vertex shaders");
  const std::vector<ColoredVertex> quad = rect(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0});
  Buffer vb = vertex_buffer(device(), quad);
  DrawJobOptions o = colored_options();
  o.vertex_shader = "draw_subgroup.vert";
  DrawJob job(device(), o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  draw_vertices(job, vb, 6);
  check_rgba8(job.read_color(), "subgroup checks", [](uint32_t, uint32_t) { return std::array<int, 4>{255, 255, 255, 255}; });
}

// A discard inside a function that a for loop's increment calls (the loop's continue construct,
// where the SPIR-V inliner cannot inline a kill): the pipeline compiles, discarding pixels keep
// the clear colour and the others finish the loop (CTS graphicsfuzz.cov-wrap-op-kill-*).
TEST_F(DrawTest, DiscardInAFunctionCalledFromALoopContinueConstruct) {
  const std::vector<ColoredVertex> quad = rect(-1, -1, 1, 1, 0.5f, {0.2f, 0.4f, 0.6f, 1.0f});
  Buffer vb = vertex_buffer(device(), quad);
  DrawJobOptions o = colored_options();
  o.fragment_shader = "draw_discard_in_continue.frag";
  DrawJob job(device(), o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  draw_vertices(job, vb, 6);
  check_rgba8(job.read_color(), "colour", [](uint32_t x, uint32_t) {
    return x % 4 == 1 ? std::array<int, 4>{0, 0, 0, 0} : std::array<int, 4>{191, 102, 153, 255};  // discarded: clear
  }, 1);
}

// Stores from both stages, clip and cull distances: a full quad at z = 0.5 whose ClipDistance
// (= x) keeps the right half, and a quad at z = 0.95 that CullDistance removes. Every vertex
// writes its slot (culled ones too: they are shaded before culling); each fragment counts itself
// and its pixel with atomics, so exactly the right half's pixels ran, once each.
TEST_F(DrawTest, VertexAndFragmentStoresClipAndCullDistances) {
  const VkPhysicalDeviceFeatures& f = features().core.features;
  REQUIRE_ON_KILN(f.vertexPipelineStoresAndAtomics && f.fragmentStoresAndAtomics && f.shaderClipDistance &&
                      f.shaderCullDistance,
                  "vertexPipelineStoresAndAtomics, fragmentStoresAndAtomics, shaderClipDistance, shaderCullDistance");
  DeviceFeatures enabled;
  enabled.core.features.vertexPipelineStoresAndAtomics = VK_TRUE;
  enabled.core.features.fragmentStoresAndAtomics = VK_TRUE;
  enabled.core.features.shaderClipDistance = VK_TRUE;
  enabled.core.features.shaderCullDistance = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  DrawJobOptions o = colored_options();
  o.vertex_shader = "draw_stores.vert";
  o.fragment_shader = "draw_stores.frag";
  o.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices = rect(-1, -1, 1, 1, 0.5f, {0, 1, 0, 1});
  const std::vector<ColoredVertex> culled = rect(-1, -1, 1, 1, 0.95f, {0, 1, 0, 1});
  vertices.insert(vertices.end(), culled.begin(), culled.end());
  Buffer vb = vertex_buffer(device, vertices);
  Buffer vertex_slots = device.create_buffer(16 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer fragments = device.create_buffer((1 + 64 * 64) * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  job.bind_buffer(0, vertex_slots);
  job.bind_buffer(1, fragments);
  draw_vertices(job, vb, 12);
  const std::vector<uint8_t> pixels = job.read_color();  // also waits for the draw's writes
  for (uint32_t i = 0; i < 16; ++i)
    EXPECT_EQ(mapped_as<uint32_t>(vertex_slots)[i], i < 12 ? 1000 + i : 0u) << "vertex slot " << i;
  EXPECT_EQ(mapped_as<uint32_t>(fragments)[0], 32u * 64u) << "fragment count";
  PixelCheck failures(64, 64);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const size_t i = y * 64 + x;
      const bool kept = x >= 32;
      failures.expect_eq(i, mapped_as<uint32_t>(fragments)[1 + i], kept ? 1u : 0u, "fragment shader runs");
      failures.expect_eq(i, pixels[i * 4 + 1], uint8_t(kept ? 255 : 0), "green");
    }
}

// draw_colored into a D32 depth attachment with the test on (ALWAYS) and writes on: the depth
// range tests below read back where each fragment's depth landed.
DrawJobOptions depth_always_options() {
  DrawJobOptions o = colored_options();
  o.depth_format = VK_FORMAT_D32_SFLOAT;
  o.depth_stencil.depthTestEnable = VK_TRUE;
  o.depth_stencil.depthWriteEnable = VK_TRUE;
  o.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  return o;
}

// Draws the first `count` vertices of `vb` after clearing colour to black and depth to `depth_clear`.
void draw_after_clear(DrawJob& job, const Buffer& vb, uint32_t count, float depth_clear) {
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, count, 1, 0, 0);
  }, depth_clear);
}

// The D32 depth attachment, read back as floats.
std::vector<float> read_depth_floats(DrawJob& job) {
  const std::vector<uint8_t> raw = job.read_depth();
  std::vector<float> depth(raw.size() / 4);
  std::memcpy(depth.data(), raw.data(), depth.size() * 4);
  return depth;
}

// draw_after_clear, then the 64 x 64 colour pixels and depth floats.
struct ColorAndDepth {
  std::vector<uint8_t> pixels;
  std::vector<float> depth;
};
ColorAndDepth draw_and_read(DrawJob& job, const Buffer& vb, uint32_t count, float depth_clear) {
  draw_after_clear(job, vb, count, depth_clear);
  ColorAndDepth out{job.read_color(), read_depth_floats(job)};
  EXPECT_EQ(out.depth.size(), size_t{64} * 64);
  out.depth.resize(size_t{64} * 64);
  return out;
}

// Depth clamp: a quad beyond the far plane (z = 1.5) is not clipped but drawn with its depth
// clamped to the viewport's maxDepth; without clamping it disappears.
TEST_F(DrawTest, DepthClampDrawsBeyondTheFarPlane) {
  REQUIRE_ON_KILN(features().core.features.depthClamp, "depthClamp");
  DeviceFeatures enabled;
  enabled.core.features.depthClamp = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  const std::vector<ColoredVertex> quad = rect(-1, -1, 1, 1, 1.5f, {1, 0, 0, 1});
  Buffer vb = vertex_buffer(device, quad);
  for (const bool clamp : {true, false}) {
    SCOPED_TRACE(clamp ? "depth clamp on" : "depth clamp off");
    DrawJobOptions o = depth_always_options();
    o.depth_clamp = clamp;
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    draw_after_clear(job, vb, 6, 0.5f);
    const std::vector<uint8_t> pixels = job.read_color();
    const std::vector<float> depth = read_depth_floats(job);
    ASSERT_EQ(depth.size(), size_t{64} * 64);
    PixelCheck failures(64, 64);
    for (size_t i = 0; i < 64 * 64; ++i) {
      failures.expect_eq(i, pixels[i * 4], uint8_t(clamp ? 255 : 0), "red");
      failures.expect_eq(i, depth[i], clamp ? 1.0f : 0.5f, "depth");
    }
  }
}

// VK_EXT_depth_clip_enable: the same quad at z = 1.5, with depth clamp on but depth clipping
// on (clipped away: nothing drawn), and with both off (not clipped: drawn; its depth is undefined
// outside [0, 1], so only colour is checked).
TEST_F(DrawTest, DepthClipIsIndependentOfDepthClamp) {
  VkPhysicalDeviceDepthClipEnableFeaturesEXT clip{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT};
  REQUIRE_ON_KILN(features().core.features.depthClamp &&
                      query_extension_features(physical_device(), VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME, clip) &&
                      clip.depthClipEnable,
                  "depthClamp and VK_EXT_depth_clip_enable");
  DeviceFeatures enabled;
  enabled.core.features.depthClamp = VK_TRUE;
  enabled.v13.pNext = &clip;
  TestDevice& device = *create_device(enabled, {VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME});
  Buffer vb = vertex_buffer(device, rect(-1, -1, 1, 1, 1.5f, {1, 0, 0, 1}));
  for (const bool clamp_and_clip : {true, false}) {
    SCOPED_TRACE(clamp_and_clip ? "clamp on, clip on" : "clamp off, clip off");
    DrawJobOptions o = depth_always_options();
    o.depth_clamp = clamp_and_clip;
    o.depth_clip = clamp_and_clip;
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    draw_after_clear(job, vb, 6, 0.5f);
    check_rgba8(job.read_color(), "quad beyond the far plane", [&](uint32_t, uint32_t) -> std::array<uint8_t, 4> {
      return clamp_and_clip ? std::array<uint8_t, 4>{0, 0, 0, 0} : std::array<uint8_t, 4>{255, 0, 0, 255};
    });
  }
}

// VK_EXT_depth_clip_control: a quad at NDC z = -0.5 (left half) and one at z = 0.5 (right half).
// With negativeOneToOne both are inside the clip volume and land at depths 0.25 and 0.75; with
// Vulkan's [0, 1] the left one is clipped away and the right one lands at 0.5.
TEST_F(DrawTest, DepthClipControlNegativeOneToOne) {
  VkPhysicalDeviceDepthClipControlFeaturesEXT control{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT};
  REQUIRE_ON_KILN(query_extension_features(physical_device(), VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME, control) &&
                      control.depthClipControl,
                  "VK_EXT_depth_clip_control");
  TestDevice& device = *create_device_with_extension(control, VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME);
  std::vector<ColoredVertex> quads = rect(-1, -1, 0, 1, -0.5f, {1, 0, 0, 1});
  const std::vector<ColoredVertex> right = rect(0, -1, 1, 1, 0.5f, {0, 1, 0, 1});
  quads.insert(quads.end(), right.begin(), right.end());
  Buffer vb = vertex_buffer(device, quads);
  for (const bool minus_one_to_one : {true, false}) {
    SCOPED_TRACE(minus_one_to_one ? "negativeOneToOne" : "zero to one");
    DrawJobOptions o = depth_always_options();
    o.negative_one_to_one = minus_one_to_one;
    DrawJob job(device, o);
    ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
    const auto [pixels, depth] = draw_and_read(job, vb, 12, 1.0f);
    PixelCheck failures(64, 64);
    for (size_t i = 0; i < 64 * 64; ++i) {
      const bool left = i % 64 < 32;
      const bool drawn = !left || minus_one_to_one;
      failures.expect_eq(i, pixels[i * 4 + (left ? 0 : 1)], uint8_t(drawn ? 255 : 0), "colour");
      failures.expect_eq(i, depth[i], !drawn ? 1.0f : left ? 0.25f : minus_one_to_one ? 0.75f : 0.5f, "depth");
    }
  }
}

// VK_EXT_depth_range_unrestricted: a D32 attachment cleared to 2.5, a viewport depth range of
// [-1, 3] and the LESS test. The left quad (z = 0.5) lands at depth 1.0 and passes; the right one
// (z = 0.9) lands at 2.6, beyond the clear value, and fails; with depth clamp on, a quad beyond the
// far plane (z = 1.5) is clamped to the viewport's maxDepth of 3, not to 1, and fails too.
TEST_F(DrawTest, DepthRangeUnrestrictedKeepsDepthsOutsideZeroToOne) {
  REQUIRE_ON_KILN(device_has_extension(physical_device(), VK_EXT_DEPTH_RANGE_UNRESTRICTED_EXTENSION_NAME) &&
                      features().core.features.depthClamp,
                  "VK_EXT_depth_range_unrestricted and depthClamp");
  DeviceFeatures enabled;
  enabled.core.features.depthClamp = VK_TRUE;
  TestDevice& device = *create_device(enabled, {VK_EXT_DEPTH_RANGE_UNRESTRICTED_EXTENSION_NAME});
  std::vector<ColoredVertex> quads = rect(-1, -1, 0, 1, 0.5f, {1, 0, 0, 1});
  const std::vector<ColoredVertex> right = rect(0, -1, 1, 1, 0.9f, {0, 1, 0, 1});
  quads.insert(quads.end(), right.begin(), right.end());
  const std::vector<ColoredVertex> beyond = rect(-1, -1, 1, 1, 1.5f, {0, 0, 1, 1});
  quads.insert(quads.end(), beyond.begin(), beyond.end());
  Buffer vb = vertex_buffer(device, quads);
  DrawJobOptions o = depth_always_options();
  o.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  o.depth_clamp = true;
  o.viewports = {{0, 0, 64, 64, -1.0f, 3.0f}};
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const auto [pixels, depth] = draw_and_read(job, vb, 18, 2.5f);
  PixelCheck failures(64, 64);
  for (size_t i = 0; i < 64 * 64; ++i) {
    const bool left = i % 64 < 32;
    failures.expect_eq(i, pixels[i * 4 + 0], uint8_t(left ? 255 : 0), "red: the left quad passed");
    failures.expect_eq(i, pixels[i * 4 + 1], uint8_t(0), "green: the right quad failed");
    failures.expect_eq(i, pixels[i * 4 + 2], uint8_t(0), "blue: the clamped quad failed");
    failures.expect_eq(i, depth[i], left ? 1.0f : 2.5f, "depth");
  }
}

// Polygon mode LINE draws a quad's outline: the interior stays clear, every row of the quad has
// its left and right edge pixels drawn, and the drawn pixels are about the perimeter's count.
TEST_F(DrawTest, PolygonModeLineDrawsOutlines) {
  REQUIRE_ON_KILN(features().core.features.fillModeNonSolid, "fillModeNonSolid");
  DeviceFeatures enabled;
  enabled.core.features.fillModeNonSolid = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  DrawJobOptions o = colored_options();
  o.polygon_mode = VK_POLYGON_MODE_LINE;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  // Pixel-centre aligned corners: framebuffer (16.5, 16.5) to (47.5, 47.5).
  const float lo = 16.5f / 32 - 1, hi = 47.5f / 32 - 1;
  const std::vector<ColoredVertex> quad = rect(lo, lo, hi, hi, 0.5f, {1, 1, 1, 1});
  Buffer vb = vertex_buffer(device, quad);
  draw_vertices(job, vb, 6);
  const std::vector<uint8_t> pixels = job.read_color();
  auto lit = [&](uint32_t x, uint32_t y) { return pixels[(y * 64 + x) * 4] != 0; };
  uint32_t drawn = 0;
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) drawn += lit(x, y);
  for (uint32_t y = 18; y < 46; ++y) {
    EXPECT_TRUE(lit(16, y) || lit(17, y)) << "left edge, row " << y;
    EXPECT_TRUE(lit(47, y) || lit(46, y)) << "right edge, row " << y;
    for (uint32_t x = 20; x < 44; ++x)
      if (std::abs(int(x) - int(y)) > 2) EXPECT_FALSE(lit(x, y)) << "interior pixel (" << x << ", " << y << ")";
  }
  // Four sides of 31 pixels plus the diagonal's 31: about 155 pixels, never a filled quad (1024).
  EXPECT_GT(drawn, 120u);
  EXPECT_LT(drawn, 200u);
}

// Depth bounds test the value already in the attachment: a first quad (left half) passes the
// bounds against the cleared 0.5 and writes 0.9; a second full quad then fails the bounds there
// and passes them on the right half, where 0.5 is still stored.
TEST_F(DrawTest, DepthBoundsTestTheStoredDepth) {
  REQUIRE_ON_KILN(features().core.features.depthBounds, "depthBounds");
  DeviceFeatures enabled;
  enabled.core.features.depthBounds = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  DrawJobOptions o = colored_options();
  o.depth_format = VK_FORMAT_D32_SFLOAT;
  o.depth_stencil.depthTestEnable = VK_TRUE;
  o.depth_stencil.depthWriteEnable = VK_TRUE;
  o.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  o.depth_stencil.depthBoundsTestEnable = VK_TRUE;
  o.depth_stencil.minDepthBounds = 0.4f;
  o.depth_stencil.maxDepthBounds = 0.6f;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices = rect(-1, -1, 0, 1, 0.9f, {1, 0, 0, 1});
  const std::vector<ColoredVertex> second = rect(-1, -1, 1, 1, 0.3f, {0, 1, 0, 1});
  vertices.insert(vertices.end(), second.begin(), second.end());
  Buffer vb = vertex_buffer(device, vertices);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 12, 1, 0, 0);
  }, 0.5f);
  const std::vector<uint8_t> pixels = job.read_color();
  PixelCheck failures(64, 64);
  for (size_t i = 0; i < 64 * 64; ++i) {
    const bool left = i % 64 < 32;
    failures.expect_eq(i, pixels[i * 4 + 0], uint8_t(left ? 255 : 0), "red");
    failures.expect_eq(i, pixels[i * 4 + 1], uint8_t(left ? 0 : 255), "green");
  }
}

// Logic ops replace blending for UNORM attachments: XOR of the quad's colour into the clear colour.
TEST_F(DrawTest, LogicOpXorCombinesWithTheAttachment) {
  REQUIRE_ON_KILN(features().core.features.logicOp, "logicOp");
  DeviceFeatures enabled;
  enabled.core.features.logicOp = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  DrawJobOptions o = colored_options();
  o.logic_op_enable = true;
  o.logic_op = VK_LOGIC_OP_XOR;
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  const uint8_t src[4] = {0xFF, 0x0F, 0x00, 0xF0}, dst[4] = {0x0F, 0x33, 0x55, 0xFF};
  const std::vector<ColoredVertex> quad = rect(-1, -1, 1, 1, 0.5f, {src[0] / 255.0f, src[1] / 255.0f, src[2] / 255.0f, src[3] / 255.0f});
  Buffer vb = vertex_buffer(device, quad);
  const VkClearColorValue clear{.float32 = {dst[0] / 255.0f, dst[1] / 255.0f, dst[2] / 255.0f, dst[3] / 255.0f}};
  job.draw(clear, [&](VkCommandBuffer cb) {
    bind_vertices(cb, vb);
    vkCmdDraw(cb, 6, 1, 0, 0);
  });
  const std::vector<uint8_t> pixels = job.read_color();
  PixelCheck failures(64, 64);
  for (size_t i = 0; i < 64 * 64; ++i)
    for (int k = 0; k < 4; ++k) failures.expect_eq(i, pixels[i * 4 + k], uint8_t(src[k] ^ dst[k]), "channel " + std::to_string(k));
}

// A fragment shader reads gl_ClipDistance: the vertex shader's distances arrive interpolated
// (1 + x across the target, a constant 2), at every pixel.
TEST_F(DrawTest, FragmentShaderReadsInterpolatedClipDistances) {
  REQUIRE_ON_KILN(features().core.features.shaderClipDistance, "shaderClipDistance");
  DeviceFeatures enabled;
  enabled.core.features.shaderClipDistance = VK_TRUE;
  TestDevice& device = *create_device(enabled);
  DrawJobOptions o = colored_options();
  o.vertex_shader = "draw_clip_read.vert";
  o.fragment_shader = "draw_clip_read.frag";
  DrawJob job(device, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(device, rect(-1, -1, 1, 1, 0.5f, {0, 0, 0, 1}));
  draw_vertices(job, vb, 6);
  const std::vector<uint8_t> pixels = job.read_color();
  PixelCheck failures(o.width, o.height);
  for (uint32_t y = 0; y < o.height; ++y)
    for (uint32_t x = 0; x < o.width; ++x) {
      const size_t i = size_t(y) * o.width + x;
      // ClipDistance[0] / 2 = (1 + ndc x) / 2 = (x + 0.5) / width.
      const int want_red = int(std::lround((x + 0.5) / o.width * 255.0));
      failures.expect_near(i, pixels[i * 4 + 0], want_red, 1, "ClipDistance[0] / 2");
      failures.expect_eq(i, pixels[i * 4 + 1], uint8_t(128), "ClipDistance[1] / 4");
    }
}

}  // namespace
}  // namespace kiln::test
