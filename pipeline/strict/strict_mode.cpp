#include "pipeline/strict/strict_mode.h"

#include <algorithm>
#include <cinttypes>
#include <random>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "common/debug_printf.h"
#include "common/env.h"
#include "common/log.h"

namespace kiln::exec::strict {
namespace {

// The memory of `a`: its buffer or image (with the application's name for it, when it gave one)
// and byte range, or its address when only that is known.
std::string describe(const TrackedAccess& a, const DebugReporter* reporter) {
  char text[160];
  const uint64_t size = a.memory.end - a.memory.begin;
  if (!a.resource) {
    snprintf(text, sizeof text, "memory at %#" PRIxPTR " (%" PRIu64 " bytes)", a.memory.begin, size);
    return text;
  }
  const std::string name = reporter ? reporter->object_name(a.resource) : "";
  snprintf(text, sizeof text, "%s %p bytes [%" PRIu64 ", %" PRIu64 ")", a.image ? "image" : "buffer", a.resource,
           a.resource_offset, a.resource_offset + size);
  if (name.empty()) return text;
  std::string out = text;
  out.insert(out.find(' '), " \"" + name + "\"");
  return out;
}

std::string stage_access(Stages stage, Accesses access) {
  return stage_names(stage) + "/" + access_name(access);
}

}  // namespace

void fill_poison(uint8_t* data, uint64_t size) {
  for (uint64_t i = 0; i < size; ++i) data[i] = kPoison[i & 3];
}


StrictMode::StrictMode(SyncHub& hub, const DebugReporter* reporter)
    : hub_(hub), reporter_(reporter), seed_(uint64_t(env_int("KILN_STRICT_SEED", 1))) {
  log(LogLevel::Info, "strict mode: hazards are reported, undefined contents poisoned, unordered dispatches run in a "
      "shuffled order (KILN_STRICT_SEED=%llu)", (unsigned long long)seed_);
}

std::vector<size_t> StrictMode::shuffled_order(size_t count) {
  std::vector<size_t> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = i;
  std::lock_guard lock(mutex_);
  std::mt19937_64 random(seed_ * 0x9E3779B97F4A7C15ull + orders_drawn_++);
  std::shuffle(order.begin(), order.end(), random);
  return order;
}

void StrictMode::new_memory(uint8_t* data, uint64_t size, bool poison) {
  if (poison) fill_poison(data, size);
  std::lock_guard lock(mutex_);
  tracker_.forget(uintptr_t(data), uintptr_t(data) + size);
}

void StrictMode::deliver(VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* id, const std::string& text) {
  if (reporter_) {
    reporter_->report(severity, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, id, text);
    return;
  }
  const LogLevel level = severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT     ? LogLevel::Error
                         : severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT ? LogLevel::Warn
                                                                                       : LogLevel::Info;
  log(level, "%s: %s", id, text.c_str());
}

void StrictMode::report_shader_fault(const void* strict, const abi::ShaderFaultCall* call) {
  auto* self = static_cast<StrictMode*>(const_cast<void*>(strict));
  {
    std::lock_guard lock(self->mutex_);
    if (!self->reported_.insert({-3, call->site, nullptr, nullptr}).second) return;
  }
  const uint32_t lane = uint32_t(__builtin_ctz(call->lanes));
  std::string where = invocation_name(call->stage, call->ids, lane) + ": " + call->site;
  if (call->file) where += " (" + std::string(call->file) + ":" + std::to_string(call->line) + ")";
  const std::string lanes = " (" + std::to_string(__builtin_popcount(call->lanes)) + " lane(s) of that kernel call)";
  if (call->kind == abi::kShaderFaultPoisonRead) {
    self->deliver(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, "KILN-strict-read-of-poison",
                  "Kiln strict mode: read of poison: " + where + " read 0xEFBEADDE, the poison strict mode fills new " +
                      "memory and UNDEFINED transitions with" + lanes +
                      ": memory nothing wrote since it was allocated (or made undefined); a GPU returns whatever was " +
                      "there before.");
    return;
  }
  const char* range = call->kind == abi::kShaderFaultImageBounds ? "its image view's extent"
                                                                 : "the range of its buffer or texel buffer descriptor";
  self->deliver(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "KILN-strict-out-of-bounds",
                "Kiln strict mode: out-of-bounds shader access: " + where + " reaches outside " + range + lanes +
                    ". Kiln's robust access reads zero there and drops writes; without robust access a GPU may read "
                    "other data, overwrite it or fault.");
}

void StrictMode::report_event_deadlock(const Command* wait, uint32_t queue) {
  std::lock_guard lock(mutex_);
  if (!reported_.insert({-2, wait, nullptr, nullptr}).second) return;
  const std::string text = "Kiln strict mode: event waited before it is set: vkCmdWaitEvents (queue " + std::to_string(queue) +
                           ") waits for an event that only a later vkCmdSetEvent of the same command buffer sets; a GPU "
                           "waits forever. Kiln does not wait.";
  const char* id = "KILN-strict-event-wait-before-set";
  deliver(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, id, text);
}

void StrictMode::image_destroyed(const mem::Image* image) {
  std::lock_guard lock(mutex_);
  layouts_.forget(image);
}

void StrictMode::transition_layout(const ImageDependency& d, const AccessTag& tag, std::vector<LayoutMismatch>* out) {
  if (!d.image) return;
  if (d.old_layout != VK_IMAGE_LAYOUT_UNDEFINED) layouts_.check(*d.image, d.range, d.old_layout, out);
  if (d.new_layout != d.old_layout) layouts_.set(*d.image, d.range, d.new_layout, tag.command_name);
}

void StrictMode::track_layouts(const Command* cmd, const AccessTag& tag, const CommandContext& context) {
  std::vector<LayoutMismatch> mismatches;
  auto transitions = [&](const DependencyInfo& deps) {
    // A barrier inside a render pass instance (a subpass self-dependency) names the subpass's
    // layouts, which are not tracked; it cannot transition anything.
    if (context.targets) return;
    for (uint32_t i = 0; i < deps.image_count; ++i) transition_layout(deps.images[i], tag, &mismatches);
  };
  if (cmd->type == CommandType::Barrier) transitions(static_cast<const BarrierCmd*>(cmd)->dependencies);
  if (cmd->type == CommandType::WaitEvents) transitions(static_cast<const WaitEventsCmd*>(cmd)->dependencies);
  if (cmd->type == CommandType::ImageLayouts) {
    const auto* c = static_cast<const ImageLayoutsCmd*>(cmd);
    for (uint32_t i = 0; i < c->image_count; ++i) transition_layout(c->images[i], tag, &mismatches);
  }
  std::vector<LayoutUse> uses;
  collect_layout_uses(cmd, &uses);
  for (const LayoutUse& u : uses) layouts_.check(*u.image, u.range, u.layout, &mismatches);
  for (const LayoutMismatch& m : mismatches) report(m, tag);
}

void StrictMode::report(const LayoutMismatch& m, const AccessTag& tag) {
  if (!reported_.insert({-1, m.image, tag.command, nullptr}).second) return;
  char where[160];
  const std::string name = reporter_ ? reporter_->object_name(m.image) : "";
  snprintf(where, sizeof where, "image%s%s%s %p (aspect 0x%x, mip level %u, array layer %u)", name.empty() ? "" : " \"",
           name.c_str(), name.empty() ? "" : "\"", static_cast<const void*>(m.image), unsigned(m.aspect), m.mip, m.layer);
  const std::string text = std::string("Kiln strict mode: wrong layout: ") + tag.command_name + " (queue " +
                           std::to_string(tag.queue) + ") names layout " + layout_name(m.named) + " for " + where + ", which is in layout " +
                           layout_name(m.current) + " (since " + m.set_by + ").";
  const char* id = "KILN-strict-wrong-layout";
  deliver(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, id, text);
}

void StrictMode::apply(const DependencyInfo& deps, const AccessTag& tag, std::vector<Hazard>* hazards,
                       std::vector<TrackedAccess>* hazard_accesses) {
  auto expand = [](const MemoryDependency& m) {
    return expand_dependency(m.src_stages, m.src_access, m.dst_stages, m.dst_access);
  };
  for (uint32_t i = 0; i < deps.memory_count; ++i) tracker_.barrier(expand(deps.memory[i]), tag.queue, 0, UINTPTR_MAX);
  for (uint32_t i = 0; i < deps.buffer_count; ++i) {
    const BufferDependency& b = deps.buffers[i];
    uintptr_t begin, end;
    if (buffer_bytes(b.buffer, b.offset, b.size, &begin, &end)) tracker_.barrier(expand(b.masks), tag.queue, begin, end);
  }
  for (uint32_t i = 0; i < deps.image_count; ++i) {
    const ImageDependency& d = deps.images[i];
    if (!d.image || !d.image->data) continue;
    std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
    subresource_ranges(*d.image, d.range, &ranges);
    const Dependency dep = expand(d.masks);
    for (const auto& [begin, end] : ranges) {
      if (d.old_layout == d.new_layout) {
        tracker_.barrier(dep, tag.queue, begin, end);
        continue;
      }
      tracker_.layout_transition(dep, tag, begin, end, d.old_layout == VK_IMAGE_LAYOUT_UNDEFINED, hazards);
      TrackedAccess what;
      what.memory = {begin, end, 0, 0, true};
      what.resource = d.image;
      what.image = true;
      what.resource_offset = begin - uintptr_t(d.image->data);
      hazard_accesses->resize(hazards->size(), what);
      // Contents are undefined after a transition from UNDEFINED: make them recognisably so.
      if (d.old_layout == VK_IMAGE_LAYOUT_UNDEFINED) fill_poison(reinterpret_cast<uint8_t*>(begin), end - begin);
    }
  }
}

void StrictMode::before_command(const Command* cmd, uint32_t queue, uint64_t synchronized, const CommandContext& context) {
  std::vector<TrackedAccess> accesses;
  collect_accesses(cmd, context, &accesses);
  std::lock_guard lock(mutex_);
  AccessTag tag{cmd, command_name(cmd->type), tracker_.begin_command(), queue, 0, synchronized};
  hub_.commands_begun.store(tag.seq);
  // A render pass instance ends with "no render targets" (its load-op clears may come before its
  // targets, as vkCmdBeginRendering records them): the next instance's attachment accesses are a
  // new scope. All subpasses of one render pass share a scope.
  while (queue_scope_.size() <= queue) queue_scope_.push_back(++attachment_scopes_);
  if (cmd->type == CommandType::SetRenderTargets) {
    const auto* c = static_cast<const SetRenderTargetsCmd*>(cmd);
    if (!c->targets && !c->suspends) queue_scope_[queue] = ++attachment_scopes_;
  }

  std::vector<Hazard> hazards;
  std::vector<TrackedAccess> hazard_accesses;
  if (cmd->type == CommandType::Barrier) apply(static_cast<const BarrierCmd*>(cmd)->dependencies, tag, &hazards, &hazard_accesses);
  if (cmd->type == CommandType::WaitEvents)
    apply(static_cast<const WaitEventsCmd*>(cmd)->dependencies, tag, &hazards, &hazard_accesses);
  for (const TrackedAccess& a : accesses) {
    AccessTag t = tag;
    t.attachment_scope = a.attachment ? queue_scope_[queue] : 0;
    tracker_.access(a.memory, t, &hazards);
    hazard_accesses.resize(hazards.size(), a);
  }
  // A grouped read (a view's subresources) is of undefined contents only if all of it is.
  std::map<uint32_t, size_t> group_size, group_undefined;
  for (const TrackedAccess& a : accesses)
    if (a.group) ++group_size[a.group];
  for (size_t i = 0; i < hazards.size(); ++i)
    if (hazards[i].kind == HazardKind::ReadOfUndefined && hazard_accesses[i].group) ++group_undefined[hazard_accesses[i].group];
  for (size_t i = 0; i < hazards.size(); ++i) {
    const uint32_t group = hazard_accesses[i].group;
    if (hazards[i].kind == HazardKind::ReadOfUndefined && group && group_undefined[group] < group_size[group]) continue;
    report(hazards[i], hazard_accesses[i], tag);
  }
  track_layouts(cmd, tag, context);
}

void StrictMode::report(const Hazard& h, const TrackedAccess& a, const AccessTag& tag) {
  // Once per kind, pair of commands and resource (a command buffer submitted every frame reports once).
  if (!reported_.insert({int(h.kind), h.prior.command, tag.command, a.resource ? a.resource : (const void*)a.memory.begin}).second)
    return;
  TrackedAccess conflict = a;
  conflict.resource_offset += h.begin - a.memory.begin;
  conflict.memory.begin = h.begin;
  conflict.memory.end = h.end;
  const bool transition = a.memory.stage == 0;
  std::string text = std::string("Kiln strict mode: ") + hazard_name(h.kind) + ": " + tag.command_name + " (queue " +
                     std::to_string(tag.queue) + ") " + (transition ? "transitions the layout of" : a.memory.write ? "writes" : "reads") +
                     " " + describe(conflict, reporter_);
  if (!transition) text += " at " + stage_access(a.memory.stage, a.memory.access);
  const std::string prior = stage_access(h.prior_stage, h.prior_access);
  if (h.kind == HazardKind::ReadOfUndefined) {
    text += std::string(", whose contents are undefined: ") + h.prior.command_name +
            " transitioned it from VK_IMAGE_LAYOUT_UNDEFINED and nothing has written it since (strict mode filled it with "
            "the bytes DE AD BE EF).";
  } else {
    text += std::string(", after ") + h.prior.command_name + " (queue " + std::to_string(h.prior.queue) + ") " +
            (h.kind == HazardKind::WriteAfterRead ? "read" : "wrote") + " it at " + prior + ", with no ";
    if (h.prior.queue != tag.queue)
      text += "semaphore wait between the queues ordering them.";
    else if (h.kind == HazardKind::WriteAfterRead)
      text += "execution dependency between them: a barrier whose source stages include " + stage_names(h.prior_stage) +
              (transition ? " must do the transition." : " and destination stages include " + stage_names(a.memory.stage) + ".");
    else
      text += "dependency that makes the write " + std::string(h.kind == HazardKind::ReadAfterWrite ? "visible" : "available") +
              (transition ? ": the barrier doing the transition needs " + prior + " in its source scope."
                          : ": a barrier from " + prior + " to " + stage_access(a.memory.stage, a.memory.access) + ".");
  }
  // Both accesses are shaders' whole bindings: Kiln knows which bindings a shader uses, not which
  // bytes, so it cannot tell whether they meet (dispatches often work on disjoint parts of one
  // buffer). Reported as "possible", at INFO severity.
  const bool possible = h.prior_coarse && a.memory.coarse && h.kind != HazardKind::ReadOfUndefined;
  if (possible)
    text += " Possible only: both commands' shaders may touch any part of the binding, and Kiln cannot tell whether "
            "they touch the same bytes.";
  const char* id = h.kind == HazardKind::ReadOfUndefined ? "KILN-strict-read-of-undefined"
                   : possible ? (h.kind == HazardKind::ReadAfterWrite ? "KILN-strict-possible-read-after-write"
                                                                      : "KILN-strict-possible-write-after-read")
                   : h.kind == HazardKind::ReadAfterWrite  ? "KILN-strict-read-after-write"
                   : h.kind == HazardKind::WriteAfterRead  ? "KILN-strict-write-after-read"
                                                           : "KILN-strict-write-after-write";
  // Reading undefined contents is allowed (the values are just undefined); the hazards are races.
  const auto severity = possible ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT
                        : h.kind == HazardKind::ReadOfUndefined ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT
                                                                : VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  deliver(severity, id, text);
}

}  // namespace kiln::exec::strict
