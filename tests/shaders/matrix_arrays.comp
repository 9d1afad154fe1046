#version 450
// Arrays of matrices in a std140 block (MatrixStride 16 applies to every element) read element
// by element and written back whole, column-major and row-major (compute_instructions_test.cpp).
layout(local_size_x = 1) in;
layout(std140, binding = 0) buffer Matrices {
  mat2 columns[3];                   // offset 0, ArrayStride 32, MatrixStride 16
  layout(row_major) mat2x3 rows[2];  // offset 96, ArrayStride 48, MatrixStride 16
};
layout(std430, binding = 1) buffer Logical { float logical[]; };

void main() {
  uint k = 0;
  for (int i = 0; i < 3; ++i)
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < 2; ++r) logical[k++] = columns[i][c][r];
  for (int i = 0; i < 2; ++i)
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < 3; ++r) logical[k++] = rows[i][c][r];
  columns[1] = columns[1] * 2.0;
  rows[0] = rows[0] * 3.0;
}
