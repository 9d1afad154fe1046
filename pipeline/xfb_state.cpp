#include "pipeline/xfb_state.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "pipeline/draw.h"

namespace kiln::exec {

XfbPlan plan_transform_feedback(const abi::XfbLayout& layout) {
  XfbPlan plan;
  for (uint32_t k = 0; k < layout.capture_count; ++k) {
    const abi::XfbCapture& c = layout.captures[k];
    XfbBufferPlan& buffer = plan.buffers[c.buffer];
    buffer.stream = c.stream;  // a buffer's captures all belong to one stream
    buffer.stride = layout.stride[c.buffer];
    buffer.captures.emplace_back(k, c.offset);
    buffer.runs.emplace_back(c.offset, c.offset + 4u);
  }
  for (XfbBufferPlan& buffer : plan.buffers) {
    std::sort(buffer.runs.begin(), buffer.runs.end());
    size_t merged = 0;
    for (const auto& run : buffer.runs) {
      if (merged && run.first <= buffer.runs[merged - 1].second)
        buffer.runs[merged - 1].second = std::max(buffer.runs[merged - 1].second, run.second);
      else
        buffer.runs[merged++] = run;
    }
    buffer.runs.resize(merged);
    plan.captures |= buffer.used();
  }
  return plan;
}

void place_transform_feedback(XfbState& state, const XfbPlan& plan, const gfx::XfbBatch& batch, DrawCounters* counters,
                              std::vector<XfbCopy>& copies) {
  for (uint32_t stream = 0; stream < abi::kMaxVertexStreams; ++stream) {
    const uint64_t primitives = batch.primitives[stream];
    if (primitives == 0) continue;
    const uint32_t vertices = batch.vertices_per_primitive[stream];
    auto of_stream = [&](const XfbBufferPlan& buffer) { return buffer.used() && buffer.stream == stream; };
    uint64_t fit = primitives;
    for (uint32_t b = 0; b < abi::kMaxXfbBuffers; ++b) {
      if (!of_stream(plan.buffers[b])) continue;
      const uint64_t bytes = uint64_t(vertices) * plan.buffers[b].stride;
      const XfbState::Binding& binding = state.buffers[b];
      const uint64_t room = binding.data ? binding.size - std::min(binding.size, state.position[b]) : 0;
      fit = std::min(fit, room / bytes);
    }
    for (uint32_t b = 0; b < abi::kMaxXfbBuffers && fit; ++b) {
      if (!of_stream(plan.buffers[b])) continue;
      copies.push_back({state.buffers[b].data + state.position[b], batch.data[b].data(), &plan.buffers[b], uint32_t(fit * vertices)});
      state.position[b] += fit * vertices * plan.buffers[b].stride;
    }
    if (counters) {
      counters->xfb_written[stream].fetch_add(fit, std::memory_order_relaxed);
      counters->xfb_needed[stream].fetch_add(primitives, std::memory_order_relaxed);
    }
  }
}

void copy_transform_feedback(const XfbCopy& copy) {
  const XfbBufferPlan& buffer = *copy.buffer;
  const uint32_t stride = buffer.stride;
  if (buffer.runs.size() == 1 && buffer.runs[0].first == 0 && buffer.runs[0].second == stride) {  // no holes: one copy
    memcpy(copy.destination, copy.source, size_t(copy.vertices) * stride);
    return;
  }
  for (uint32_t v = 0; v < copy.vertices; ++v)
    for (const auto& [begin, end] : buffer.runs)
      memcpy(copy.destination + size_t(v) * stride + begin, copy.source + size_t(v) * stride + begin, end - begin);
}

}  // namespace kiln::exec
