#pragma once
// Transform feedback state of a queue's execution (VK_EXT_transform_feedback; docs/design/
// transform-feedback.md): the bound buffers, where each buffer's next vertex goes, and whether
// capture is active. The executor changes it at Bind/Begin/End; draws capture per batch on the
// workers (gfx::capture_transform_feedback), and the queue thread places each batch's bytes in
// API order here, so buffer offsets never depend on which worker ran what.
#include <cstdint>
#include <vector>

#include "common/abi/kernel_abi.h"
#include "pipeline/graphics/draw_types.h"

namespace kiln::exec {

struct DrawCounters;

struct XfbState {
  struct Binding {
    uint8_t* data = nullptr;  // the bound range (buffer + offset); null when nothing is bound
    uint64_t size = 0;        // bytes of it transform feedback may write
  };
  Binding buffers[abi::kMaxXfbBuffers];
  uint64_t position[abi::kMaxXfbBuffers] = {};  // the next vertex's byte offset in each range
  bool active = false;
};

// The per-buffer plan of a stage's captures (done once, when the pipeline is created).
XfbPlan plan_transform_feedback(const abi::XfbLayout& layout);

// One copy of captured vertices into a buffer: only the bytes a capture covers are written (the
// rest of each vertex's stride keeps what the buffer held).
struct XfbCopy {
  uint8_t* destination;
  const uint8_t* source;
  const XfbBufferPlan* buffer;
  uint32_t vertices;
};

// Gives a batch's captured primitives their place in the buffers, in API order (call batch after
// batch): per stream, the primitives that fit whole in every buffer of the stream are written and
// the stream's positions advance; once one does not fit, nothing more of the stream is written
// (but every primitive counts as needed). The copies to make are appended to `copies`.
void place_transform_feedback(XfbState& state, const XfbPlan& plan, const gfx::XfbBatch& batch, DrawCounters* counters,
                              std::vector<XfbCopy>& copies);
void copy_transform_feedback(const XfbCopy& copy);

}  // namespace kiln::exec
