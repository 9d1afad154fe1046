// Queries that count draws and dispatches, and VK_EXT_multi_draw: occlusion queries (exact sample
// counts with and without a depth test rejecting part of a quad, active across a secondary command
// buffer), pipeline statistics of known draws and dispatches (every core statistic, in bit order,
// read back and copied to a buffer), and multi-draws whose entries see their own DrawIndex,
// BaseVertex and BaseInstance. Expected values are the spec's counts for quads whose edges lie on
// pixel boundaries; where the spec leaves a count to the implementation (vertex reuse, helper
// invocations, clipping), every driver gets bounds and Kiln its exact answer.
#include <cstring>
#include <stdexcept>
#include <vector>

#include "e2e/compute_job.h"
#include "e2e/draw_job.h"
#include "e2e/draw_scene.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr std::array<float, 4> kWhite{1, 1, 1, 1};
constexpr VkQueryPipelineStatisticFlags kAllStatistics = (1u << 11) - 1;  // the 11 core statistics

// Pixel rectangle [x0, x1) x [y0, y1) of a 64x64 target as a clip-space quad at depth z: edges on
// pixel boundaries, so exactly (x1-x0)*(y1-y0) pixel centres are inside.
std::vector<ColoredVertex> pixel_rect(int x0, int y0, int x1, int y1, float z) {
  auto clip = [](int p) { return float(p) / 32.0f - 1.0f; };
  return rect(clip(x0), clip(y0), clip(x1), clip(y1), z, kWhite);
}

class DrawQueryTest : public VulkanTest {
 protected:
  // A device with the query features and VK_EXT_multi_draw (plus shaderDrawParameters) where the
  // driver has them; tests skip what is missing.
  TestDevice& query_device() {
    if (device_) return *device_;
    const VkPhysicalDeviceFeatures& have = features().core.features;
    enabled_.core.features.occlusionQueryPrecise = have.occlusionQueryPrecise;
    enabled_.core.features.pipelineStatisticsQuery = have.pipelineStatisticsQuery;
    enabled_.core.features.inheritedQueries = have.inheritedQueries;
    enabled_.v11.shaderDrawParameters = features().v11.shaderDrawParameters;
    std::vector<const char*> extensions;
    has_multi_draw_ = device_has_extension(physical_device(), VK_EXT_MULTI_DRAW_EXTENSION_NAME);
    if (has_multi_draw_) {
      VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &multi_draw_};
      vkGetPhysicalDeviceFeatures2(physical_device(), &query);
      has_multi_draw_ = multi_draw_.multiDraw;
      multi_draw_.pNext = nullptr;
      enabled_.v13.pNext = &multi_draw_;
      extensions.push_back(VK_EXT_MULTI_DRAW_EXTENSION_NAME);
    }
    device_ = create_device(enabled_, extensions);
    if (!device_) throw std::runtime_error("device with query features");
    return *device_;
  }
  VkQueryPool create_pool(VkQueryType type, uint32_t count, VkQueryPipelineStatisticFlags statistics = 0) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = type;
    info.queryCount = count;
    info.pipelineStatistics = statistics;
    VkQueryPool pool = VK_NULL_HANDLE;
    TestDevice& dev = query_device();
    require(vkCreateQueryPool(dev.handle(), &info, nullptr, &pool), "vkCreateQueryPool");
    VkDevice handle = dev.handle();
    dev.defer_destroy([handle, pool] { vkDestroyQueryPool(handle, pool, nullptr); });
    return pool;
  }
  // `values` 64-bit results per query of queries [first, first+count), waited for.
  std::vector<uint64_t> results(VkQueryPool pool, uint32_t first, uint32_t count, uint32_t values = 1) {
    std::vector<uint64_t> r(size_t{count} * values, 0xDEADBEEFull);
    EXPECT_EQ(VK_SUCCESS, vkGetQueryPoolResults(query_device().handle(), pool, first, count, r.size() * 8, r.data(),
                                                values * 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return r;
  }
  bool has_multi_draw() {
    query_device();
    return has_multi_draw_;
  }

 private:
  DeviceFeatures enabled_;
  VkPhysicalDeviceMultiDrawFeaturesEXT multi_draw_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
  bool has_multi_draw_ = false;
  TestDevice* device_ = nullptr;
};

// A 32x24-pixel quad: a precise query counts its 768 samples; a non-precise one counts something
// (Kiln: exactly the same); a query around a quad clipped away entirely counts 0.
TEST_F(DrawQueryTest, OcclusionQueryCountsTheSamplesOfAQuad) {
  TestDevice& dev = query_device();
  if (!features().core.features.occlusionQueryPrecise) GTEST_SKIP() << "occlusionQueryPrecise not supported";
  DrawJob job(dev, colored_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices = pixel_rect(16, 16, 48, 40, 0.5f);
  const std::vector<ColoredVertex> outside = rect(2, -1, 3, 1, 0.5f, kWhite);  // right of the target
  vertices.insert(vertices.end(), outside.begin(), outside.end());
  Buffer vb = vertex_buffer(dev, vertices);
  VkQueryPool pool = create_pool(VK_QUERY_TYPE_OCCLUSION, 3);
  dev.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 3);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdBeginQuery(cb, pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
      vkCmdDraw(cb, 6, 1, 0, 0);
      vkCmdEndQuery(cb, pool, 0);
      vkCmdBeginQuery(cb, pool, 1, 0);
      vkCmdDraw(cb, 6, 1, 0, 0);
      vkCmdEndQuery(cb, pool, 1);
      vkCmdBeginQuery(cb, pool, 2, VK_QUERY_CONTROL_PRECISE_BIT);
      vkCmdDraw(cb, 6, 1, 6, 0);
      vkCmdEndQuery(cb, pool, 2);
    });
  });
  const std::vector<uint64_t> r = results(pool, 0, 3);
  EXPECT_EQ(768u, r[0]) << "32 x 24 pixels, one sample each";
  EXPECT_GT(r[1], 0u) << "a non-precise query of a visible quad";
  EXPECT_EQ(0u, r[2]) << "a quad outside the target";
  KILN_ONLY();
  EXPECT_EQ(768u, r[1]) << "Kiln counts exactly either way";
}

