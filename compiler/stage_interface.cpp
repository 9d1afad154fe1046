#include "compiler/stage_interface.h"

#include <map>
#include <set>
#include <unordered_map>

namespace kiln::compiler {
namespace {

// Scalars of a type, in leaf order.
size_t count_scalars(const spirv::Module& m, Id type) {
  const spirv::Type& t = m.type(type);
  switch (t.kind) {
    case spirv::TypeKind::Vector:
    case spirv::TypeKind::Matrix:
    case spirv::TypeKind::Array: return t.count * count_scalars(m, t.element);
    case spirv::TypeKind::Struct: {
      size_t n = 0;
      for (Id member : t.members) n += count_scalars(m, member);
      return n;
    }
    default: return 1;
  }
}

// Transform feedback packing: a type's alignment is its largest component's size (8 with a
// 64-bit scalar in it, else 4); members and elements follow each other, each aligned.
uint32_t xfb_alignment(const spirv::Module& m, Id type) {
  const spirv::Type& t = m.type(type);
  switch (t.kind) {
    case spirv::TypeKind::Vector:
    case spirv::TypeKind::Matrix:
    case spirv::TypeKind::Array: return xfb_alignment(m, t.element);
    case spirv::TypeKind::Struct: {
      uint32_t a = 4;
      for (Id member : t.members) a = std::max(a, xfb_alignment(m, member));
      return a;
    }
    default: return t.width == 64 ? 8 : 4;
  }
}

// The byte offset of each scalar of `type` placed at `offset` (aligned first), in leaf order;
// returns the offset just past it.
uint32_t xfb_leaf_offsets(const spirv::Module& m, Id type, uint32_t offset, std::vector<uint32_t>* out) {
  const spirv::Type& t = m.type(type);
  const uint32_t align = xfb_alignment(m, type);
  offset = (offset + align - 1) / align * align;
  switch (t.kind) {
    case spirv::TypeKind::Vector:
    case spirv::TypeKind::Matrix:
    case spirv::TypeKind::Array:
      for (uint32_t i = 0; i < t.count; ++i) offset = xfb_leaf_offsets(m, t.element, offset, out);
      return offset;
    case spirv::TypeKind::Struct:
      for (Id member : t.members) offset = xfb_leaf_offsets(m, member, offset, out);
      return (offset + align - 1) / align * align;
    default:
      out->push_back(offset);
      return offset + t.width / 8;
  }
}

class InterfaceWalker {
 public:
  InterfaceWalker(const spirv::Module& m, std::string* error) : m_(m), error_(error) {}

  // Locations a type occupies: each 32-bit scalar or vector (one slot of four components) takes
  // one; a 64-bit scalar takes two components, so dvec3 and dvec4 take two.
  uint32_t locations(Id type) const {
    const spirv::Type& t = m_.type(type);
    switch (t.kind) {
      case spirv::TypeKind::Vector: return m_.type(t.element).width == 64 && t.count > 2 ? 2 : 1;
      case spirv::TypeKind::Matrix: return t.count * locations(t.element);
      case spirv::TypeKind::Array: return t.count * locations(t.element);
      case spirv::TypeKind::Struct: {
        uint32_t n = 0;
        for (Id member : t.members) n += locations(member);
        return n;
      }
      default: return 1;
    }
  }

