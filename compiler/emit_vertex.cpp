// Vertex kernels (abi::VertexKernelFn; ABI: common/abi/kernel_abi.h, graphics section). A vertex
// kernel FETCHES its attributes from the vertex buffers itself, converting the formats inline
// (VertexInputKey says which formats, at which offsets, from which bindings), into its per-lane
// Location inputs; its epilogue stores the outputs as SoA records (emit_graphics.h).
#include <array>
#include <map>

#include "compiler/emit_graphics.h"
#include "compiler/stage_interface.h"
#include "compiler/vertex_formats.h"

namespace kiln::compiler {
namespace {

llvm::Value* as_i32(Translator& t, llvm::Value* leaf) {
  return t.b().CreateBitCast(leaf, t.lane_type(t.b().getInt32Ty()));
}

// The four 32-bit components (as <W x i32> bit patterns) of the attribute at `location` for every
// lane: elements whose bytes extend past the buffer's `size` (or an unbound buffer) read
bool fetch_attribute(Translator& t, uint32_t location, bool integer, std::array<llvm::Value*, 4>* out) {
  auto& b = t.b();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* i64 = b.getInt64Ty();
  if (t.options_.vertex_input && t.options_.vertex_input->staged) {  // fetched by another kernel
    llvm::Value* table = invocation_field(t, offsetof(abi::VertexInvocation, staged_attributes), b.getPtrTy());
    llvm::Value* staged =
        b.CreateLoad(b.getPtrTy(), b.CreateConstGEP1_64(b.getInt8Ty(), table, uint64_t{location} * sizeof(void*)));
    for (uint32_t c = 0; c < 4; ++c) (*out)[c] = lane_array(t, staged, uint64_t{c} * t.width() * 4, i32);
    return true;
  }
  const VertexAttributeKey* attribute = nullptr;
  if (t.options_.vertex_input)
    for (const VertexAttributeKey& a : t.options_.vertex_input->attributes)
      if (a.location == location) attribute = &a;
  const abi::VertexFormat* format = attribute ? abi::vertex_format(static_cast<VkFormat>(attribute->format)) : nullptr;
  auto default_component = [&](uint32_t c, bool integer_format) {
    const uint32_t one = integer_format ? 1u : 0x3f800000u;  // 1 or 1.0f
    return t.splat(b.getInt32(c == 3 ? one : 0));
  };
  if (!attribute) {  // the application feeds nothing here (invalid usage): read the defaults
    for (uint32_t c = 0; c < 4; ++c) (*out)[c] = default_component(c, integer);
    return true;
  }
  if (!format || attribute->binding >= abi::kMaxVertexBindings) {
    t.error_ = "vertex attribute at Location " + std::to_string(location) + " has format " +
               std::to_string(attribute->format) + " or binding " + std::to_string(attribute->binding) +
               ", which vertex kernels cannot fetch";
    return false;
  }
  const VertexBindingKey* binding = nullptr;
  for (const VertexBindingKey& k : t.options_.vertex_input->bindings)
    if (k.binding == attribute->binding) binding = &k;

  llvm::Value* buffers = invocation_field(t, offsetof(abi::VertexInvocation, vertex_buffers), b.getPtrTy());
  llvm::Value* record = b.CreateConstGEP1_64(b.getInt8Ty(), buffers, uint64_t{attribute->binding} * sizeof(abi::VertexBufferRecord));
  auto record_field = [&](size_t offset) { return b.CreateLoad(i64, b.CreateConstGEP1_64(b.getInt8Ty(), record, offset)); };
  llvm::Value* address = record_field(offsetof(abi::VertexBufferRecord, address));
  llvm::Value* size = record_field(offsetof(abi::VertexBufferRecord, size));
  llvm::Value* stride = record_field(offsetof(abi::VertexBufferRecord, stride));

  llvm::Value* element;  // <W x i64>
  if (binding && binding->per_instance) {
    llvm::Value* base_instance = invocation_field(t, offsetof(abi::VertexInvocation, base_instance), i32);
    llvm::Value* instance = base_instance;
    if (binding->divisor != 0) {
      llvm::Value* instance_index = invocation_field(t, offsetof(abi::VertexInvocation, instance_index), i32);
      instance = b.CreateAdd(base_instance, b.CreateUDiv(b.CreateSub(instance_index, base_instance), b.getInt32(binding->divisor)));
    }
    element = t.splat(b.CreateZExt(instance, i64));
  } else {
    // VertexIndex may be negative (vertexOffset): as unsigned it is far out of range.
    llvm::Value* indices = invocation_field(t, offsetof(abi::VertexInvocation, vertex_index), b.getPtrTy());
    element = b.CreateZExt(lane_array(t, indices, 0, i32), t.lane_type(i64));
  }
  const uint64_t bytes = format->bytes();
  llvm::Value* offset = b.CreateAdd(b.CreateMul(element, t.splat(stride)), t.splat(b.getInt64(attribute->offset)));
  llvm::Value* buffer_ok = b.CreateAnd(b.CreateICmpNE(address, b.getInt64(0)), b.CreateICmpUGE(size, b.getInt64(bytes)));
  llvm::Value* inside = b.CreateAnd(t.splat(buffer_ok), b.CreateICmpULE(offset, t.splat(b.CreateSub(size, b.getInt64(bytes)))));
  llvm::Value* lanes = b.CreateAnd(t.mask(), inside);
  llvm::Value* base = b.CreateAdd(t.splat(address), offset);
  auto gather = [&](llvm::Type* raw, uint64_t at) {
    llvm::Value* pointers = b.CreateIntToPtr(b.CreateAdd(base, t.splat(b.getInt64(at))), t.lane_type(b.getPtrTy()));
    return b.CreateMaskedGather(t.lane_type(raw), pointers, llvm::Align(1), lanes, llvm::Constant::getNullValue(t.lane_type(raw)));
  };
  const uint32_t unit = abi::unit_bits(format->layout, format->bits);
  std::map<uint32_t, llvm::Value*> units;  // by byte offset: a packed word is fetched once
  for (uint32_t c = 0; c < 4; ++c) {
    llvm::Value* fallback = default_component(c, format->integer());
    if (c >= format->components) {
      (*out)[c] = fallback;
      continue;
    }
    const abi::ChannelField field = abi::channel_field(format->layout, format->bits, c);
    llvm::Value*& loaded = units[field.byte];
    if (!loaded) loaded = gather(b.getIntNTy(unit), field.byte);
    // Lanes outside the buffer gathered zero: they read the format's zero, (0, 0, 0, 1) for a
    // format without a fourth component and (0, 0, 0, 0) with one (robustBufferAccess2).
    (*out)[c] = as_i32(t, component_to_value(t, format->numeric, field.bits, extract_field(t, loaded, field)));
  }
  return true;
}


class VertexEmitter final : public GraphicsEmitter {
 public:
  using GraphicsEmitter::GraphicsEmitter;

