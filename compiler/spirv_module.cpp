#define SPV_ENABLE_UTILITY_CODE
#include "compiler/spirv_module.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

namespace kiln::spirv {
namespace {

const Type kNoType{};
const Decorations kNoDecorations{};

std::string literal_string(std::span<const uint32_t> words, size_t* consumed) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i) {
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((words[i] >> (8 * b)) & 0xFF);
      if (c == '\0') {
        *consumed = i + 1;
        return s;
      }
      s.push_back(c);
    }
  }
  *consumed = words.size();
  return s;
}

void apply_decoration(Decorations& d, spv::Decoration decoration, std::span<const uint32_t> args) {
  auto arg = [&](size_t i) -> uint32_t { return i < args.size() ? args[i] : 0; };
  switch (decoration) {
    case spv::Decoration::DescriptorSet: d.set = arg(0); break;
    case spv::Decoration::Binding: d.binding = arg(0); break;
    case spv::Decoration::Location: d.location = arg(0); break;
    case spv::Decoration::Component: d.component = arg(0); break;
    case spv::Decoration::Index: d.index = arg(0); break;
    case spv::Decoration::XfbBuffer: d.xfb_buffer = arg(0); break;
    case spv::Decoration::XfbStride: d.xfb_stride = arg(0); break;
    case spv::Decoration::Stream: d.stream = arg(0); break;
    case spv::Decoration::Offset: d.offset = arg(0); break;
    case spv::Decoration::SpecId: d.spec_id = arg(0); break;
    case spv::Decoration::ArrayStride: d.array_stride = arg(0); break;
    case spv::Decoration::BuiltIn: d.builtin = static_cast<spv::BuiltIn>(arg(0)); break;
    case spv::Decoration::Flat: d.flat = true; break;
    case spv::Decoration::NoPerspective: d.no_perspective = true; break;
    case spv::Decoration::Centroid: d.centroid = true; break;
    case spv::Decoration::Sample: d.sample = true; break;
    case spv::Decoration::Patch: d.patch = true; break;
    case spv::Decoration::PerPrimitiveEXT: d.per_primitive = true; break;
    case spv::Decoration::NonWritable: d.non_writable = true; break;
    case spv::Decoration::NonReadable: d.non_readable = true; break;
    case spv::Decoration::Coherent: d.coherent = true; break;
    case spv::Decoration::Volatile: d.volatile_ = true; break;
    case spv::Decoration::Restrict: d.restrict_ = true; break;
    case spv::Decoration::NoContraction: d.no_contraction = true; break;
    case spv::Decoration::RelaxedPrecision: d.relaxed_precision = true; break;
    case spv::Decoration::NonUniform: d.non_uniform = true; break;
    case spv::Decoration::FPRoundingMode: d.rounding = static_cast<spv::FPRoundingMode>(arg(0)); break;
    default: break;
  }
}

uint32_t align_up(uint32_t v, uint32_t a) {
  if (!a) return v;
  const uint64_t up = (uint64_t{v} + a - 1) / a * a;
  return up > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(up);
}

// Sizes of huge types saturate at UINT32_MAX instead of wrapping to a small number (an array of
// 2^32-1 vec4s would otherwise "fit"), so the limits that callers check refuse them.
uint32_t saturated(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(v); }

// Natural alignment of a type in Kiln's own layout (Function/Private/Workgroup storage).
uint32_t natural_alignment(const Module& m, Id id) {
  const Type& t = m.type(id);
  switch (t.kind) {
    case TypeKind::Bool: return 4;
    case TypeKind::Int:
    case TypeKind::Float: return t.width / 8;
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
    case TypeKind::RuntimeArray: return natural_alignment(m, t.element);
    case TypeKind::Struct: {
      uint32_t a = 1;
      for (Id member : t.members) a = std::max(a, natural_alignment(m, member));
      return a;
    }
    case TypeKind::Pointer: return 8;
    default: return 4;
  }
}

}  // namespace

const Type& Module::type(Id id) const {
  auto it = types_.find(id);
  return it == types_.end() ? kNoType : it->second;
}

const Constant* Module::constant(Id id) const {
  auto it = constants_.find(id);
  return it == constants_.end() ? nullptr : &it->second;
}

const Decorations& Module::decorations(Id id) const {
  auto it = decorations_.find(id);
  return it == decorations_.end() ? kNoDecorations : it->second;
}