  bool location_leaves(Id type, uint32_t location, uint32_t component, InterfaceLeaf style, std::vector<InterfaceLeaf>* out) {
    const spirv::Type& t = m_.type(type);
    switch (t.kind) {
      case spirv::TypeKind::Int:
      case spirv::TypeKind::Float:
        return scalar(type, location, component, style, out);
      case spirv::TypeKind::Vector: {
        const uint32_t size = m_.type(t.element).width == 64 ? 2 : 1;  // components per element
        for (uint32_t i = 0; i < t.count; ++i) {
          const uint32_t at = component + i * size;
          if (!scalar(t.element, location + at / 4, at % 4, style, out)) return false;
        }
        return true;
      }
      case spirv::TypeKind::Matrix: {
        const uint32_t step = locations(t.element);
        for (uint32_t c = 0; c < t.count; ++c)
          if (!location_leaves(t.element, location + c * step, 0, style, out)) return false;
        return true;
      }
      case spirv::TypeKind::Array: {
        const uint32_t step = locations(t.element);
        for (uint32_t k = 0; k < t.count; ++k)
          if (!location_leaves(t.element, location + k * step, component, style, out)) return false;
        return true;
      }
      case spirv::TypeKind::Struct: {
        uint32_t next = location;
        for (uint32_t i = 0; i < t.members.size(); ++i) {
          const spirv::Decorations& md = m_.member_decorations(type, i);
          if (md.location) next = *md.location;
          InterfaceLeaf member_style = style;
          member_style.flat |= md.flat || md.per_primitive;
          member_style.no_perspective |= md.no_perspective;
          member_style.centroid |= md.centroid;
          member_style.sample |= md.sample;
          if (!location_leaves(t.members[i], next, md.component.value_or(0), member_style, out)) return false;
          next += locations(t.members[i]);
        }
        return true;
      }
      default:
        *error_ = "interface variables of this type (bool, pointer or opaque) are not supported";
        return false;
    }
  }

  // Leaves of a built-in variable (or block member): element k of `builtin` in leaf order.
  void builtin_leaves(Id type, spv::BuiltIn builtin, std::vector<InterfaceLeaf>* out) const {
    std::vector<Id> scalars;
    collect_scalars(type, &scalars);
    for (uint32_t k = 0; k < scalars.size(); ++k) {
      InterfaceLeaf leaf;
      leaf.builtin = builtin;
      leaf.component = k;
      leaf.scalar = scalars[k];
      out->push_back(leaf);
    }
  }

 private:
  void collect_scalars(Id type, std::vector<Id>* out) const {
    const spirv::Type& t = m_.type(type);
    switch (t.kind) {
      case spirv::TypeKind::Vector:
      case spirv::TypeKind::Matrix:
      case spirv::TypeKind::Array:
        for (uint32_t i = 0; i < t.count; ++i) collect_scalars(t.element, out);
        return;
      case spirv::TypeKind::Struct:
        for (Id member : t.members) collect_scalars(member, out);
        return;
      default: out->push_back(type);
    }
  }

  bool scalar(Id type, uint32_t location, uint32_t component, const InterfaceLeaf& style, std::vector<InterfaceLeaf>* out) {
    const uint32_t width = m_.type(type).width;
    if (width != 32 && !(width == 64 && component % 2 == 0)) {
      *error_ = "16-bit inputs/outputs between graphics stages (or a 64-bit one at an odd Component) are not supported";
      return false;
    }
    if (location >= abi::kMaxVaryingLocations || component >= 4) {
      *error_ = "interface Location " + std::to_string(location) + " component " + std::to_string(component) +
                " is out of range";
      return false;
    }
    InterfaceLeaf leaf = style;
    leaf.location = location;
    leaf.component = component;
    leaf.scalar = type;
    leaf.wide = width == 64;
    out->push_back(leaf);
    return true;
  }