// With a depth test (LESS): an occluder in front of the left half of the quad leaves 384 samples
// passing; a quad in front of everything passes all 768. Samples failing the test do not count.
TEST_F(DrawQueryTest, OcclusionQueryCountsOnlySamplesPassingTheDepthTest) {
  TestDevice& dev = query_device();
  if (!features().core.features.occlusionQueryPrecise) GTEST_SKIP() << "occlusionQueryPrecise not supported";
  DrawJobOptions o = colored_options();
  o.depth_format = VK_FORMAT_D32_SFLOAT;
  o.depth_stencil.depthTestEnable = VK_TRUE;
  o.depth_stencil.depthWriteEnable = VK_TRUE;
  o.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  DrawJob job(dev, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices = pixel_rect(16, 16, 32, 40, 0.2f);  // occluder: left half
  for (const auto& part : {pixel_rect(16, 16, 48, 40, 0.5f), pixel_rect(16, 16, 48, 40, 0.1f)})
    vertices.insert(vertices.end(), part.begin(), part.end());
  Buffer vb = vertex_buffer(dev, vertices);
  VkQueryPool pool = create_pool(VK_QUERY_TYPE_OCCLUSION, 2);
  dev.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 2);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdDraw(cb, 6, 1, 0, 0);
      vkCmdBeginQuery(cb, pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
      vkCmdDraw(cb, 6, 1, 6, 0);
      vkCmdEndQuery(cb, pool, 0);
      vkCmdBeginQuery(cb, pool, 1, VK_QUERY_CONTROL_PRECISE_BIT);
      vkCmdDraw(cb, 6, 1, 12, 0);
      vkCmdEndQuery(cb, pool, 1);
    });
  });
  const std::vector<uint64_t> r = results(pool, 0, 2);
  EXPECT_EQ(384u, r[0]) << "the right half (16 x 24) passes, the occluded left half does not";
  EXPECT_EQ(768u, r[1]) << "in front of everything";
}

