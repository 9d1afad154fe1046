#pragma once
// Transform feedback plumbing for the end-to-end tests (VK_EXT_transform_feedback): the
// extension's commands, capture and counter buffers pre-filled with a marker byte, the barriers
// that make captured bytes visible, queries, and the CPU side of a capture: the bytes a buffer
// must hold afterwards (written records over the marker, everything else untouched) and the
// values the xfb_* shaders write (tests/shaders/xfb_values.glsl).
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "e2e/vk_fixture.h"

namespace kiln::test {

// Every capture and counter buffer starts filled with this byte: bytes a capture must not write
// keep it.
inline constexpr uint8_t kXfbFill = 0xAB;

// A range of a capture buffer bound to a transform feedback binding.
struct XfbBinding {
  const Buffer* buffer;
  VkDeviceSize offset = 0;
  VkDeviceSize size = VK_WHOLE_SIZE;
};

// A 4-byte counter in a counter buffer; a null buffer means none (capture starts at the bound
// offset, nothing is saved).
struct CounterSlot {
  const Buffer* buffer = nullptr;
  VkDeviceSize offset = 0;
};

// The extension's commands (vkGetDeviceProcAddr), recorded with the tests' argument types.
class XfbCommands {
 public:
  explicit XfbCommands(VkDevice device);
  // vkCmdBindTransformFeedbackBuffersEXT of bindings first_binding, first_binding + 1, ...
  void bind(VkCommandBuffer cb, const std::vector<XfbBinding>& bindings, uint32_t first_binding = 0) const;
  // vkCmdBegin/EndTransformFeedbackEXT with counters[i] for binding i (none: no counters).
  void begin(VkCommandBuffer cb, const std::vector<CounterSlot>& counters = {}) const;
  void end(VkCommandBuffer cb, const std::vector<CounterSlot>& counters = {}) const;
  // vkCmdBegin/EndQueryIndexedEXT: a query of vertex stream `stream`.
  void begin_query(VkCommandBuffer cb, VkQueryPool pool, uint32_t query, uint32_t stream) const;
  void end_query(VkCommandBuffer cb, VkQueryPool pool, uint32_t query, uint32_t stream) const;
  // vkCmdDrawIndirectByteCountEXT reading its byte count from `counter`.
  void draw_indirect_byte_count(VkCommandBuffer cb, uint32_t instance_count, uint32_t first_instance,
                                const CounterSlot& counter, uint32_t counter_offset, uint32_t vertex_stride) const;