  const spirv::Module& m_;
  std::string* error_;
};

// Per Output variable, the members (bit i: member i; all bits: the whole variable) the functions
// reachable from the entry point access. glslang declares every gl_PerVertex member — PointSize,
// ClipDistance[1], CullDistance[1] — whether the shader writes it or not; counting those would
// make every vertex carry them and every primitive test them. Conservative: any use of the
// variable other than an access chain with a constant member index counts as all members.
std::unordered_map<Id, uint64_t> accessed_output_members(const Translator& t) {
  std::unordered_map<Id, uint64_t> used;
  // Arrayed outputs (a mesh shader's arrays of blocks) name the member in the access chain's
  // second index.
  const size_t member_at = is_arrayed_interface(t.entry.model, false) ? 2 : 1;
  for (const auto& [id, var] : t.m.variables())
    if (var.storage_class == spv::StorageClass::Output) used.emplace(id, 0);
  std::vector<Id> pending{t.entry.function};
  std::set<Id> seen{t.entry.function};
  auto scan = [&](const spirv::Instruction& inst) {
    const bool chain = inst.opcode == spv::Op::OpAccessChain || inst.opcode == spv::Op::OpInBoundsAccessChain;
    for (size_t i = 0; i < inst.operands.size(); ++i) {
      auto it = used.find(inst.operands[i]);
      if (it == used.end()) continue;
      std::optional<uint64_t> member;
      if (chain && i == 0 && inst.operands.size() > member_at) member = t.m.constant_uint(inst.operands[member_at]);
      it->second |= member && *member < 64 ? uint64_t{1} << *member : ~uint64_t{0};
    }
    if (inst.opcode == spv::Op::OpFunctionCall && !inst.operands.empty() && seen.insert(inst.operands[0]).second)
      pending.push_back(inst.operands[0]);
  };
  while (!pending.empty()) {
    const spirv::Function* fn = t.m.function(pending.back());
    pending.pop_back();
    if (!fn) continue;
    for (const spirv::Block& block : fn->blocks) {
      for (const spirv::Instruction& inst : block.body) scan(inst);
      scan(block.terminator);
    }
  }
  return used;
}

// Transform feedback and stream decorations of an Output variable's leaves: XfbBuffer, XfbStride and
// Stream on the variable or a block member, Offset on the variable or a block member; a member's
// (or the variable's) scalars are packed from its Offset in leaf order, each aligned to its size and
// structs to their largest scalar (xfb_leaf_offsets; 16-bit outputs cannot be captured, and
// interface_variables rejects them).
void assign_xfb(const spirv::Module& m, const spirv::Decorations& d, Id type, InterfaceVariable* v) {
  // Leaves [first, first + count) of type `type` captured from `member`'s Offset (or the
  // variable's), in buffer XfbBuffer + `next_buffer`.
  auto apply = [&](const spirv::Decorations& member, Id type, size_t first, size_t count, uint32_t next_buffer) {
    const auto base_buffer = member.xfb_buffer ? member.xfb_buffer : d.xfb_buffer;
    const auto stride = member.xfb_stride ? member.xfb_stride : d.xfb_stride;
    const auto stream = member.stream ? member.stream : d.stream;
    std::vector<uint32_t> offsets;
    if (member.offset) xfb_leaf_offsets(m, type, *member.offset, &offsets);
    for (size_t k = first; k < first + count && k < v->leaves.size(); ++k) {
      InterfaceLeaf& leaf = v->leaves[k];
      leaf.stream = stream.value_or(0);
      if (!base_buffer || !member.offset || k - first >= offsets.size()) continue;
      const uint32_t buffer = *base_buffer + next_buffer;
      if (buffer >= abi::kMaxXfbBuffers) continue;
      leaf.xfb_buffer = buffer;
      leaf.xfb_offset = int32_t(offsets[k - first]);
      if (stride) v->xfb_stride[buffer] = *stride;
    }
  };
  // A block's members from leaf `first`.
  auto apply_block = [&](Id block, size_t first, uint32_t next_buffer) {
    const spirv::Type& bt = m.type(block);
    for (uint32_t i = 0; i < bt.members.size(); ++i) {
      const size_t count = count_scalars(m, bt.members[i]);
      apply(m.member_decorations(block, i), bt.members[i], first, count, next_buffer);
      first += count;
    }
  };
  const spirv::Type& t = m.type(type);
  if (t.kind == spirv::TypeKind::Struct && !d.offset) return apply_block(type, 0, 0);
  // An array of blocks: element k is captured like the block, into buffer XfbBuffer + k (GLSL's
  // rule for arrayed blocks).
  if (t.kind == spirv::TypeKind::Array && m.type(t.element).kind == spirv::TypeKind::Struct && !d.offset) {
    const size_t per_element = count_scalars(m, t.element);
    for (uint32_t k = 0; k < t.count; ++k) apply_block(t.element, k * per_element, k);
    return;
  }
  apply(d, type, 0, v->leaves.size(), 0);
}

}  // namespace

bool first_member_per_primitive(const spirv::Module& m, Id type) {
  while (m.type(type).kind == spirv::TypeKind::Array) type = m.type(type).element;
  const spirv::Type& t = m.type(type);
  return t.kind == spirv::TypeKind::Struct && !t.members.empty() && m.member_decorations(type, 0).per_primitive;
}

bool is_patch_variable(const spirv::Module& m, Id id) {
  const spirv::Decorations& d = m.decorations(id);
  if (d.patch || d.builtin == spv::BuiltIn::TessLevelOuter || d.builtin == spv::BuiltIn::TessLevelInner) return true;
  Id type = m.type(m.variables().at(id).type).element;  // the pointee; arrays of blocks too
  while (m.type(type).kind == spirv::TypeKind::Array) type = m.type(type).element;
  const spirv::Type& t = m.type(type);
  return t.kind == spirv::TypeKind::Struct && !t.members.empty() && m.member_decorations(type, 0).patch;
}

bool is_arrayed_interface(spv::ExecutionModel model, bool input) {
  switch (model) {
    case spv::ExecutionModel::TessellationControl: return true;
    case spv::ExecutionModel::MeshEXT: return !input;  // per vertex or per primitive
    case spv::ExecutionModel::TessellationEvaluation:
    case spv::ExecutionModel::Geometry: return input;
    default: return false;
  }
}

bool is_per_lane_input(const spirv::Module& m, spv::ExecutionModel model, Id id, const spirv::Variable& var) {
  if (const auto builtin = m.decorations(id).builtin) {
    // The levels are the control stage's outputs; a per-vertex built-in outside a block
    // (`in float gl_ClipDistance[3][]` as some compilers write gl_in[].gl_ClipDistance) is the
    // previous stage's output like a block member.
    if (*builtin == spv::BuiltIn::TessLevelOuter || *builtin == spv::BuiltIn::TessLevelInner) return true;
    const bool per_vertex = *builtin == spv::BuiltIn::Position || *builtin == spv::BuiltIn::PointSize ||
                            *builtin == spv::BuiltIn::ClipDistance || *builtin == spv::BuiltIn::CullDistance;
    return per_vertex && is_arrayed_interface(model, true);
  }
  const Id pointee = m.type(var.type).element;
  return !(m.type(pointee).kind == spirv::TypeKind::Struct && m.member_decorations(pointee, 0).builtin);
}

// The stage's Input (`input` true) or Output variables with their leaves.
bool interface_variables(const Translator& t, bool input, std::vector<InterfaceVariable>* out, std::string* error) {
  InterfaceWalker walker(t.m, error);
  const spv::StorageClass wanted = input ? spv::StorageClass::Input : spv::StorageClass::Output;
  std::map<Id, const spirv::Variable*> ordered;  // deterministic order (the module's map is unordered)
  const std::unordered_map<Id, uint64_t> accessed = input ? std::unordered_map<Id, uint64_t>{} : accessed_output_members(t);
  for (const auto& [id, var] : t.m.variables())
    if (var.storage_class == wanted) ordered.emplace(id, &var);
  for (const auto& [id, var] : ordered) {
    if (input && !is_per_lane_input(t.m, t.entry.model, id, *var)) continue;  // input built-ins are read in place
    InterfaceVariable v;
    v.id = id;
    v.pointee = t.m.type(var->type).element;
    const spirv::Decorations& d = t.m.decorations(id);
    v.patch = is_patch_variable(t.m, id);
    v.per_primitive = d.per_primitive || first_member_per_primitive(t.m, t.m.type(var->type).element);
    if (!v.patch && is_arrayed_interface(t.entry.model, input)) {
      if (t.m.type(v.pointee).kind != spirv::TypeKind::Array) {
        *error = "a per-vertex interface variable of this stage is not an array";
        return false;
      }
      v.vertices = t.m.type(v.pointee).count;
      v.element = t.m.type(v.pointee).element;
    }
    const Id one = v.vertices ? v.element : v.pointee;  // one vertex's part
    const spirv::Type& pt = t.m.type(one);
    // Which output members the shader uses is known for a vertex's own outputs only.
    const bool mesh_outputs = !input && t.entry.model == spv::ExecutionModel::MeshEXT;
    const uint64_t used = input || (v.vertices && !mesh_outputs) ? ~uint64_t{0} : accessed.at(id);
    if (d.builtin) {
      walker.builtin_leaves(one, *d.builtin, &v.leaves);
      if (!used)
        for (InterfaceLeaf& leaf : v.leaves) leaf.accessed = false;
    } else if (pt.kind == spirv::TypeKind::Struct && t.m.member_decorations(one, 0).builtin) {
      for (uint32_t i = 0; i < pt.members.size(); ++i) {  // gl_PerVertex: BuiltIn member decorations
        const auto builtin = t.m.member_decorations(one, i).builtin;
        if (!builtin) continue;
        const size_t first = v.leaves.size();
        walker.builtin_leaves(pt.members[i], *builtin, &v.leaves);
        if (!(used & (i < 64 ? uint64_t{1} << i : ~uint64_t{0})))
          for (size_t k = first; k < v.leaves.size(); ++k) v.leaves[k].accessed = false;
      }
    } else {
      if (!d.location && pt.kind != spirv::TypeKind::Struct) {
        *error = "interface variable without Location or BuiltIn";
        return false;
      }
      InterfaceLeaf style;
      style.flat = d.flat || d.per_primitive;  // a fragment shader's per-primitive input: one value per primitive
      style.no_perspective = d.no_perspective;
      style.centroid = d.centroid;
      style.sample = d.sample;
      style.index = d.index.value_or(0);
      if (!walker.location_leaves(one, d.location.value_or(0), d.component.value_or(0), style, &v.leaves)) return false;
    }
    if (!input && !v.vertices) assign_xfb(t.m, d, one, &v);
    if (v.vertices) {  // every vertex's copy of the element's leaves
      const size_t per_vertex = v.leaves.size();
      for (uint32_t k = 1; k < v.vertices; ++k)
        for (size_t i = 0; i < per_vertex; ++i) {
          v.leaves.push_back(v.leaves[i]);
          v.leaves.back().vertex = k;
        }
    }
    out->push_back(std::move(v));
  }
  return true;
}

bool is_mesh_primitive_control(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::PrimitivePointIndicesEXT:
    case spv::BuiltIn::PrimitiveLineIndicesEXT:
    case spv::BuiltIn::PrimitiveTriangleIndicesEXT:
    case spv::BuiltIn::CullPrimitiveEXT:
    case spv::BuiltIn::PrimitiveShadingRateKHR:
      return true;
    default:
      return false;
  }
}