// inheritedQueries: an occlusion and a pipeline-statistics query begun in the primary, before the
// render pass, count the draw of a secondary executed inside it.
TEST_F(DrawQueryTest, QueriesCountWorkOfSecondaryCommandBuffers) {
  TestDevice& dev = query_device();
  const VkPhysicalDeviceFeatures& f = features().core.features;
  if (!f.inheritedQueries || !f.occlusionQueryPrecise || !f.pipelineStatisticsQuery)
    GTEST_SKIP() << "inheritedQueries, occlusionQueryPrecise or pipelineStatisticsQuery not supported";
  DrawJob job(dev, colored_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(dev, pixel_rect(16, 16, 48, 40, 0.5f));
  VkQueryPool occlusion = create_pool(VK_QUERY_TYPE_OCCLUSION, 1);
  const VkQueryPipelineStatisticFlags stats = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
                                              VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
  VkQueryPool statistics = create_pool(VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, stats);

  VkCommandBuffer secondary = dev.allocate_command_buffer(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceInfo inheritance = job.inheritance();
  inheritance.occlusionQueryEnable = VK_TRUE;
  inheritance.queryFlags = VK_QUERY_CONTROL_PRECISE_BIT;
  inheritance.pipelineStatistics = stats;
  VkCommandBufferBeginInfo begin = begin_info(VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT);
  begin.pInheritanceInfo = &inheritance;
  ASSERT_EQ(VK_SUCCESS, vkBeginCommandBuffer(secondary, &begin));
  job.bind_state(secondary);
  bind_vertices(secondary, vb);
  vkCmdDraw(secondary, 6, 1, 0, 0);
  ASSERT_EQ(VK_SUCCESS, vkEndCommandBuffer(secondary));

  dev.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, occlusion, 0, 1);
    vkCmdResetQueryPool(cb, statistics, 0, 1);
    vkCmdBeginQuery(cb, occlusion, 0, VK_QUERY_CONTROL_PRECISE_BIT);
    vkCmdBeginQuery(cb, statistics, 0, 0);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) { vkCmdExecuteCommands(cb, 1, &secondary); }, 1.0f,
                    VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
    vkCmdEndQuery(cb, statistics, 0);
    vkCmdEndQuery(cb, occlusion, 0);
  });
  EXPECT_EQ(768u, results(occlusion, 0, 1)[0]);
  const std::vector<uint64_t> s = results(statistics, 0, 1, 2);
  EXPECT_EQ(6u, s[0]) << "input assembly vertices";
  EXPECT_GE(s[1], 768u) << "fragment shader invocations";
  // Drawn pixels are white: the secondary really drew into the primary's render pass.
  const std::vector<uint8_t> pixels = job.read_color();
  EXPECT_EQ(255, pixels[(20 * 64 + 20) * 4]);
  EXPECT_EQ(0, pixels[(10 * 64 + 10) * 4]);
  KILN_ONLY();
  EXPECT_EQ(768u, s[1]) << "Kiln: one invocation per covered pixel";
}