const Decorations& Module::member_decorations(Id struct_type, uint32_t member) const {
  auto it = member_decorations_.find((uint64_t{struct_type} << 32) | member);
  return it == member_decorations_.end() ? kNoDecorations : it->second;
}

const Variable* Module::variable(Id id) const {
  auto it = variables_.find(id);
  return it == variables_.end() ? nullptr : &it->second;
}

const Function* Module::function(Id id) const {
  auto it = functions_.find(id);
  return it == functions_.end() ? nullptr : &it->second;
}

const EntryPoint* Module::entry_point(std::string_view name, spv::ExecutionModel model) const {
  for (const EntryPoint& e : entry_points_)
    if (e.name == name && e.model == model) return &e;
  return nullptr;
}

std::optional<uint64_t> Module::constant_uint(Id id) const {
  const Constant* c = constant(id);
  if (!c || c->undef) return std::nullopt;
  if (c->null) return 0;
  if (c->words.empty()) return std::nullopt;
  uint64_t v = c->words[0];
  if (c->words.size() > 1) v |= uint64_t{c->words[1]} << 32;
  return v;
}

std::optional<Module> Module::parse(std::span<const uint32_t> words, std::string* error) {
  auto fail = [&](uint32_t at, const std::string& what) -> std::optional<Module> {
    *error = "SPIR-V word " + std::to_string(at) + ": " + what;
    return std::nullopt;
  };
  if (words.size() < 5 || words[0] != spv::MagicNumber) return fail(0, "not a SPIR-V module");
  Module m;
  m.id_bound_ = words[3];
  Function* current_function = nullptr;
  Block* current_block = nullptr;
  std::vector<std::pair<Id, std::vector<uint32_t>>> execution_modes;  // applied after entry points are known
  SourceLine line;  // the OpLine in effect: until OpNoLine or the end of its block

  for (size_t pos = 5; pos < words.size();) {
    const uint32_t word_count = words[pos] >> 16;
    const auto opcode = static_cast<spv::Op>(words[pos] & 0xFFFF);
    if (word_count == 0 || pos + word_count > words.size()) return fail(pos, "truncated instruction");
    bool has_result = false, has_type = false;
    spv::HasResultAndType(opcode, &has_result, &has_type);
    Instruction inst;
    inst.opcode = opcode;
    inst.word_offset = static_cast<uint32_t>(pos);
    size_t operand = pos + 1;
    if (has_type) inst.result_type = words[operand++];
    if (has_result) inst.result = words[operand++];
    if (operand > pos + word_count) return fail(pos, "instruction too short");
    inst.operands = words.subspan(operand, pos + word_count - operand);
    const auto& ops = inst.operands;
    auto op = [&](size_t i) -> uint32_t { return i < ops.size() ? ops[i] : 0; };
    pos += word_count;
    if (opcode == spv::Op::OpLine) line = {op(0), op(1), op(2)};
    if (opcode == spv::Op::OpNoLine || opcode == spv::Op::OpFunctionEnd) line = {};
    inst.source = line;
    if (is_block_terminator(opcode)) {
      if (!current_block) return fail(inst.word_offset, "terminator outside a block");
      current_block->terminator = inst;
      current_block = nullptr;
      line = {};  // a block's end ends its OpLine's scope
      continue;
    }

    switch (opcode) {
      case spv::Op::OpCapability: m.capabilities_.push_back(static_cast<spv::Capability>(op(0))); break;
      case spv::Op::OpExtInstImport: {
        size_t used;
        const std::string name = literal_string(ops, &used);
        if (name == "GLSL.std.450") m.glsl_std_450_ = inst.result;
        if (name == "NonSemantic.DebugPrintf") m.debug_printf_ = inst.result;
        break;
      }
      case spv::Op::OpString: {
        size_t used;
        m.strings_[inst.result] = literal_string(ops, &used);
        break;
      }
      case spv::Op::OpEntryPoint: {
        EntryPoint e;
        e.model = static_cast<spv::ExecutionModel>(op(0));
        e.function = op(1);
        size_t used = 0;
        e.name = literal_string(ops.subspan(std::min<size_t>(2, ops.size())), &used);
        for (size_t i = 2 + used; i < ops.size(); ++i) e.interface.push_back(ops[i]);
        m.entry_points_.push_back(std::move(e));
        break;
      }
      case spv::Op::OpExecutionMode:
      case spv::Op::OpExecutionModeId:
        execution_modes.push_back({op(0), std::vector<uint32_t>(ops.begin() + std::min<size_t>(1, ops.size()), ops.end())});
        break;
      case spv::Op::OpDecorate:
        apply_decoration(m.decorations_[op(0)], static_cast<spv::Decoration>(op(1)), ops.subspan(std::min<size_t>(2, ops.size())));
        if (static_cast<spv::Decoration>(op(1)) == spv::Decoration::Block) m.types_[op(0)].block = true;
        if (static_cast<spv::Decoration>(op(1)) == spv::Decoration::BufferBlock) m.types_[op(0)].buffer_block = true;
        if (static_cast<spv::Decoration>(op(1)) == spv::Decoration::ArrayStride) m.types_[op(0)].array_stride = op(2);
        break;
      case spv::Op::OpMemberDecorate: {
        const auto decoration = static_cast<spv::Decoration>(op(2));
        auto args = ops.subspan(std::min<size_t>(3, ops.size()));
        apply_decoration(m.member_decorations_[(uint64_t{op(0)} << 32) | op(1)], decoration, args);
        Type& t = m.types_[op(0)];
        auto grow = [&](auto& v) { if (v.size() <= op(1)) v.resize(op(1) + 1); };
        if (decoration == spv::Decoration::Offset) { grow(t.member_offsets); t.member_offsets[op(1)] = op(3); }
        if (decoration == spv::Decoration::MatrixStride) { grow(t.member_matrix_strides); t.member_matrix_strides[op(1)] = op(3); }
        if (decoration == spv::Decoration::RowMajor) { grow(t.member_row_major); t.member_row_major[op(1)] = true; }
        break;
      }
      case spv::Op::OpTypeVoid: m.types_[inst.result].kind = TypeKind::Void; break;
      case spv::Op::OpTypeBool: m.types_[inst.result].kind = TypeKind::Bool; break;
      case spv::Op::OpTypeInt: {
        Type& t = m.types_[inst.result];
        t.kind = TypeKind::Int;
        t.width = op(0);
        t.is_signed = op(1) != 0;
        break;
      }
      case spv::Op::OpTypeFloat: {
        Type& t = m.types_[inst.result];
        t.kind = TypeKind::Float;
        t.width = op(0);
        break;
      }
      case spv::Op::OpTypeVector:
      case spv::Op::OpTypeMatrix: {
        Type& t = m.types_[inst.result];
        t.kind = opcode == spv::Op::OpTypeVector ? TypeKind::Vector : TypeKind::Matrix;
        t.element = op(0);
        t.count = op(1);
        break;
      }
      case spv::Op::OpTypeArray: {
        Type& t = m.types_[inst.result];
        t.kind = TypeKind::Array;
        t.element = op(0);
        auto length = m.constant_uint(op(1));
        if (!length) return fail(inst.word_offset, "array length is not a constant (specialization constants must be frozen first)");
        t.count = static_cast<uint32_t>(*length);
        break;
      }
      case spv::Op::OpTypeRuntimeArray: {
        Type& t = m.types_[inst.result];
        t.kind = TypeKind::RuntimeArray;
        t.element = op(0);
        break;
      }
      case spv::Op::OpTypeStruct: {
        Type& t = m.types_[inst.result];
        t.kind = TypeKind::Struct;
        t.members.assign(ops.begin(), ops.end());
        break;
      }
      case spv::Op::OpTypePointer: {
        Type& t = m.types_[inst.result];
        t.kind = TypeKind::Pointer;
        t.storage_class = static_cast<spv::StorageClass>(op(0));
        t.element = op(1);
        break;
      }
      case spv::Op::OpTypeFunction: {
        Type& t = m.types_[inst.result];
        t.kind = TypeKind::Function;
        t.members.assign(ops.begin(), ops.end());
        break;
      }
      case spv::Op::OpTypeImage: {
        Type& t = m.types_[inst.result];
        t.kind = TypeKind::Image;
        t.element = op(0);
        t.dim = static_cast<spv::Dim>(op(1));
        t.arrayed = op(3) != 0;
        t.multisampled = op(4) != 0;
        t.sampled = op(5);
        t.image_format = static_cast<spv::ImageFormat>(op(6));
        break;
      }
      case spv::Op::OpTypeSampledImage: {
        // Described by its image: texel-buffer fetches (OpImage of a samplerBuffer) need no more.
        Type t = m.types_.count(op(0)) ? m.types_[op(0)] : Type{};
        t.sampled_image = true;
        m.types_[inst.result] = t;
        break;
      }
      case spv::Op::OpTypeSampler:
        m.types_[inst.result].kind = TypeKind::Sampler;
        break;
      case spv::Op::OpTypeForwardPointer:
        m.types_[inst.result].kind = TypeKind::Other;
        break;
      case spv::Op::OpConstantTrue:
      case spv::Op::OpConstantFalse:
      case spv::Op::OpSpecConstantTrue:
      case spv::Op::OpSpecConstantFalse: {
        Constant& c = m.constants_[inst.result];
        c.type = inst.result_type;
        c.words = {opcode == spv::Op::OpConstantTrue || opcode == spv::Op::OpSpecConstantTrue ? 1u : 0u};
        break;
      }
      case spv::Op::OpConstant:
      case spv::Op::OpSpecConstant: {
        Constant& c = m.constants_[inst.result];
        c.type = inst.result_type;
        c.words.assign(ops.begin(), ops.end());
        break;
      }
      case spv::Op::OpConstantComposite:
      case spv::Op::OpSpecConstantComposite: {
        const bool has_deferred_part = std::any_of(ops.begin(), ops.end(), [&](Id part) {
          return std::any_of(m.deferred_spec_constants_.begin(), m.deferred_spec_constants_.end(),
                             [&](const Instruction& d) { return d.result == part; });
        });
        if (has_deferred_part) {
          m.deferred_spec_constants_.push_back({spv::Op::OpCompositeConstruct, inst.result_type, inst.result, ops, inst.word_offset});
          break;
        }
        Constant& c = m.constants_[inst.result];
        c.type = inst.result_type;
        c.constituents.assign(ops.begin(), ops.end());
        break;
      }
      case spv::Op::OpConstantNull: {
        Constant& c = m.constants_[inst.result];
        c.type = inst.result_type;
        c.null = true;
        break;
      }
      case spv::Op::OpUndef:
        if (!current_function) {
          Constant& c = m.constants_[inst.result];
          c.type = inst.result_type;
          c.undef = true;
        } else if (current_block) {
          current_block->body.push_back(inst);
        }
        break;
      case spv::Op::OpSpecConstantOp:
        if (ops.empty()) return fail(inst.word_offset, "OpSpecConstantOp without an opcode");
        m.deferred_spec_constants_.push_back({static_cast<spv::Op>(ops[0]), inst.result_type, inst.result, ops.subspan(1), inst.word_offset});
        break;
      case spv::Op::OpVariable:
        if (!current_function) {
          m.variables_[inst.result] = {inst.result_type, static_cast<spv::StorageClass>(op(0)), op(1)};
        } else if (current_block) {
          m.variables_[inst.result] = {inst.result_type, static_cast<spv::StorageClass>(op(0)), op(1)};
          current_block->body.push_back(inst);
        }
        break;
      case spv::Op::OpFunction: {
        current_function = &m.functions_[inst.result];
        current_function->id = inst.result;
        current_function->type = op(1);
        break;
      }
      case spv::Op::OpFunctionParameter:
        if (!current_function) return fail(inst.word_offset, "parameter outside a function");
        current_function->parameters.push_back(inst.result);
        break;
      case spv::Op::OpFunctionEnd:
        if (!current_function) return fail(inst.word_offset, "OpFunctionEnd outside a function");
        order_blocks_structured(*current_function);
        current_function = nullptr;
        current_block = nullptr;
        break;
      case spv::Op::OpLabel:
        if (!current_function) return fail(inst.word_offset, "label outside a function");
        current_function->blocks.emplace_back();
        current_block = &current_function->blocks.back();
        current_block->label = inst.result;
        break;
      case spv::Op::OpSelectionMerge:
        if (!current_block) return fail(inst.word_offset, "merge outside a block");
        current_block->merge_block = op(0);
        break;
      case spv::Op::OpLoopMerge:
        if (!current_block) return fail(inst.word_offset, "merge outside a block");
        current_block->merge_block = op(0);
        current_block->continue_target = op(1);
        current_block->is_loop_header = true;
        break;
      case spv::Op::OpName:
      case spv::Op::OpMemberName:
      case spv::Op::OpSource:
      case spv::Op::OpSourceContinued:
      case spv::Op::OpSourceExtension:
      case spv::Op::OpModuleProcessed:
      case spv::Op::OpExtension:
      case spv::Op::OpMemoryModel:
      case spv::Op::OpLine:
      case spv::Op::OpNoLine:
      case spv::Op::OpDecorationGroup:
      case spv::Op::OpDecorateString:
      case spv::Op::OpMemberDecorateString:
      case spv::Op::OpNop:
        break;
      case spv::Op::OpGroupDecorate:
      case spv::Op::OpGroupMemberDecorate:
        return fail(inst.word_offset, "decoration groups are not supported");
      default:
        if (current_block) current_block->body.push_back(inst);
        else if (has_result && !current_function)
          return fail(inst.word_offset, "unsupported global instruction (opcode " + std::to_string(static_cast<unsigned>(opcode)) + ")");
        break;
    }
  }

  for (auto& [function, mode_words] : execution_modes) {
    for (EntryPoint& e : m.entry_points_) {
      if (e.function != function || mode_words.empty()) continue;
      const auto mode = static_cast<spv::ExecutionMode>(mode_words[0]);
      std::vector<uint32_t> args(mode_words.begin() + 1, mode_words.end());
      if (mode == spv::ExecutionMode::LocalSize && args.size() >= 3)
        for (int i = 0; i < 3; ++i) e.local_size[i] = args[i];
      if (mode == spv::ExecutionMode::LocalSizeId && args.size() >= 3)
        for (int i = 0; i < 3; ++i) {
          e.local_size_ids[i] = args[i];
          if (auto v = m.constant_uint(args[i])) e.local_size[i] = static_cast<uint32_t>(*v);
        }
      e.modes.emplace_back(mode, std::move(args));
    }
  }
  // A WorkgroupSize built-in constant overrides LocalSize (it may come from specialization).
  for (auto& [id, d] : m.decorations_) {
    if (d.builtin != spv::BuiltIn::WorkgroupSize) continue;
    const Constant* c = m.constant(id);
    if (!c || c->constituents.size() != 3) continue;
    for (EntryPoint& e : m.entry_points_)
      for (int i = 0; i < 3; ++i)
        if (auto v = m.constant_uint(c->constituents[i])) e.local_size[i] = static_cast<uint32_t>(*v);
  }
  if (current_function) return fail(static_cast<uint32_t>(words.size()), "function without OpFunctionEnd");
  return m;
}

