// The 64-bit values wide_varyings_* pass between stages: none is exact in float, and the
// halves differ, so a truncation to float, a lost half or swapped halves all change them.
const dvec3 kWideVector = dvec3(1.0LF / 3.0LF, 1.0e300LF, -1099511627777.0LF);
const double kWideScalar = 0.1LF;