bool vertex_output_slots(Translator& t, const std::vector<InterfaceVariable>& outputs, abi::VertexOutputLayout* layout,
                         std::vector<std::vector<std::pair<uint32_t, uint32_t>>>* slots) {
  uint32_t location_mask = 0, clip = 0, cull = 0;
  bool point_size = false, layer = false, viewport = false, primitive_id = false;
  for (const InterfaceVariable& v : outputs)
    for (const InterfaceLeaf& leaf : v.leaves) {
      if (!leaf.accessed) continue;
      switch (leaf.builtin) {
        case spv::BuiltIn::Max: location_mask |= 1u << leaf.location; break;
        case spv::BuiltIn::Position: break;
        case spv::BuiltIn::PointSize: point_size = true; break;
        case spv::BuiltIn::ClipDistance: clip = std::max(clip, leaf.component + 1); break;
        case spv::BuiltIn::CullDistance: cull = std::max(cull, leaf.component + 1); break;
        case spv::BuiltIn::Layer: layer = true; break;
        case spv::BuiltIn::ViewportIndex: viewport = true; break;
        case spv::BuiltIn::PrimitiveId:  // a geometry or mesh shader's per-primitive output
          if (t.entry.model != spv::ExecutionModel::Geometry && t.entry.model != spv::ExecutionModel::MeshEXT) {
            t.error_ = "PrimitiveId is an output of geometry and mesh shaders only";
            return false;
          }
          primitive_id = true;
          break;
        case spv::BuiltIn::PrimitivePointIndicesEXT:  // mesh shaders: not vertex record words
        case spv::BuiltIn::PrimitiveLineIndicesEXT:
        case spv::BuiltIn::PrimitiveTriangleIndicesEXT:
        case spv::BuiltIn::CullPrimitiveEXT:
        case spv::BuiltIn::PrimitiveShadingRateKHR:
          break;
        default:
          t.error_ = "vertex output built-in " + std::to_string(static_cast<unsigned>(leaf.builtin)) + " is not supported";
          return false;
      }
    }
  if (clip > abi::kMaxClipDistances || cull > abi::kMaxClipDistances || clip + cull > abi::kMaxClipDistances) {
    t.error_ = "too many clip/cull distances";
    return false;
  }
  uint32_t next = 1;
  for (uint32_t l = 0; l < abi::kMaxVaryingLocations; ++l)
    if (location_mask & (1u << l)) layout->location_slot[l] = static_cast<int32_t>(next++);
  if (point_size) layout->point_size_slot = static_cast<int32_t>(next++);
  if (clip) {
    layout->clip_distance_slot = static_cast<int32_t>(next);
    layout->clip_distance_count = clip;
    next += (clip + 3) / 4;
  }
  if (cull) {
    layout->cull_distance_slot = static_cast<int32_t>(next);
    layout->cull_distance_count = cull;
    next += (cull + 3) / 4;
  }
  if (layer) layout->layer_slot = static_cast<int32_t>(next++);
  if (viewport) layout->viewport_index_slot = static_cast<int32_t>(next++);
  if (primitive_id) layout->primitive_id_slot = static_cast<int32_t>(next++);
  layout->slot_count = next;
  for (const InterfaceVariable& v : outputs) {
    auto& out = slots->emplace_back();
    for (const InterfaceLeaf& leaf : v.leaves) {
      const uint32_t k = leaf.component;
      if (!leaf.accessed || is_mesh_primitive_control(leaf.builtin)) {
        out.emplace_back(kNoSlot, 0);
        continue;
      }
      switch (leaf.builtin) {
        case spv::BuiltIn::Max: out.emplace_back(layout->location_slot[leaf.location], k); break;
        case spv::BuiltIn::Position: out.emplace_back(0, k); break;
        case spv::BuiltIn::PointSize: out.emplace_back(layout->point_size_slot, 0); break;
        case spv::BuiltIn::ClipDistance: out.emplace_back(layout->clip_distance_slot + k / 4, k % 4); break;
        case spv::BuiltIn::CullDistance: out.emplace_back(layout->cull_distance_slot + k / 4, k % 4); break;
        case spv::BuiltIn::Layer: out.emplace_back(layout->layer_slot, 0); break;
        case spv::BuiltIn::PrimitiveId: out.emplace_back(layout->primitive_id_slot, 0); break;
        default: out.emplace_back(layout->viewport_index_slot, 0); break;
      }
    }
  }
  // Transform feedback captures, from the leaves' slots.
  abi::XfbLayout& xfb = layout->xfb;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const InterfaceVariable& v = outputs[i];
    for (uint32_t b = 0; b < abi::kMaxXfbBuffers; ++b)
      if (v.xfb_stride[b]) xfb.stride[b] = v.xfb_stride[b];
    for (size_t k = 0; k < v.leaves.size(); ++k) {
      const InterfaceLeaf& leaf = v.leaves[k];
      const auto [slot, component] = (*slots)[i][k];
      if (leaf.xfb_offset < 0 || slot == kNoSlot) continue;
      // A 64-bit leaf is its two 32-bit halves, low first, in consecutive components.
      for (uint32_t half = 0; half < (leaf.wide ? 2u : 1u); ++half) {
        if (xfb.capture_count == abi::kMaxXfbCaptures || leaf.xfb_offset + 4 * half > 0xFFFF) {
          t.error_ = "more transform feedback output than Kiln captures";
          return false;
        }
        xfb.captures[xfb.capture_count++] = {uint16_t(leaf.xfb_offset + 4 * half), uint8_t(leaf.xfb_buffer),
                                             uint8_t(leaf.stream), uint8_t(slot), uint8_t(component + half)};
      }
    }
  }
  return true;
}

