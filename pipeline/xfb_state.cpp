#include "pipeline/xfb_state.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "pipeline/draw.h"

namespace kiln::exec {

void place_transform_feedback(XfbState& state, const abi::XfbLayout& layout, const gfx::XfbBatch& batch,
                              DrawCounters* counters, std::vector<XfbCopy>& copies) {
  for (uint32_t stream = 0; stream < abi::kMaxVertexStreams; ++stream) {
    const uint64_t primitives = batch.primitives[stream];
    if (primitives == 0) continue;
    const uint32_t vertices = batch.vertices_per_primitive[stream];
    bool buffer_of_stream[abi::kMaxXfbBuffers] = {};
    for (uint32_t k = 0; k < layout.capture_count; ++k)
      if (layout.captures[k].stream == stream) buffer_of_stream[layout.captures[k].buffer] = true;
    uint64_t fit = primitives;
    for (uint32_t b = 0; b < abi::kMaxXfbBuffers; ++b) {
      if (!buffer_of_stream[b] || layout.stride[b] == 0) continue;
      const uint64_t bytes = uint64_t(vertices) * layout.stride[b];
      const XfbState::Binding& binding = state.buffers[b];
      const uint64_t room = binding.data ? binding.size - std::min(binding.size, state.position[b]) : 0;
      fit = std::min(fit, room / bytes);
    }
    for (uint32_t b = 0; b < abi::kMaxXfbBuffers && fit; ++b) {
      if (!buffer_of_stream[b] || layout.stride[b] == 0) continue;
      copies.push_back({state.buffers[b].data + state.position[b], batch.data[b].data(), &layout, b, uint32_t(fit * vertices)});
      state.position[b] += fit * vertices * layout.stride[b];
    }
    if (counters) {
      counters->xfb_written[stream].fetch_add(fit, std::memory_order_relaxed);
      counters->xfb_needed[stream].fetch_add(primitives, std::memory_order_relaxed);
    }
  }
}

void copy_transform_feedback(const XfbCopy& copy) {
  const abi::XfbLayout& layout = *copy.layout;
  const uint32_t stride = layout.stride[copy.buffer];
  // The bytes of a vertex the captures cover, as merged [begin, end) runs.
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  for (uint32_t k = 0; k < layout.capture_count; ++k)
    if (layout.captures[k].buffer == copy.buffer) runs.emplace_back(layout.captures[k].offset, layout.captures[k].offset + 4u);
  std::sort(runs.begin(), runs.end());
  size_t merged = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (merged && runs[i].first <= runs[merged - 1].second) runs[merged - 1].second = std::max(runs[merged - 1].second, runs[i].second);
    else runs[merged++] = runs[i];
  }
  runs.resize(merged);
  if (runs.size() == 1 && runs[0].first == 0 && runs[0].second == stride) {  // no holes: one copy
    memcpy(copy.destination, copy.source, size_t(copy.vertices) * stride);
    return;
  }
  for (uint32_t v = 0; v < copy.vertices; ++v)
    for (const auto& [begin, end] : runs)
      memcpy(copy.destination + size_t(v) * stride + begin, copy.source + size_t(v) * stride + begin, end - begin);
}

}  // namespace kiln::exec