void order_blocks_structured(Function& f) {
  f.block_index.clear();
  if (f.blocks.empty()) return;
  std::unordered_map<Id, size_t> index;
  for (size_t i = 0; i < f.blocks.size(); ++i) index[f.blocks[i].label] = i;

  auto successors = [&](const Block& b) {
    std::vector<Id> out;
    const Instruction& t = b.terminator;
    switch (t.opcode) {
      case spv::Op::OpBranch: out.push_back(t.operands[0]); break;
      case spv::Op::OpBranchConditional: out.push_back(t.operands[1]); out.push_back(t.operands[2]); break;
      case spv::Op::OpSwitch: {
        // Selector, default, then (literal, label) pairs whose literals are one word, or two for
        // a 64-bit selector (whose type this pass does not know): the width is the one for which
        // every target position names a block of the function.
        out.push_back(t.operands[1]);
        const size_t n = t.operands.size();
        auto all_labels = [&](size_t width) {
          if ((n - 2) % (width + 1) != 0) return false;
          for (size_t i = 2 + width; i < n; i += width + 1)
            if (!index.count(t.operands[i])) return false;
          return true;
        };
        const size_t width = n >= 2 && !all_labels(1) && all_labels(2) ? 2 : 1;
        for (size_t i = 2 + width; i < n; i += width + 1) out.push_back(t.operands[i]);
        break;
      }
      default: break;
    }
    return out;
  };

  // Reverse post-order of a DFS that visits a header's merge block first (so it lands after the
  // whole construct) and a loop's continue target next (so it lands after the loop body).
  std::vector<size_t> post_order;
  std::vector<char> visited(f.blocks.size(), 0);
  std::function<void(size_t)> visit = [&](size_t i) {
    if (visited[i]) return;
    visited[i] = 1;
    const Block& b = f.blocks[i];
    auto go = [&](Id label) {
      auto it = index.find(label);
      if (it != index.end()) visit(it->second);
    };
    if (b.merge_block) go(b.merge_block);
    if (b.continue_target) go(b.continue_target);
    auto succ = successors(b);
    // Later successors first, so the first successor comes first in the final order.
    for (auto it = succ.rbegin(); it != succ.rend(); ++it) go(*it);
    post_order.push_back(i);
  };
  visit(0);
  std::vector<Block> ordered;
  ordered.reserve(post_order.size());
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) ordered.push_back(std::move(f.blocks[*it]));
  // Unreachable blocks are dropped: they never execute.
  f.blocks = std::move(ordered);
  for (size_t i = 0; i < f.blocks.size(); ++i) f.block_index[f.blocks[i].label] = i;
}

