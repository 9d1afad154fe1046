#include "pipeline/strict/hazard_tracker.h"

#include <algorithm>
#include <optional>

namespace kiln::exec::strict {

const char* hazard_name(HazardKind kind) {
  switch (kind) {
    case HazardKind::ReadAfterWrite: return "read-after-write";
    case HazardKind::WriteAfterRead: return "write-after-read";
    case HazardKind::WriteAfterWrite: return "write-after-write";
    case HazardKind::ReadOfUndefined: return "read-of-undefined-contents";
  }
  return "?";
}

bool HazardTracker::settled(const AccessTag& prior, const AccessTag& now) const {
  if (prior.seq == now.seq) return true;  // one command's own accesses
  if (prior.seq <= now.synchronized) return true;
  return now.attachment_scope != 0 && prior.attachment_scope == now.attachment_scope;
}

void HazardTracker::split_at(uintptr_t at) {
  auto it = segments_.upper_bound(at);
  if (it == segments_.begin()) return;
  --it;
  if (it->first == at || it->second.end <= at) return;
  Segment tail = it->second;
  it->second.end = at;
  segments_.emplace(at, std::move(tail));
}

template <typename Fn>
void HazardTracker::for_range(uintptr_t begin, uintptr_t end, bool fill, Fn&& fn) {
  if (begin >= end) return;
  split_at(begin);
  split_at(end);
  uintptr_t at = begin;
  auto it = segments_.lower_bound(begin);
  while (at < end) {
    if (it == segments_.end() || it->first > at) {
      // A gap up to the next segment (or the end).
      const uintptr_t gap_end = it == segments_.end() ? end : std::min(end, it->first);
      if (fill) {
        Segment s;
        s.end = gap_end;
        it = segments_.emplace_hint(it, at, std::move(s));
        fn(it->first, it->second);
        ++it;
      }
      at = gap_end;
      continue;
    }
    fn(it->first, it->second);
    at = it->second.end;
    ++it;
  }
}

void HazardTracker::add_hazard(std::vector<Hazard>* out, HazardKind kind, const AccessTag& prior, Stages stage,
                               Accesses access, uintptr_t begin, uintptr_t end, bool prior_coarse) {
  for (Hazard& h : *out) {
    if (h.kind == kind && h.prior.seq == prior.seq && h.end == begin) {  // the next piece of the same conflict
      h.end = end;
      return;
    }
    if (h.kind == kind && h.prior.seq == prior.seq) return;
  }
  out->push_back({kind, prior, stage, access, begin, end, prior_coarse});
}

void HazardTracker::access(const MemoryAccess& a, const AccessTag& tag, std::vector<Hazard>* out) {
  // A coarse read (a whole view the shader may read only part of, e.g. one mip level) reads
  // undefined contents only when nothing of it is defined.
  bool all_undefined = true;
  std::optional<Write> undefined_by;
  for_range(a.begin, a.end, true, [&](uintptr_t begin, Segment& s) {
    Write& w = s.write;
    const bool write_pending = w.valid && !settled(w.tag, tag) && !(w.atomic && a.atomic);
    if (!a.write) {
      const bool undefined = w.valid && w.undefined;
      all_undefined &= undefined;
      if (undefined && !a.coarse) add_hazard(out, HazardKind::ReadOfUndefined, w.tag, w.stage, w.access, begin, s.end);
      if (undefined && !undefined_by) undefined_by = w;
      if (write_pending && !(w.tag.queue == tag.queue && (w.chain & a.stage) && (w.visible & a.access)))
        add_hazard(out, HazardKind::ReadAfterWrite, w.tag, w.stage, w.access, begin, s.end, w.coarse);
      for (Read& r : s.reads) {
        if (r.stage == a.stage && r.tag.queue == tag.queue) {
          r.tag = tag;
          r.access = a.access;
          r.chain = 0;
          r.atomic = a.atomic;
          r.coarse = a.coarse;
          return;
        }
      }
      s.reads.push_back({tag, a.stage, a.access, 0, a.atomic, a.coarse});
      return;
    }
    for (const Read& r : s.reads)
      if (!settled(r.tag, tag) && !(r.atomic && a.atomic) && !(r.tag.queue == tag.queue && (r.chain & a.stage)))
        add_hazard(out, HazardKind::WriteAfterRead, r.tag, r.stage, r.access, begin, s.end, r.coarse);
    if (write_pending && !(w.coarse && a.coarse) && !(w.tag.queue == tag.queue && (w.chain & a.stage) && w.available))
      add_hazard(out, HazardKind::WriteAfterWrite, w.tag, w.stage, w.access, begin, s.end);
    w = Write{true, tag, a.stage, a.access, 0, false, 0, a.atomic, a.coarse};
    s.reads.clear();
  });
  if (!a.write && a.coarse && all_undefined && undefined_by)
    add_hazard(out, HazardKind::ReadOfUndefined, undefined_by->tag, undefined_by->stage, undefined_by->access, a.begin, a.end);
}

void HazardTracker::barrier(const Dependency& dep, uint32_t queue, uintptr_t begin, uintptr_t end) {
  // A global barrier touches every segment without splitting; a ranged one splits at its ends.
  auto apply = [&](uintptr_t, Segment& s) {
    Write& w = s.write;
    if (w.valid && w.tag.queue == queue && ((w.stage & dep.src_stages) || (w.chain & dep.src_stages))) {
      if (w.access & dep.src_access) w.available = true;
      w.chain |= dep.dst_stages;
      if (w.available) w.visible |= dep.dst_access;
    }
    for (Read& r : s.reads)
      if (r.tag.queue == queue && ((r.stage & dep.src_stages) || (r.chain & dep.src_stages))) r.chain |= dep.dst_stages;
  };
  if (begin == 0 && end == UINTPTR_MAX) {
    for (auto& [at, s] : segments_) apply(at, s);
  } else {
    for_range(begin, end, false, apply);
  }
}

void HazardTracker::layout_transition(const Dependency& dep, const AccessTag& tag, uintptr_t begin, uintptr_t end,
                                      bool discards, std::vector<Hazard>* out) {
  for_range(begin, end, true, [&](uintptr_t at, Segment& s) {
    Write& w = s.write;
    if (w.valid && !settled(w.tag, tag)) {
      const bool ordered = w.tag.queue == tag.queue && ((w.stage & dep.src_stages) || (w.chain & dep.src_stages));
      if (!ordered || !(w.available || (w.access & dep.src_access)))
        add_hazard(out, HazardKind::WriteAfterWrite, w.tag, w.stage, w.access, at, s.end);
    }
    for (const Read& r : s.reads)
      if (!settled(r.tag, tag) && !(r.tag.queue == tag.queue && ((r.stage & dep.src_stages) || (r.chain & dep.src_stages))))
        add_hazard(out, HazardKind::WriteAfterRead, r.tag, r.stage, r.access, at, s.end);
    // The transition itself: visible to the destination scope of its barrier.
    // A transition between defined layouts keeps the contents, defined or not.
    const bool undefined = discards || (w.valid && w.undefined);
    w = Write{true, tag, 0, 0, dep.dst_stages, true, dep.dst_access, false, false, undefined};
    s.reads.clear();
  });
}

void HazardTracker::forget(uintptr_t begin, uintptr_t end) {
  if (begin >= end) return;
  split_at(begin);
  split_at(end);
  segments_.erase(segments_.lower_bound(begin), segments_.lower_bound(end));
}

}  // namespace kiln::exec::strict
