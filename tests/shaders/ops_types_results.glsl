// emit() for the 8-, 16- and 64-bit types, included after ops_results.glsl by the shaders of
// tests/e2e/compute_types_test.cpp (which enable GL_EXT_shader_explicit_arithmetic_types).
// Every result still goes out as 32-bit words (typed_rows.h reads them back):
//  - 64-bit integers and doubles: two words, low word first;
//  - 8- and 16-bit integers: one word, sign- or zero-extended;
//  - float16: one word holding its bit pattern in the low 16 bits.
// glslang drops the overloads a shader never calls, so a shader declares only the capabilities of
// the types it actually uses.

void emit(uint64_t x) { emit(uint(x & 0xFFFFFFFFul)); emit(uint(x >> 32)); }
void emit(int64_t x) { emit(uint64_t(x)); }
void emit(double x) { emit(doubleBitsToUint64(x)); }
void emit(uint16_t x) { emit(uint(x)); }
void emit(int16_t x) { emit(int(x)); }
void emit(uint8_t x) { emit(uint(x)); }
void emit(int8_t x) { emit(int(x)); }
void emit(float16_t x) { emit(uint(float16BitsToUint16(x))); }

void emit(u64vec2 v) { emit(v.x); emit(v.y); }
void emit(u64vec3 v) { emit(v.x); emit(v.y); emit(v.z); }
void emit(i64vec2 v) { emit(v.x); emit(v.y); }
void emit(dvec2 v) { emit(v.x); emit(v.y); }
void emit(dvec3 v) { emit(v.x); emit(v.y); emit(v.z); }
void emit(u16vec2 v) { emit(v.x); emit(v.y); }
void emit(i16vec2 v) { emit(v.x); emit(v.y); }
void emit(u8vec2 v) { emit(v.x); emit(v.y); }
void emit(u8vec4 v) { emit(v.x); emit(v.y); emit(v.z); emit(v.w); }
void emit(i8vec3 v) { emit(v.x); emit(v.y); emit(v.z); }
void emit(f16vec2 v) { emit(v.x); emit(v.y); }
void emit(f16vec3 v) { emit(v.x); emit(v.y); emit(v.z); }