uint32_t natural_stride(const Module& m, Id type) { return align_up(type_size(m, type), natural_alignment(m, type)); }

uint32_t array_stride(const Module& m, Id array_type) {
  const Type& t = m.type(array_type);
  return t.array_stride ? t.array_stride : natural_stride(m, t.element);
}

uint32_t member_offset(const Module& m, Id struct_type, uint32_t index) {
  const Type& t = m.type(struct_type);
  if (index < t.member_offsets.size()) return t.member_offsets[index];  // explicit Offset decoration
  uint32_t offset = 0;
  for (uint32_t i = 0; i <= index && i < t.members.size(); ++i) {
    offset = align_up(offset, natural_alignment(m, t.members[i]));
    if (i == index) return offset;
    offset = saturated(uint64_t{offset} + type_size(m, t.members[i]));
  }
  return offset;
}

uint32_t type_size(const Module& m, Id id) {
  const Type& t = m.type(id);
  switch (t.kind) {
    case TypeKind::Bool: return 4;
    case TypeKind::Int:
    case TypeKind::Float: return t.width / 8;
    case TypeKind::Vector: return saturated(uint64_t{t.count} * type_size(m, t.element));
    case TypeKind::Matrix: return saturated(uint64_t{t.count} * type_size(m, t.element));  // natural (tight columns)
    case TypeKind::Array: return saturated(uint64_t{t.count} * array_stride(m, id));
    case TypeKind::RuntimeArray: return 0;
    case TypeKind::Struct: {
      // The furthest member end: explicit Offsets need not increase (transform feedback blocks
      // may place members in any order).
      uint32_t end = 0;
      for (uint32_t i = 0; i < t.members.size(); ++i)
        end = std::max(end, saturated(uint64_t{member_offset(m, id, i)} + type_size(m, t.members[i])));
      return align_up(end, natural_alignment(m, id));
    }
    // A physical pointer is a 64-bit address; a logical one kept in Function/Private memory (variable
    // pointers) is stored as its value leaves [addr, lo, hi] (compiler/translator_internal.h).
    case TypeKind::Pointer: return t.storage_class == spv::StorageClass::PhysicalStorageBuffer ? 8 : 24;
    default: return 0;
  }
}