// Every core statistic, in bit order, for known draws: a non-indexed quad (6 vertices, 2
// triangles, 768 pixels) and an indexed one sharing 2 of its 4 vertices. Stages Kiln does not have
// (geometry, tessellation) and compute count 0. Read back and copied (32-bit, with availability).
TEST_F(DrawQueryTest, PipelineStatisticsOfKnownDraws) {
  TestDevice& dev = query_device();
  if (!features().core.features.pipelineStatisticsQuery) GTEST_SKIP() << "pipelineStatisticsQuery not supported";
  DrawJob job(dev, colored_options());
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  std::vector<ColoredVertex> vertices = pixel_rect(16, 16, 48, 40, 0.5f);
  // Indexed quad [0, 8) x [0, 8): corners 6..9.
  const std::vector<ColoredVertex> small = pixel_rect(0, 0, 8, 8, 0.5f);
  for (int i : {0, 1, 2, 5}) vertices.push_back(small[i]);
  Buffer vb = vertex_buffer(dev, vertices);
  const uint16_t indices[6] = {6, 7, 8, 6, 8, 9};
  Buffer ib = dev.create_buffer(sizeof indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  std::memcpy(ib.mapped, indices, sizeof indices);
  VkQueryPool pool = create_pool(VK_QUERY_TYPE_PIPELINE_STATISTICS, 2, kAllStatistics);
  constexpr uint32_t kValues = 11;
  Buffer copy = dev.create_buffer(2 * (kValues + 1) * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0xEE);
  dev.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 2);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
      vkCmdBeginQuery(cb, pool, 0, 0);
      vkCmdDraw(cb, 6, 1, 0, 0);
      vkCmdEndQuery(cb, pool, 0);
      vkCmdBeginQuery(cb, pool, 1, 0);
      vkCmdDrawIndexed(cb, 6, 1, 0, 0, 0);
      vkCmdEndQuery(cb, pool, 1);
    });
    vkCmdCopyQueryPoolResults(cb, pool, 0, 2, copy.buffer, 0, (kValues + 1) * 4,
                              VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0,
                         nullptr);
  });
  const std::vector<uint64_t> r = results(pool, 0, 2, kValues);
  enum { kIaVertices, kIaPrimitives, kVs, kGsInvocations, kGsPrimitives, kClipInvocations, kClipPrimitives, kFs, kTcs, kTes, kCs };
  const uint64_t* quad = &r[0];
  const uint64_t* indexed = &r[kValues];
  EXPECT_EQ(6u, quad[kIaVertices]);
  EXPECT_EQ(2u, quad[kIaPrimitives]);
  EXPECT_EQ(6u, quad[kVs]) << "non-indexed: no vertex to reuse";
  EXPECT_EQ(6u, indexed[kIaVertices]);
  EXPECT_EQ(2u, indexed[kIaPrimitives]);
  EXPECT_GE(indexed[kVs], 4u);
  EXPECT_LE(indexed[kVs], 6u);
  EXPECT_GE(quad[kFs], 768u);
  EXPECT_GE(indexed[kFs], 64u);
  for (const uint64_t* q : {quad, indexed}) {
    EXPECT_EQ(0u, q[kGsInvocations]);
    EXPECT_EQ(0u, q[kGsPrimitives]);
    EXPECT_EQ(0u, q[kTcs]);
    EXPECT_EQ(0u, q[kTes]);
    EXPECT_EQ(0u, q[kCs]);
  }
  // The copy: the same values (32-bit) followed by availability 1.
  const uint32_t* copied = reinterpret_cast<const uint32_t*>(copy.mapped);
  for (uint32_t q = 0; q < 2; ++q) {
    for (uint32_t v = 0; v < kValues; ++v)
      EXPECT_EQ(static_cast<uint32_t>(r[q * kValues + v]), copied[q * (kValues + 1) + v]) << "query " << q << " value " << v;
    EXPECT_EQ(1u, copied[q * (kValues + 1) + kValues]) << "availability of query " << q;
  }
  KILN_ONLY();
  // Clipping sees every primitive and outputs each unclipped; the fragment shader runs once per
  // covered pixel; vertices shared within a batch are shaded once.
  for (const uint64_t* q : {quad, indexed}) {
    EXPECT_EQ(2u, q[kClipInvocations]);
    EXPECT_EQ(2u, q[kClipPrimitives]);
  }
  EXPECT_EQ(768u, quad[kFs]);
  EXPECT_EQ(64u, indexed[kFs]);
  EXPECT_EQ(4u, indexed[kVs]);
}

// Rasterizer discard (dynamic state): vertices are assembled and shaded, nothing reaches the
// fragment shader or the attachment. Kiln still clips (discard comes after clipping).
TEST_F(DrawQueryTest, PipelineStatisticsWithRasterizerDiscard) {
  TestDevice& dev = query_device();
  if (!features().core.features.pipelineStatisticsQuery) GTEST_SKIP() << "pipelineStatisticsQuery not supported";
  DrawJobOptions o = colored_options();
  o.dynamic_states = {VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE};
  DrawJob job(dev, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  Buffer vb = vertex_buffer(dev, pixel_rect(16, 16, 48, 40, 0.5f));
  VkQueryPool pool = create_pool(VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, kAllStatistics);
  dev.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    job.record_pass(cb, kBlack, [&](VkCommandBuffer cb) {
      bind_vertices(cb, vb);
      vkCmdSetRasterizerDiscardEnable(cb, VK_TRUE);
      vkCmdBeginQuery(cb, pool, 0, 0);
      vkCmdDraw(cb, 6, 1, 0, 0);
      vkCmdEndQuery(cb, pool, 0);
    });
  });
  const std::vector<uint64_t> r = results(pool, 0, 1, 11);
  EXPECT_EQ(6u, r[0]) << "input assembly vertices";
  EXPECT_EQ(2u, r[1]) << "input assembly primitives";
  EXPECT_EQ(6u, r[2]) << "vertex shader invocations";
  EXPECT_EQ(0u, r[7]) << "fragment shader invocations";
  EXPECT_EQ(0, job.read_color()[(20 * 64 + 20) * 4]) << "nothing drawn";
  KILN_ONLY();
  EXPECT_EQ(2u, r[5]) << "clipping invocations";
  EXPECT_EQ(2u, r[6]) << "clipping primitives";
}