  void begin_kernel() override {
    begin_lane_count_kernel(offsetof(abi::VertexInvocation, resources), offsetof(abi::VertexInvocation, faults),
                            offsetof(abi::VertexInvocation, lane_count));
  }

  // The attributes, fetched once per Location, into the Location inputs.
  bool prologue() override {
    auto& b = t_.b();
    std::vector<InterfaceVariable> inputs;
    if (!interface_variables(t_, true, &inputs, &t_.error_)) return false;
    std::map<uint32_t, std::array<llvm::Value*, 4>> fetched;  // by Location
    for (const InterfaceVariable& v : inputs) {
      Value value;
      for (const InterfaceLeaf& leaf : v.leaves) {
        if (leaf.wide) {
          t_.error_ = "64-bit vertex attributes are not supported";
          return false;
        }
        auto it = fetched.find(leaf.location);
        if (it == fetched.end()) {
          std::array<llvm::Value*, 4> components{};
          if (!fetch_attribute(t_, leaf.location, is_integer(t_, leaf.scalar), &components)) return false;
          it = fetched.emplace(leaf.location, components).first;
        }
        value.leaves.push_back(b.CreateBitCast(it->second[leaf.component], t_.lane_type(t_.leaf_type(leaf.scalar))));
      }
      t_.store(t_.pointers_.at(v.id), v.pointee, value);
    }
    return true;
  }

  llvm::Value* builtin(spv::BuiltIn builtin, uint32_t) override {
    auto& b = t_.b();
    llvm::Type* i32 = b.getInt32Ty();
    using V = abi::VertexInvocation;
    switch (builtin) {
      case spv::BuiltIn::VertexIndex:
        return lane_array(t_, invocation_field(t_, offsetof(V, vertex_index), b.getPtrTy()), 0, i32);
      case spv::BuiltIn::InstanceIndex: return t_.splat(invocation_field(t_, offsetof(V, instance_index), i32));
      case spv::BuiltIn::BaseVertex: return t_.splat(invocation_field(t_, offsetof(V, base_vertex), i32));
      case spv::BuiltIn::BaseInstance: return t_.splat(invocation_field(t_, offsetof(V, base_instance), i32));
      case spv::BuiltIn::DrawIndex: return t_.splat(invocation_field(t_, offsetof(V, draw_index), i32));
      case spv::BuiltIn::ViewIndex: return t_.splat(invocation_field(t_, offsetof(V, view_index), i32));
      default: return nullptr;
    }
  }

  bool epilogue() override { return store_vertex_outputs(offsetof(abi::VertexInvocation, outputs), &outputs_); }

  std::vector<BuiltinElement> debug_printf_ids() override {
    return {{spv::BuiltIn::VertexIndex, 0}, {spv::BuiltIn::InstanceIndex, 0}};
  }

  const abi::VertexOutputLayout& outputs() const { return outputs_; }

 private:
  abi::VertexOutputLayout outputs_;
};

}  // namespace

std::unique_ptr<StageEmitter> make_vertex_emitter(Translator& t) { return std::make_unique<VertexEmitter>(t); }

std::unique_ptr<llvm::Module> translate_vertex(const spirv::Module& module, const spirv::EntryPoint& entry,
                                               const TranslateOptions& options, llvm::LLVMContext& context,
                                               const std::string& symbol, abi::VertexOutputLayout* outputs,
                                               std::string* error) {
  if (!entry_point_is(entry, spv::ExecutionModel::Vertex, "vertex", error)) return nullptr;
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (ir) *outputs = static_cast<const VertexEmitter&>(t.stage()).outputs();
  return ir;
}

}  // namespace kiln::compiler