spv::ExecutionModel execution_model_of(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return spv::ExecutionModel::Vertex;
    case ShaderStage::TessellationControl: return spv::ExecutionModel::TessellationControl;
    case ShaderStage::TessellationEvaluation: return spv::ExecutionModel::TessellationEvaluation;
    case ShaderStage::Geometry: return spv::ExecutionModel::Geometry;
    case ShaderStage::Fragment: return spv::ExecutionModel::Fragment;
    case ShaderStage::Compute: return spv::ExecutionModel::GLCompute;
    case ShaderStage::Task: return spv::ExecutionModel::TaskEXT;
    case ShaderStage::Mesh: return spv::ExecutionModel::MeshEXT;
  }
  return spv::ExecutionModel::Max;
}

bool is_block_terminator(spv::Op op) {
  switch (op) {
    case spv::Op::OpBranch:
    case spv::Op::OpBranchConditional:
    case spv::Op::OpSwitch:
    case spv::Op::OpReturn:
    case spv::Op::OpReturnValue:
    case spv::Op::OpKill:
    case spv::Op::OpTerminateInvocation:
    case spv::Op::OpUnreachable:
    case spv::Op::OpEmitMeshTasksEXT:
      return true;
    default:
      return false;
  }
}

bool is_atomic_instruction(spv::Op op) {
  switch (op) {
    case spv::Op::OpAtomicLoad:
    case spv::Op::OpAtomicStore:
    case spv::Op::OpAtomicExchange:
    case spv::Op::OpAtomicCompareExchange:
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicIAdd:
    case spv::Op::OpAtomicISub:
    case spv::Op::OpAtomicSMin:
    case spv::Op::OpAtomicUMin:
    case spv::Op::OpAtomicSMax:
    case spv::Op::OpAtomicUMax:
    case spv::Op::OpAtomicAnd:
    case spv::Op::OpAtomicOr:
    case spv::Op::OpAtomicXor:
    case spv::Op::OpAtomicFAddEXT:
    case spv::Op::OpAtomicFMinEXT:
    case spv::Op::OpAtomicFMaxEXT: return true;
    default: return false;
  }
}

}  // namespace kiln::spirv