 private:
  PFN_vkCmdBindTransformFeedbackBuffersEXT bind_ = nullptr;
  PFN_vkCmdBeginTransformFeedbackEXT begin_ = nullptr;
  PFN_vkCmdEndTransformFeedbackEXT end_ = nullptr;
  PFN_vkCmdBeginQueryIndexedEXT begin_query_ = nullptr;
  PFN_vkCmdEndQueryIndexedEXT end_query_ = nullptr;
  PFN_vkCmdDrawIndirectByteCountEXT draw_indirect_byte_count_ = nullptr;
};

// A capture buffer (also usable as a vertex buffer) / a counter buffer (also an indirect
// buffer), host-visible and filled with kXfbFill.
Buffer create_capture_buffer(TestDevice& device, VkDeviceSize size);
Buffer create_counter_buffer(TestDevice& device, VkDeviceSize size);
// An index buffer of `indices` (32-bit), for the draws with primitive restart.
Buffer create_index_buffer(TestDevice& device, const std::vector<uint32_t>& indices);
// The 4-byte value at `offset` of a counter buffer (after xfb_to_host_barrier and the wait).
uint32_t read_counter(const Buffer& counter, VkDeviceSize offset);

// Outside a render pass: captured data and counters written so far are visible to later
// captures (a resumed capture, its counter), indirect byte-count draws and vertex input.
void xfb_barrier(VkCommandBuffer cb);
// Outside a render pass: captured data and counters are visible to the host after the wait.
void xfb_to_host_barrier(VkCommandBuffer cb);

// A query pool destroyed with the device; pipeline_statistics for PIPELINE_STATISTICS pools.
VkQueryPool create_query_pool(TestDevice& device, VkQueryType type, uint32_t count,
                              VkQueryPipelineStatisticFlags pipeline_statistics = 0);
// vkGetQueryPoolResults of queries [first, first + count) as 64-bit values (WAIT), values_per_query
// each (2 for transform feedback stream queries: primitives written, then primitives needed).
std::vector<uint64_t> query_results(TestDevice& device, VkQueryPool pool, uint32_t first, uint32_t count,
                                    uint32_t values_per_query = 1);

// --- The CPU side --------------------------------------------------------------------------------

using Vec4 = std::array<float, 4>;

// The values of tests/shaders/xfb_values.glsl, exactly as the shaders compute them: xfb_value(i,
// k) is output k of vertex i (distinct for every i < 250, k < 8, each component exact in
// float); xfb_position(i) a clip-space position distinct for every i < 29.
Vec4 xfb_value(uint32_t vertex, uint32_t k);
Vec4 xfb_position(uint32_t vertex);

// The bytes a capture buffer must hold: kXfbFill except where records are put.
class ExpectedBytes {
 public:
  explicit ExpectedBytes(size_t size) : bytes_(size, kXfbFill) {}
  template <typename T>
  void put(size_t offset, const T& value) {
    if (offset + sizeof(T) > bytes_.size()) {
      ADD_FAILURE() << "ExpectedBytes: a record at " << offset << " runs past the buffer's " << bytes_.size() << " bytes";
      return;
    }
    std::memcpy(bytes_.data() + offset, &value, sizeof(T));
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  size_t size() const { return bytes_.size(); }

 private:
  std::vector<uint8_t> bytes_;
};

// Compares a buffer's bytes with `want` 4-byte word by word; one failure for all mismatches,
// naming the first few (offset, value as hex and float, whether it was expected untouched).
void expect_bytes_eq(const Buffer& got, const ExpectedBytes& want, const std::string& what);

// Writes one captured vertex (`vertex` is the id the test gave it) at `offset` of `bytes`.
using VertexRecord = std::function<void(ExpectedBytes& bytes, size_t offset, uint32_t vertex)>;

// Puts primitives (each a list of vertex ids, in the order the spec's primitive topology gives)
// one after another from `offset`, every vertex `stride` bytes after the last; returns the offset
// after them. The spec fixes the order of a primitive's vertices only up to where it starts unless
// transformFeedbackPreservesProvokingVertex is enabled ("may write out any vertex within the
// primitive first", the rest in the topology's winding order): with `exact_order` false, each
// primitive is rotated to start where `got` says it does (the rotation whose bytes match, if one
// does), so that only the winding order is checked.
size_t put_primitives(ExpectedBytes& bytes, size_t offset, size_t stride, const std::vector<std::vector<uint32_t>>& primitives,
                      const VertexRecord& record, bool exact_order = true, const Buffer* got = nullptr);

// xfb_capture.vert's record of a vertex (buffer 0): xfb_value(vertex, 0) at 0, xfb_value(vertex,
// 1) at 16.
inline constexpr uint32_t kCaptureStride = 32;
void put_capture_vertex(ExpectedBytes& bytes, size_t offset, uint32_t vertex);

// xfb_four_buffers.vert's strides and its records of point `point` in buffers 0..3 (`bytes[b]`,
// whose capture starts at `starts[b]`).
inline constexpr std::array<uint32_t, 4> kFourBufferStrides{16, 20, 12, 28};
void put_four_buffers_point(std::vector<ExpectedBytes>& bytes, const std::array<size_t, 4>& starts, uint32_t point);

// xfb_streams.glsl's records for `points` input points: buffer 0 (stream 0, stride 16) one per
// point, buffer 1 (stream 1, stride 32) two per point, of which the first `stream1_records` are
// put.
inline constexpr uint32_t kStream0Stride = 16, kStream1Stride = 32;
void put_stream_records(ExpectedBytes& buffer0, ExpectedBytes& buffer1, uint32_t points, uint32_t stream1_records);

// The primitives an indexed draw of `indices` assembles with primitive restart (kRestartIndex
// cuts the strip), as vertex ids (the indices).
inline constexpr uint32_t kRestartIndex = 0xFFFFFFFFu;
std::vector<std::vector<uint32_t>> assembled_primitives_with_restart(VkPrimitiveTopology topology,
                                                                     const std::vector<uint32_t>& indices);

}  // namespace kiln::test