void natural_leaf_offsets(const spirv::Module& m, Id type, uint32_t base, std::vector<uint32_t>* out) {
  const spirv::Type& t = m.type(type);
  switch (t.kind) {
    case spirv::TypeKind::Vector:
    case spirv::TypeKind::Matrix:  // natural matrices: tight columns
      for (uint32_t i = 0; i < t.count; ++i) natural_leaf_offsets(m, t.element, base + i * spirv::type_size(m, t.element), out);
      return;
    case spirv::TypeKind::Array:
      for (uint32_t i = 0; i < t.count; ++i) natural_leaf_offsets(m, t.element, base + i * spirv::array_stride(m, type), out);
      return;
    case spirv::TypeKind::Struct:
      for (uint32_t i = 0; i < t.members.size(); ++i)
        natural_leaf_offsets(m, t.members[i], base + spirv::member_offset(m, type, i), out);
      return;
    default: out->push_back(base);
  }
}

// Where the previous stage left leaf `leaf` of input `v` (-1 offset: nowhere, the shader reads 0).
abi::StageOutputAddress previous_stage_address(const abi::StageOutputMap& map, const InterfaceVariable& v,
                                               const InterfaceLeaf& leaf) {
  const uint32_t c = leaf.component;
  switch (leaf.builtin) {
    case spv::BuiltIn::Max:
      return v.patch ? map.patch_location[leaf.location][c] : map.location[leaf.location][c];
    case spv::BuiltIn::Position: return c < 4 ? map.position[c] : abi::StageOutputAddress{};
    case spv::BuiltIn::PointSize: return map.point_size;
    case spv::BuiltIn::ClipDistance: return c < abi::kMaxClipDistances ? map.clip_distance[c] : abi::StageOutputAddress{};
    case spv::BuiltIn::CullDistance: return c < abi::kMaxClipDistances ? map.cull_distance[c] : abi::StageOutputAddress{};
    case spv::BuiltIn::TessLevelOuter:
      return c < 4 ? abi::StageOutputAddress{int32_t(abi::kTessLevelOuterOffset + 4 * c), 0} : abi::StageOutputAddress{};
    case spv::BuiltIn::TessLevelInner:
      return c < 2 ? abi::StageOutputAddress{int32_t(abi::kTessLevelInnerOffset + 4 * c), 0} : abi::StageOutputAddress{};
    default: return {};
  }
}

