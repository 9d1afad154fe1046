#include "tools/vkfft/fft_cases.h"

#include <fftw3.h>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>

namespace kiln::vkfft {
namespace {

double round_to(Precision precision, double value) {
  return precision == Precision::kSingle ? static_cast<double>(static_cast<float>(value)) : value;
}

// The shape as FFTW's "many" interface sees it: dimensions slowest first (z, y, x), so FFTW's
// last dimension is our contiguous x; one transform per batch, each `signal_dist` signal values
// and `spectrum_dist` spectrum values after the previous.
struct FftwLayout {
  std::vector<int> n;
  int rank = 0;
  int batches = 0;
  int signal_dist = 0;
  int spectrum_dist = 0;
};

FftwLayout fftw_layout(const FftShape& shape) {
  FftwLayout layout;
  for (uint32_t d = shape.dims; d-- > 0;) layout.n.push_back(static_cast<int>(shape.size[d]));
  layout.rank = static_cast<int>(layout.n.size());
  layout.batches = static_cast<int>(shape.batches);
  layout.signal_dist = static_cast<int>(shape.signal_values() / shape.batches);
  layout.spectrum_dist = static_cast<int>(shape.spectrum_values() / shape.batches);
  return layout;
}

fftw_complex* as_fftw(std::complex<double>* values) { return reinterpret_cast<fftw_complex*>(values); }

template <typename T>
void write_values(const std::vector<double>& scalars, void* buffer) {
  T* out = static_cast<T*>(buffer);
  for (size_t i = 0; i < scalars.size(); ++i) out[i] = static_cast<T>(scalars[i]);
}

template <typename T>
std::vector<double> read_values(const void* buffer, size_t count) {
  const T* in = static_cast<const T*>(buffer);
  return std::vector<double>(in, in + count);
}

void write_scalars(const FftShape& shape, const std::vector<double>& scalars, void* buffer) {
  if (shape.precision == Precision::kDouble) write_values<double>(scalars, buffer);
  else write_values<float>(scalars, buffer);
}

std::vector<double> read_scalars(const FftShape& shape, const void* buffer) {
  const size_t count = shape.spectrum_values() * 2;
  return shape.precision == Precision::kDouble ? read_values<double>(buffer, count)
                                               : read_values<float>(buffer, count);
}

template <typename T>
double relative_l2(const std::vector<T>& result, const std::vector<T>& reference) {
  if (result.size() != reference.size()) return INFINITY;
  double difference = 0, norm = 0;
  for (size_t i = 0; i < result.size(); ++i) {
    difference += std::norm(result[i] - reference[i]);
    norm += std::norm(reference[i]);
  }
  if (!std::isfinite(difference)) return INFINITY;
  return norm > 0 ? std::sqrt(difference / norm) : std::sqrt(difference);
}

FftShape shape(std::string name, std::vector<uint64_t> size, uint64_t batches, Precision precision,
               Kind kind) {
  FftShape s;
  s.name = std::move(name);
  s.dims = static_cast<uint32_t>(size.size());
  for (size_t d = 0; d < size.size(); ++d) s.size[d] = size[d];
  s.batches = batches;
  s.precision = precision;
  s.kind = kind;
  return s;
}

constexpr Precision kF32 = Precision::kSingle;
constexpr Precision kF64 = Precision::kDouble;
constexpr Kind kC2C = Kind::kComplex;
constexpr Kind kR2C = Kind::kReal;

}  // namespace

std::string FftShape::describe() const {
  std::ostringstream out;
  out << dims << "D ";
  for (uint32_t d = 0; d < dims; ++d) out << (d ? "x" : "") << size[d];
  out << (kind == Kind::kReal ? " R2C/C2R " : " C2C ") << (precision == Precision::kDouble ? "fp64" : "fp32");
  if (batches > 1) out << " x" << batches;
  return out.str();
}

double tolerance(const FftShape& shape) {
  // A correct FFT's relative L2 error grows like eps * sqrt(log2 N) (rounding errors of the
  // log2 N butterfly stages add up as a random walk); VkFFT also rounds its twiddle factors
  // (fp32: sincos in float; fp64: a table computed in double), and Bluestein's algorithm runs
  // three FFTs of twice the size plus chirp multiplications. Kiln and lavapipe measure at most
  // 3.5e-7 (fp32) and 1.0e-15 (fp64) on every shape; the limits leave a 25x margin for other
  // legitimate rounding (fused multiply-adds, a different sin/cos), while any real error
  // (a wrong element, a missed barrier, a wrong twiddle) is orders of magnitude larger.
  return shape.precision == Precision::kDouble ? 3e-14 : 1e-5;
}

Signal random_signal(const FftShape& shape, uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Signal signal;
  const uint64_t count = shape.signal_values();
  if (shape.kind == Kind::kReal) {
    signal.real.resize(count);
    for (double& v : signal.real) v = round_to(shape.precision, uniform(generator));
  } else {
    signal.complex.resize(count);
    for (auto& v : signal.complex) {
      const double re = round_to(shape.precision, uniform(generator));
      const double im = round_to(shape.precision, uniform(generator));
      v = {re, im};
    }
  }
  return signal;
}

Spectrum rounded(const FftShape& shape, Spectrum spectrum) {
  for (auto& v : spectrum) v = {round_to(shape.precision, v.real()), round_to(shape.precision, v.imag())};
  return spectrum;
}

Spectrum reference_forward(const FftShape& shape, const Signal& signal) {
  const FftwLayout l = fftw_layout(shape);
  Signal in = signal;  // FFTW's input arrays are not const
  Spectrum out(shape.spectrum_values());
  fftw_plan plan;
  if (shape.kind == Kind::kReal) {
    plan = fftw_plan_many_dft_r2c(l.rank, l.n.data(), l.batches, in.real.data(), nullptr, 1, l.signal_dist,
                                  as_fftw(out.data()), nullptr, 1, l.spectrum_dist, FFTW_ESTIMATE);
  } else {
    plan = fftw_plan_many_dft(l.rank, l.n.data(), l.batches, as_fftw(in.complex.data()), nullptr, 1,
                              l.signal_dist, as_fftw(out.data()), nullptr, 1, l.spectrum_dist, FFTW_FORWARD,
                              FFTW_ESTIMATE);
  }
  fftw_execute(plan);  // FFTW_ESTIMATE plans leave the arrays alone until here
  fftw_destroy_plan(plan);
  return out;
}

Signal reference_inverse(const FftShape& shape, const Spectrum& spectrum) {
  const FftwLayout l = fftw_layout(shape);
  Spectrum in = spectrum;  // c2r overwrites its input
  Signal out;
  fftw_plan plan;
  if (shape.kind == Kind::kReal) {
    out.real.resize(shape.signal_values());
    plan = fftw_plan_many_dft_c2r(l.rank, l.n.data(), l.batches, as_fftw(in.data()), nullptr, 1, l.spectrum_dist,
                                  out.real.data(), nullptr, 1, l.signal_dist, FFTW_ESTIMATE);
  } else {
    out.complex.resize(shape.signal_values());
    plan = fftw_plan_many_dft(l.rank, l.n.data(), l.batches, as_fftw(in.data()), nullptr, 1, l.spectrum_dist,
                              as_fftw(out.complex.data()), nullptr, 1, l.signal_dist, FFTW_BACKWARD, FFTW_ESTIMATE);
  }
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return out;
}

void write_signal(const FftShape& shape, const Signal& signal, void* buffer) {
  std::vector<double> scalars(shape.spectrum_values() * 2, 0.0);
  if (shape.kind == Kind::kReal) {
    const uint64_t row = shape.spectrum_row() * 2;  // padded row, in reals
    for (uint64_t r = 0; r < shape.rows(); ++r)
      for (uint64_t i = 0; i < shape.size[0]; ++i) scalars[r * row + i] = signal.real[r * shape.size[0] + i];
  } else {
    for (uint64_t i = 0; i < signal.complex.size(); ++i) {
      scalars[2 * i] = signal.complex[i].real();
      scalars[2 * i + 1] = signal.complex[i].imag();
    }
  }
  write_scalars(shape, scalars, buffer);
}

void write_spectrum(const FftShape& shape, const Spectrum& spectrum, void* buffer) {
  std::vector<double> scalars(spectrum.size() * 2);
  for (uint64_t i = 0; i < spectrum.size(); ++i) {
    scalars[2 * i] = spectrum[i].real();
    scalars[2 * i + 1] = spectrum[i].imag();
  }
  write_scalars(shape, scalars, buffer);
}

Signal read_signal(const FftShape& shape, const void* buffer) {
  const std::vector<double> scalars = read_scalars(shape, buffer);
  Signal signal;
  if (shape.kind == Kind::kReal) {
    const uint64_t row = shape.spectrum_row() * 2;
    signal.real.resize(shape.signal_values());
    for (uint64_t r = 0; r < shape.rows(); ++r)
      for (uint64_t i = 0; i < shape.size[0]; ++i) signal.real[r * shape.size[0] + i] = scalars[r * row + i];
  } else {
    signal.complex.resize(shape.signal_values());
    for (uint64_t i = 0; i < signal.complex.size(); ++i) signal.complex[i] = {scalars[2 * i], scalars[2 * i + 1]};
  }
  return signal;
}

Spectrum read_spectrum(const FftShape& shape, const void* buffer) {
  const std::vector<double> scalars = read_scalars(shape, buffer);
  Spectrum spectrum(shape.spectrum_values());
  for (uint64_t i = 0; i < spectrum.size(); ++i) spectrum[i] = {scalars[2 * i], scalars[2 * i + 1]};
  return spectrum;
}

double relative_error(const Spectrum& result, const Spectrum& reference) {
  return relative_l2(result, reference);
}

double relative_error(const Signal& result, const Signal& reference) {
  return result.real.empty() && reference.real.empty() ? relative_l2(result.complex, reference.complex)
                                                       : relative_l2(result.real, reference.real);
}

std::vector<FftShape> test_shapes() {
  // Every radix VkFFT has (2, 3, 5, 7, 11, 13), Bluestein (1031 is prime), 1D/2D/3D, batches,
  // both precisions, C2C and R2C/C2R; small enough that the whole test takes seconds.
  return {
      shape("pow2", {1024}, 4, kF32, kC2C),
      shape("radix_7_11_13", {1001}, 2, kF32, kC2C),
      shape("bluestein", {1031}, 1, kF32, kC2C),
      shape("radix_3_5_2d", {81, 125}, 1, kF32, kC2C),
      shape("radix_2_7_11_3d", {16, 14, 11}, 1, kF32, kC2C),
      shape("r2c_2d", {96, 35}, 1, kF32, kR2C),
      shape("r2c_1d_batched", {250}, 3, kF32, kR2C),
      shape("fp64_radix_2_3_13_2d", {64, 39}, 1, kF64, kC2C),
      shape("fp64_bluestein", {1031}, 1, kF64, kC2C),
      shape("fp64_r2c_3d", {30, 12, 10}, 1, kF64, kR2C),
  };
}

std::vector<FftShape> bench_shapes() {
  // One plan per radix family, sized so that one transform is ~0.1-1 M points.
  return {
      shape("radix2_1d", {4096}, 256, kF32, kC2C),
      shape("radix3_1d", {2187}, 256, kF32, kC2C),
      shape("radix5_2d", {625, 625}, 1, kF32, kC2C),
      shape("radix7_3d", {49, 49, 49}, 1, kF32, kC2C),
      shape("r2c_2d", {1024, 512}, 1, kF32, kR2C),
      shape("bluestein_1d", {1031}, 256, kF32, kC2C),
      shape("fp64_2d", {512, 512}, 1, kF64, kC2C),
  };
}

}  // namespace kiln::vkfft