// Compute shader invocations: two dispatches of 64-invocation workgroups, 6 + 2 groups.
TEST_F(DrawQueryTest, PipelineStatisticsCountComputeInvocations) {
  TestDevice& dev = query_device();
  if (!features().core.features.pipelineStatisticsQuery) GTEST_SKIP() << "pipelineStatisticsQuery not supported";
  ComputeJob job(dev, "saxpy.comp",
                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER});
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  constexpr uint32_t n = 512;
  Buffer x = dev.create_buffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer y = dev.create_buffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer params = dev.create_buffer(8, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  for (uint32_t i = 0; i < n; ++i) {
    mapped_as<float>(x)[i] = float(i);
    mapped_as<float>(y)[i] = 1.0f;
  }
  mapped_as<float>(params)[0] = 2.0f;
  mapped_as<uint32_t>(params)[1] = n;
  job.bind_buffer(0, x);
  job.bind_buffer(1, y);
  job.bind_buffer(2, params);
  VkQueryPool pool = create_pool(VK_QUERY_TYPE_PIPELINE_STATISTICS, 1,
                                 VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT |
                                     VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT);
  dev.run_commands([&](VkCommandBuffer cb) {
    vkCmdResetQueryPool(cb, pool, 0, 1);
    vkCmdBeginQuery(cb, pool, 0, 0);
    job.record(cb, 6);
    job.record(cb, 2);
    vkCmdEndQuery(cb, pool, 0);
  });
  const std::vector<uint64_t> r = results(pool, 0, 1, 2);
  EXPECT_EQ(0u, r[0]) << "vertex shader invocations (bit 2 comes before bit 10)";
  EXPECT_GE(r[1], 512u) << "compute shader invocations";
  // Both dispatches ran: elements [0, 128) twice, [128, 384) once, the rest not at all.
  EXPECT_EQ(1.0f + 2 * 2.0f * 10, mapped_as<float>(y)[10]);
  EXPECT_EQ(1.0f + 2.0f * 200, mapped_as<float>(y)[200]);
  EXPECT_EQ(1.0f, mapped_as<float>(y)[400]);
  KILN_ONLY();
  EXPECT_EQ(512u, r[1]);
}

// VK_EXT_multi_draw, non-indexed: four entries 16 bytes apart (padding between them), one of them
// empty; each drawn quad (a 16-pixel column) shows (DrawIndex, BaseVertex = firstVertex,
// BaseInstance, InstanceIndex) from draw_parameters.vert, the empty entry's column stays clear.
TEST_F(DrawQueryTest, MultiDrawGivesEachEntryItsDrawIndex) {
  if (!has_multi_draw() || !features().v11.shaderDrawParameters)
    GTEST_SKIP() << "VK_EXT_multi_draw or shaderDrawParameters not supported";
  TestDevice& dev = query_device();
  VkPhysicalDeviceMultiDrawPropertiesEXT limits{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
  vkGetPhysicalDeviceProperties2(physical_device(), &properties);
  EXPECT_GE(limits.maxMultiDrawCount, 1024u) << "the spec's minimum";
  DrawJobOptions o;
  o.vertex_shader = "draw_parameters.vert";
  o.fragment_shader = "draw_flat.frag";
  o.vertex_bindings = {{0, 8, VK_VERTEX_INPUT_RATE_VERTEX}};
  o.vertex_attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}};
  DrawJob job(dev, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  // Column k: pixels [16k, 16k + 16) x [0, 64), six vertices from 6k.
  std::vector<float> xy;
  for (int k = 0; k < 4; ++k)
    for (const ColoredVertex& v : pixel_rect(16 * k, 0, 16 * k + 16, 64, 0.5f)) {
      xy.push_back(v.x);
      xy.push_back(v.y);
    }
  Buffer vb = dev.create_buffer(xy.size() * 4, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  std::memcpy(vb.mapped, xy.data(), xy.size() * 4);
  struct PaddedInfo {
    VkMultiDrawInfoEXT info;
    uint32_t padding[2];
  };
  // Entries: column 0, column 1 with no vertices, column 3, column 2.
  const PaddedInfo draws[4] = {{{0, 6}, {}}, {{6, 0}, {}}, {{18, 6}, {}}, {{12, 6}, {}}};
  // Extension commands are not exported by the loader library.
  auto draw_multi = reinterpret_cast<PFN_vkCmdDrawMultiEXT>(vkGetDeviceProcAddr(dev.handle(), "vkCmdDrawMultiEXT"));
  ASSERT_NE(nullptr, draw_multi);
  job.draw(kBlack, [&](VkCommandBuffer cb) {
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &offset);
    draw_multi(cb, 4, &draws[0].info, 1, 5, sizeof(PaddedInfo));
  });
  const std::vector<uint8_t> pixels = job.read_color();
  // Expected (DrawIndex, BaseVertex, BaseInstance, InstanceIndex) per column.
  const std::array<uint8_t, 4> expected[4] = {{0, 0, 5, 5}, {0, 0, 0, 0}, {3, 12, 5, 5}, {2, 18, 5, 5}};
  for (uint32_t y = 0; y < 64; y += 7)
    for (uint32_t x = 0; x < 64; ++x)
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(expected[x / 16][c], pixels[(y * 64 + x) * 4 + c]) << "pixel (" << x << ", " << y << ") channel " << c;
}

