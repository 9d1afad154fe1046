#version 460
// Specialization constants: the workgroup width (constant_id 0), a multiplier (1), a flag (2),
// a float offset (3), and a constant derived from the multiplier (an OpSpecConstantOp).
//   values[i] = values[i] * kMultiplier + workgroup width
//               (+ kOffset * (kMultiplier + 1) when kAddOffset)
// so a test can see every constant's value in the result.
layout(local_size_x_id = 0) in;

layout(constant_id = 1) const uint kMultiplier = 3u;
layout(constant_id = 2) const bool kAddOffset = false;
layout(constant_id = 3) const float kOffset = 0.5;
const uint kMultiplierPlusOne = kMultiplier + 1u;

layout(set = 0, binding = 0) buffer Values { float values[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = values[i] * float(kMultiplier) + float(gl_WorkGroupSize.x);
  if (kAddOffset) v += kOffset * float(kMultiplierPlusOne);
  values[i] = v;
}