bool is_integer(const Translator& t, Id scalar) { return t.m.type(scalar).kind == spirv::TypeKind::Int; }

std::vector<llvm::Value*> leaf_words(Translator& t, const InterfaceLeaf& leaf, llvm::Value* value) {
  auto& b = t.b();
  llvm::Type* i32 = t.lane_type(b.getInt32Ty());
  if (!leaf.wide) return {b.CreateBitCast(value, i32)};
  llvm::Value* bits = b.CreateBitCast(value, t.lane_type(b.getInt64Ty()));
  return {b.CreateTrunc(bits, i32), b.CreateTrunc(b.CreateLShr(bits, t.splat(b.getInt64(32))), i32)};
}

llvm::Value* leaf_from_words(Translator& t, const InterfaceLeaf& leaf, const std::vector<llvm::Value*>& words) {
  auto& b = t.b();
  llvm::Type* type = t.lane_type(t.leaf_type(leaf.scalar));
  if (!leaf.wide) return b.CreateBitCast(words.at(0), type);
  llvm::Type* i64 = t.lane_type(b.getInt64Ty());
  llvm::Value* bits = b.CreateOr(b.CreateZExt(words.at(0), i64), b.CreateShl(b.CreateZExt(words.at(1), i64), t.splat(b.getInt64(32))));
  return b.CreateBitCast(bits, type);
}

}  // namespace kiln::compiler
