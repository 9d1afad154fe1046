// Tessellation evaluation kernels (ABI: common/abi/kernel_abi.h, tessellation section;
// docs/design/tessellation.md). A call's lanes are domain points of one patch; inputs come from the
// control kernel's patch memory (emit_tessellation.h), and the outputs leave as SoA records like a
// vertex kernel's (emit_graphics.h).
#include <string>
#include <vector>

#include "compiler/emit_tessellation.h"
#include "compiler/stage_interface.h"

namespace kiln::compiler {
namespace {

using E = abi::TessEvalInvocation;

class TessEvaluationEmitter final : public TessellationEmitter {
 public:
  using TessellationEmitter::TessellationEmitter;

  void begin_kernel() override {
    begin_lane_count_kernel(offsetof(E, resources), offsetof(E, faults), offsetof(E, lane_count));
  }
  bool prologue() override { return load_patch_inputs(offsetof(E, inputs), offsetof(E, patch_inputs)); }
  llvm::Value* builtin(spv::BuiltIn builtin, uint32_t component) override {
    auto& b = t_.b();
    llvm::Type* i32 = b.getInt32Ty();
    switch (builtin) {
      case spv::BuiltIn::TessCoord:
        if (component > 2) return nullptr;
        return lane_array(t_, invocation_field(t_, offsetof(E, tess_coord), b.getPtrTy()),
                          uint64_t{component} * t_.width() * 4, b.getFloatTy());
      case spv::BuiltIn::PrimitiveId: return t_.splat(invocation_field(t_, offsetof(E, primitive_id), i32));
      case spv::BuiltIn::PatchVertices: return t_.splat(invocation_field(t_, offsetof(E, patch_vertices), i32));
      case spv::BuiltIn::ViewIndex: return t_.splat(invocation_field(t_, offsetof(E, view_index), i32));
      default: return nullptr;
    }
  }
  bool epilogue() override { return store_vertex_outputs(offsetof(E, outputs), &outputs_); }
  std::vector<BuiltinElement> debug_printf_ids() override {
    return {{spv::BuiltIn::PrimitiveId, 0}, {spv::BuiltIn::TessCoord, 0}, {spv::BuiltIn::TessCoord, 1},
            {spv::BuiltIn::TessCoord, 2}};
  }

  const abi::VertexOutputLayout& outputs() const { return outputs_; }

 private:
  abi::VertexOutputLayout outputs_;
};

}  // namespace

std::unique_ptr<StageEmitter> make_tess_evaluation_emitter(Translator& t) {
  return std::make_unique<TessEvaluationEmitter>(t);
}

std::unique_ptr<llvm::Module> translate_tess_eval(const spirv::Module& module, const spirv::EntryPoint& entry,
                                                  const TranslateOptions& options, llvm::LLVMContext& context,
                                                  const std::string& symbol, TessEvalInfo* info, std::string* error) {
  if (!entry_point_is(entry, spv::ExecutionModel::TessellationEvaluation, "tessellation evaluation", error)) return nullptr;
  Translator t(module, entry, options, context, symbol);
  auto ir = t.run(error);
  if (!ir) return nullptr;
  const auto& stage = static_cast<const TessEvaluationEmitter&>(t.stage());
  info->modes = stage.modes();
  info->outputs = stage.outputs();
  return ir;
}

}  // namespace kiln::compiler
