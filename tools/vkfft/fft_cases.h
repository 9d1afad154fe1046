#pragma once
// FFT shapes, their buffer layout, host data and the CPU reference (FFTW, in double) shared by
// the VkFFT test (tests/vkfft/vkfft_test.cpp) and kiln-bench's vkfft_* scenarios.
//
// Layout of the one buffer a plan transforms in place (VkFFT's default):
// - complex-to-complex: x*y*z*batches complex values (float or double pairs), x fastest;
// - real-to-complex (R2C forward, C2R inverse): rows of x/2+1 complex values (x even); the real
//   signal occupies the first x reals of each row of 2*(x/2+1), the spectrum the whole row
//   (the non-redundant half along x). Rows: y*z*batches.
// Signs and scale as FFTW: forward exp(-2*pi*i*k*n/N), inverse exp(+...), neither normalised.
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::vkfft {

enum class Precision { kSingle, kDouble };
enum class Kind { kComplex, kReal };  // kReal: R2C forward, C2R inverse

struct FftShape {
  std::string name;
  uint32_t dims = 1;                // 1, 2 or 3
  uint64_t size[3] = {1, 1, 1};     // x (contiguous), y, z; 1 beyond dims
  uint64_t batches = 1;
  Precision precision = Precision::kSingle;
  Kind kind = Kind::kComplex;

  uint64_t rows() const { return size[1] * size[2] * batches; }  // of x values
  uint64_t spectrum_row() const { return kind == Kind::kReal ? size[0] / 2 + 1 : size[0]; }
  uint64_t spectrum_values() const { return spectrum_row() * rows(); }    // complex
  uint64_t signal_values() const { return size[0] * rows(); }             // real or complex
  uint64_t scalar_bytes() const { return precision == Precision::kDouble ? 8 : 4; }
  uint64_t buffer_bytes() const { return spectrum_values() * 2 * scalar_bytes(); }
  // Human-readable, e.g. "2D 64x45 C2C fp32 x4".
  std::string describe() const;
};

// Largest relative L2 error (|result - reference|_2 / |reference|_2 over the whole output)
// accepted for `shape`'s precision. Why these values: tools/vkfft/README.md.
double tolerance(const FftShape& shape);

// A signal: complex values (C2C) or reals (R2C input, C2R output), signal_values() of them.
struct Signal {
  std::vector<std::complex<double>> complex;
  std::vector<double> real;
};
using Spectrum = std::vector<std::complex<double>>;  // spectrum_values() values

// Uniform random values in [-1, 1), already rounded to the shape's precision.
Signal random_signal(const FftShape& shape, uint64_t seed);
// `spectrum` rounded to the shape's precision (what the device will be given).
Spectrum rounded(const FftShape& shape, Spectrum spectrum);

// The CPU reference in double precision (FFTW).
Spectrum reference_forward(const FftShape& shape, const Signal& signal);
Signal reference_inverse(const FftShape& shape, const Spectrum& spectrum);

// Between host data and the device buffer's bytes (buffer_bytes() of them, mapped).
void write_signal(const FftShape& shape, const Signal& signal, void* buffer);
void write_spectrum(const FftShape& shape, const Spectrum& spectrum, void* buffer);
Signal read_signal(const FftShape& shape, const void* buffer);
Spectrum read_spectrum(const FftShape& shape, const void* buffer);

// Relative L2 error of `result` against `reference` (infinity when a value is not finite).
double relative_error(const Spectrum& result, const Spectrum& reference);
double relative_error(const Signal& result, const Signal& reference);

// The transforms of the VkFFT test (ctest: small, a few seconds on Kiln) and of kiln-bench's
// vkfft_* scenarios (bigger, one plan per radix family).
std::vector<FftShape> test_shapes();
std::vector<FftShape> bench_shapes();

}  // namespace kiln::vkfft
