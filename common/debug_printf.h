#pragma once
// Formatting of debugPrintfEXT messages (docs/design/debug-output.md): the format string of
// GL_EXT_debug_printf / NonSemantic.DebugPrintf with each lane's argument values, prefixed with the
// stage and the invocation that printed. Pure functions: icd/debug_utils.cpp reports the result.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/abi/kernel_abi.h"

namespace kiln {

// One argument component: its abi::DebugPrintfCall::kinds byte and its bits (zero-extended). Kind 0
// is a string argument whose bits are a pointer to its NUL-terminated text.
struct PrintfValue {
  uint8_t kind;
  uint64_t bits;
};

// printf's conversions %d %i %u %o %x %X %c %f %F %e %E %g %G %a %A %s with flags, width and
// precision; an 'l' before or after the conversion (%lu, %ul: 64-bit values, taken from the value
// itself); %v2f .. %v4x: that many components joined by ", " (width and precision before or after
// the v: %.2v3f, %v3.2f); %% a percent sign. A value whose kind
// differs from the conversion is reinterpreted from its bits, as a GPU's printf does. A
// conversion without a value left prints "(missing)"; anything unparsable is copied as is.
std::string format_debug_printf(std::string_view format, std::span<const PrintfValue> values);

// The stage and invocation of lane `lane` from its identity ids (abi::DebugPrintfCall::ids), e.g.
// "compute workgroup (0,0,0) invocation (3,0,0)", "fragment at (12,7)".
std::string invocation_name(uint32_t stage, const uint32_t (&ids)[abi::kDebugPrintfIds][abi::kMaxDebugPrintfLanes],
                            uint32_t lane);

// Lane `lane`'s message: "<stage and invocation>: <formatted text>", e.g.
// "compute workgroup (0,0,0) invocation (3,0,0): value = 7".
std::string debug_printf_message(const abi::DebugPrintfCall& call, uint32_t lane);

}  // namespace kiln
