// Included by the ops_*.comp instruction tests (tests/e2e/compute_instructions_test.cpp).
// Each invocation appends its results, in a fixed order that the test mirrors, to its own row of
// `results`: row i starts at word i * kRowWords. Word 0 of the row receives the number of words
// the shader wrote, so a shader and a test that disagree on the list fail loudly; words past the
// row are never written.
layout(constant_id = 0) const uint kRowWords = 1;  // set by the test: results per invocation + 1
layout(set = 0, binding = 1) writeonly buffer Results { uint results[]; };

uint g_row;      // first word of this invocation's row
uint g_written;  // words of the row written so far (word 0 included)

void begin_results() {
  g_row = gl_GlobalInvocationID.x * kRowWords;
  g_written = 1;
}

void emit(uint x) {
  if (g_written < kRowWords) results[g_row + g_written] = x;
  g_written++;
}
void emit(int x) { emit(uint(x)); }
void emit(bool x) { emit(x ? 1u : 0u); }
void emit(float x) { emit(floatBitsToUint(x)); }
void emit(vec2 v) { emit(v.x); emit(v.y); }
void emit(vec3 v) { emit(v.x); emit(v.y); emit(v.z); }
void emit(vec4 v) { emit(v.x); emit(v.y); emit(v.z); emit(v.w); }
void emit(ivec2 v) { emit(v.x); emit(v.y); }
void emit(uvec2 v) { emit(v.x); emit(v.y); }
void emit(ivec3 v) { emit(v.x); emit(v.y); emit(v.z); }
// Matrices column by column.
void emit(mat2 m) { emit(m[0]); emit(m[1]); }
void emit(mat3 m) { emit(m[0]); emit(m[1]); emit(m[2]); }
void emit(mat4 m) { emit(m[0]); emit(m[1]); emit(m[2]); emit(m[3]); }
void emit(mat2x3 m) { emit(m[0]); emit(m[1]); }
void emit(mat3x2 m) { emit(m[0]); emit(m[1]); emit(m[2]); }

void finish_results() { results[g_row] = g_written; }
