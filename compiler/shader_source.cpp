#include "compiler/shader_source.h"

#include <algorithm>
#include <cstring>

namespace kiln::compiler {

bool SpecializationInput::set(uint32_t constant_id, const void* bytes, size_t size) {
  if (size != 1 && size != 2 && size != 4 && size != 8) return false;
  Value value{constant_id, static_cast<uint32_t>(size), 0};
  std::memcpy(&value.bits, bytes, size);  // little-endian host: the low bytes hold the value
  auto at = std::lower_bound(values_.begin(), values_.end(), constant_id,
                             [](const Value& v, uint32_t id) { return v.constant_id < id; });
  if (at != values_.end() && at->constant_id == constant_id)
    *at = value;
  else
    values_.insert(at, value);
  return true;
}

}  // namespace kiln::compiler
