#pragma once
// OpQuantizeToF16 of constants, folded as the SPIR-V spec defines it. SPIRV-Tools 2023.1's folder
// keeps results below half's normal range as half subnormals, where SPIR-V makes them zero; the
// front end runs this after specialization has turned spec constants into constants, before the
// folder sees them.
#include <cstdint>
#include <vector>

namespace kiln::compiler {

// The float value OpQuantizeToF16 gives for `bits` (a 32-bit float): rounded to the nearest half,
// zero (of the same sign) when that is below half's normal range; infinities and NaN stay.
uint32_t quantize_to_f16_bits(uint32_t bits);

// Replaces each `OpSpecConstantOp QuantizeToF16` whose operand is a 32-bit float OpConstant, or an
// Op(Spec)ConstantComposite of them, by the constant it computes (new component constants take ids
// past the module's bound, which grows). A module without such instructions is left as it is.
void fold_quantize_to_f16_constants(std::vector<uint32_t>& module);

}  // namespace kiln::compiler
