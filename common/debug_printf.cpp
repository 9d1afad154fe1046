#include "common/debug_printf.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/abi/shader_stage.h"

namespace kiln {
namespace {

double half_to_double(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  double value;
  if (exponent == 0) value = std::ldexp(mantissa, -24);
  else if (exponent == 31) value = mantissa ? NAN : INFINITY;
  else value = std::ldexp(mantissa | 0x400, exponent - 25);
  return (h & 0x8000) ? -value : value;
}

uint32_t width_of(const PrintfValue& v) { return v.kind & abi::kPrintfWidthMask; }

// The value read as a floating-point number of its width.
double as_double(const PrintfValue& v) {
  switch (width_of(v)) {
    case 16: return half_to_double(uint16_t(v.bits));
    case 32: {
      float f;
      const uint32_t bits = uint32_t(v.bits);
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case 64: {
      double d;
      std::memcpy(&d, &v.bits, 8);
      return d;
    }
    default: return double(v.bits);
  }
}

uint64_t as_unsigned(const PrintfValue& v) {
  const uint32_t w = width_of(v);
  return w >= 64 || w == 0 ? v.bits : v.bits & ((uint64_t{1} << w) - 1);
}

int64_t as_signed(const PrintfValue& v) {
  const uint32_t w = width_of(v);
  if (w >= 64 || w == 0) return int64_t(v.bits);
  const uint64_t sign = uint64_t{1} << (w - 1);
  return int64_t((as_unsigned(v) ^ sign) - sign);
}

template <typename T>
std::string print(const std::string& spec, T value) {
  char buffer[128];
  int n = std::snprintf(buffer, sizeof buffer, spec.c_str(), value);
  if (n < 0) return {};
  if (size_t(n) < sizeof buffer) return std::string(buffer, size_t(n));
  std::vector<char> big(size_t(n) + 1);
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  return std::string(big.data(), size_t(n));
}

// One value with `flags_width_precision` (e.g. "-8.3") and conversion `c`.
std::string format_value(const std::string& flags_width_precision, char c, const PrintfValue& v) {
  const std::string base = "%" + flags_width_precision;
  switch (c) {
    case 'd':
    case 'i': return print(base + "ll" + c, static_cast<long long>(as_signed(v)));
    case 'u':
    case 'o':
    case 'x':
    case 'X': return print(base + "ll" + c, static_cast<unsigned long long>(as_unsigned(v)));
    case 'c': return print(base + c, static_cast<int>(as_unsigned(v) & 0xff));
    case 's': {
      const char* text = v.kind == 0 ? reinterpret_cast<const char*>(uintptr_t(v.bits)) : nullptr;
      return print(base + c, text ? text : "(not a string)");
    }
    default:  // f F e E g G a A
      return print(base + c, width_of(v) >= 16 ? as_double(v) : double(v.bits));
  }
}

constexpr std::string_view kConversions = "diouxXcsfFeEgGaA";

}  // namespace

std::string format_debug_printf(std::string_view format, std::span<const PrintfValue> values) {
  std::string out;
  size_t next = 0;
  size_t i = 0;
  while (i < format.size()) {
    const char ch = format[i];
    if (ch != '%') {
      out += ch;
      ++i;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      i += 2;
      continue;
    }
    // %[flags][width][.precision][v2-4[width][.precision]][l|ll|h|hh]conversion[l]
    size_t at = i + 1;
    std::string spec;
    while (at < format.size() && std::strchr("-+ #0", format[at])) spec += format[at++];
    while (at < format.size() && format[at] >= '0' && format[at] <= '9') spec += format[at++];
    if (at < format.size() && format[at] == '.') {
      spec += format[at++];
      while (at < format.size() && format[at] >= '0' && format[at] <= '9') spec += format[at++];
    }
    uint32_t components = 1;
    if (at + 1 < format.size() && format[at] == 'v' && format[at + 1] >= '2' && format[at + 1] <= '4') {
      components = uint32_t(format[at + 1] - '0');
      at += 2;
      // Width and precision may also follow the vector size (%v3.2f).
      while (at < format.size() && ((format[at] >= '0' && format[at] <= '9') || format[at] == '.')) spec += format[at++];
    }
    while (at < format.size() && (format[at] == 'l' || format[at] == 'h')) ++at;  // sizes come from the values
    if (at >= format.size() || kConversions.find(format[at]) == std::string_view::npos) {
      out += format.substr(i, at - i);  // not a conversion: copied as written
      i = at;
      continue;
    }
    const char conversion = format[at++];
    if (at < format.size() && format[at] == 'l' && std::strchr("diouxX", conversion)) ++at;  // %ul
    for (uint32_t c = 0; c < components; ++c) {
      if (c) out += ", ";
      if (next < values.size()) out += format_value(spec, conversion, values[next++]);
      else out += "(missing)";
    }
    i = at;
  }
  return out;
}

std::string invocation_name(uint32_t stage, const uint32_t (&ids)[abi::kDebugPrintfIds][abi::kMaxDebugPrintfLanes],
                            uint32_t lane) {
  auto id = [&](uint32_t j) { return ids[j][lane]; };
  auto tess_coord = [&](uint32_t j) {
    float f;
    const uint32_t bits = id(j);
    std::memcpy(&f, &bits, 4);
    return f;
  };
  char prefix[160];
  switch (ShaderStage(stage)) {
    case ShaderStage::Vertex: std::snprintf(prefix, sizeof prefix, "vertex index %d instance %u", int32_t(id(0)), id(1)); break;
    case ShaderStage::TessellationControl:
      std::snprintf(prefix, sizeof prefix, "tessellation control primitive %u invocation %u", id(0), id(1));
      break;
    case ShaderStage::TessellationEvaluation:
      std::snprintf(prefix, sizeof prefix, "tessellation evaluation primitive %u coord (%g,%g,%g)", id(0), tess_coord(1),
                    tess_coord(2), tess_coord(3));
      break;
    case ShaderStage::Geometry: std::snprintf(prefix, sizeof prefix, "geometry primitive %u invocation %u", id(0), id(1)); break;
    case ShaderStage::Fragment: std::snprintf(prefix, sizeof prefix, "fragment at (%d,%d)", int32_t(id(0)), int32_t(id(1))); break;
    default:
      std::snprintf(prefix, sizeof prefix, "%s workgroup (%u,%u,%u) invocation (%u,%u,%u)",
                    ShaderStage(stage) == ShaderStage::Task   ? "task"
                    : ShaderStage(stage) == ShaderStage::Mesh ? "mesh"
                                                              : "compute",
                    id(0), id(1), id(2), id(3), id(4), id(5));
      break;
  }
  return prefix;
}

std::string debug_printf_message(const abi::DebugPrintfCall& call, uint32_t lane) {
  std::vector<PrintfValue> values(call.value_count);
  for (uint32_t k = 0; k < call.value_count; ++k) values[k] = {call.kinds[k], call.values[size_t(k) * call.width + lane]};
  return invocation_name(call.stage, call.ids, lane) + ": " + format_debug_printf(call.format, values);
}

}  // namespace kiln