// VK_EXT_multi_draw, indexed: entries with their own vertexOffset (BaseVertex), then the same
// indices with pVertexOffset replacing every entry's offset.
TEST_F(DrawQueryTest, MultiDrawIndexedUsesEachVertexOffsetOrTheSharedOne) {
  if (!has_multi_draw() || !features().v11.shaderDrawParameters)
    GTEST_SKIP() << "VK_EXT_multi_draw or shaderDrawParameters not supported";
  TestDevice& dev = query_device();
  DrawJobOptions o;
  o.vertex_shader = "draw_parameters.vert";
  o.fragment_shader = "draw_flat.frag";
  o.vertex_bindings = {{0, 8, VK_VERTEX_INPUT_RATE_VERTEX}};
  o.vertex_attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}};
  DrawJob job(dev, o);
  ASSERT_EQ(job.pipeline_result(), VK_SUCCESS);
  // Column k: four corners from vertex 4k.
  std::vector<float> xy;
  for (int k = 0; k < 4; ++k) {
    const std::vector<ColoredVertex> q = pixel_rect(16 * k, 0, 16 * k + 16, 64, 0.5f);
    for (int i : {0, 1, 2, 5}) {
      xy.push_back(q[i].x);
      xy.push_back(q[i].y);
    }
  }
  Buffer vb = dev.create_buffer(xy.size() * 4, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  std::memcpy(vb.mapped, xy.data(), xy.size() * 4);
  const uint32_t indices[12] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
  Buffer ib = dev.create_buffer(sizeof indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  std::memcpy(ib.mapped, indices, sizeof indices);
  auto draw_multi_indexed =
      reinterpret_cast<PFN_vkCmdDrawMultiIndexedEXT>(vkGetDeviceProcAddr(dev.handle(), "vkCmdDrawMultiIndexedEXT"));
  ASSERT_NE(nullptr, draw_multi_indexed);
  auto draw = [&](const std::vector<VkMultiDrawIndexedInfoEXT>& entries, const int32_t* shared_offset) {
    job.draw(kBlack, [&](VkCommandBuffer cb) {
      const VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &offset);
      vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
      draw_multi_indexed(cb, static_cast<uint32_t>(entries.size()), entries.data(), 1, 0,
                         sizeof(VkMultiDrawIndexedInfoEXT), shared_offset);
    });
    return job.read_color();
  };
  auto check = [&](const std::vector<uint8_t>& pixels, const std::array<std::array<uint8_t, 4>, 4>& expected) {
    for (uint32_t y = 0; y < 64; y += 9)
      for (uint32_t x = 0; x < 64; ++x)
        for (int c = 0; c < 4; ++c)
          ASSERT_EQ(expected[x / 16][c], pixels[(y * 64 + x) * 4 + c]) << "pixel (" << x << ", " << y << ") channel " << c;
  };
  // Own offsets: entry 0 draws column 0, entry 1 column 3 (offset 12), entry 2 column 2 (offset 8).
  check(draw({{0, 6, 0}, {0, 6, 12}, {0, 6, 8}}, nullptr), {{{0, 0, 0, 0}, {0, 0, 0, 0}, {2, 8, 0, 0}, {1, 12, 0, 0}}});
  // Shared offset 4 (the entries' 99 is ignored): entry 0 draws column 1, entry 1 (indices 4..7) column 2.
  const int32_t shared = 4;
  check(draw({{0, 6, 99}, {6, 6, 99}}, &shared), {{{0, 0, 0, 0}, {0, 4, 0, 0}, {1, 4, 0, 0}, {0, 0, 0, 0}}});
}

}  // namespace
}  // namespace kiln::test
