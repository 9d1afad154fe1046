// Integer dot products (SPV_KHR_integer_dot_product, core in SPIR-V 1.6 / Vulkan 1.3):
// OpSDot/OpUDot/OpSUDot and their *AccSat forms, on integer vectors of any width and on 32-bit
// scalars holding four packed 8-bit components (PackedVectorFormat4x8Bit, lowest byte first).
//
// Per the SPIR-V spec the components are sign- (S, and Vector 1 of SU) or zero-extended (U, and
// Vector 2 of SU) to the result's width, multiplied and summed; the plain forms wrap, which adding
// in the result's width gives exactly. The AccSat forms add Accumulator with saturation (signed
// for S and SU, unsigned for U); overflow before that final addition is undefined, so the sum of
// products is formed in the result's width as well.
#include <llvm/IR/Intrinsics.h>

#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

// The components of one operand as <W x iN> leaves: the vector's leaves, or the four bytes of a
// packed 32-bit scalar.
std::vector<llvm::Value*> components(llvm::IRBuilder<>& b, const Value& operand) {
  if (operand.leaves.size() != 1) return operand.leaves;
  llvm::Value* packed = operand.leaves[0];
  auto* lanes = llvm::cast<llvm::VectorType>(packed->getType());
  llvm::Type* bytes = llvm::VectorType::get(b.getInt8Ty(), lanes->getElementCount());
  std::vector<llvm::Value*> out;
  for (unsigned k = 0; k < 4; ++k)
    out.push_back(b.CreateTrunc(b.CreateLShr(packed, llvm::ConstantInt::get(lanes, 8 * k)), bytes));
  return out;
}

}  // namespace

bool Translator::dot_instruction(const spirv::Instruction& inst, bool* handled) {
  *handled = true;
  auto& b = builder_;
  bool x_signed, y_signed, accumulate;
  switch (inst.opcode) {
    case spv::Op::OpSDot: x_signed = y_signed = true, accumulate = false; break;
    case spv::Op::OpUDot: x_signed = y_signed = false, accumulate = false; break;
    case spv::Op::OpSUDot: x_signed = true, y_signed = false, accumulate = false; break;
    case spv::Op::OpSDotAccSat: x_signed = y_signed = true, accumulate = true; break;
    case spv::Op::OpUDotAccSat: x_signed = y_signed = false, accumulate = true; break;
    case spv::Op::OpSUDotAccSat: x_signed = true, y_signed = false, accumulate = true; break;
    default: *handled = false; return true;
  }
  std::vector<Id> result_scalars;
  scalar_types(inst.result_type, &result_scalars);
  llvm::Type* result = result_scalars.size() == 1 ? leaf_type(result_scalars[0]) : nullptr;
  if (!result || !result->isIntegerTy()) return fail(inst, "dot product result is not an integer scalar");
  llvm::Type* lanes = lane_type(result);
  const std::vector<llvm::Value*> x = components(b, get(inst.operands[0]));
  const std::vector<llvm::Value*> y = components(b, get(inst.operands[1]));
  if (x.size() != y.size() || x.empty()) return fail(inst, "dot product operands differ in component count");
  llvm::Value* sum = llvm::Constant::getNullValue(lanes);
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i]->getType()->getScalarSizeInBits() > result->getIntegerBitWidth() ||
        y[i]->getType()->getScalarSizeInBits() > result->getIntegerBitWidth())
      return fail(inst, "dot product result narrower than its components");
    llvm::Value* xi = x_signed ? b.CreateSExt(x[i], lanes) : b.CreateZExt(x[i], lanes);
    llvm::Value* yi = y_signed ? b.CreateSExt(y[i], lanes) : b.CreateZExt(y[i], lanes);
    sum = b.CreateAdd(sum, b.CreateMul(xi, yi));
  }
  if (accumulate) {
    llvm::Value* acc = get(inst.operands[2]).leaves.at(0);
    sum = b.CreateBinaryIntrinsic(x_signed ? llvm::Intrinsic::sadd_sat : llvm::Intrinsic::uadd_sat, sum, acc);
  }
  set(inst.result, Value{{sum}});
  return true;
}

}  // namespace kiln::compiler
