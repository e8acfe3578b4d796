// RFFT2D (v1): the 2-D discrete Fourier transform of the real float32 input's two innermost
// dimensions, as tf.signal.rfft2d and TFLite's rfft2d.cc: fft_length (int32 [2], powers of
// two) crops or zero-pads each slice to fft_length[0] x fft_length[1]; the output is
// complex64 [..., fft_length[0], fft_length[1] / 2 + 1], X[u][v] = sum x[m][n]
// exp(-2 pi i (u m / H + v n / W)). A converted tf.signal.stft is an RFFT2D of height 1.
//
// Computed as TFLite does, in double precision then rounded to float (TFLite's fft2d, Ooura's
// rdft2d; here a radix-2 FFT of the rows, then of the columns of the kept half): the
// outputs agree within an ulp or so (testdata/kernels/rfft2d_*). A non-constant fft_length
// makes the output dynamic.
#include <cmath>
#include <complex>
#include <cstdint>
#include <new>
#include <vector>

#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace rfft2d {
namespace {

using Complex = std::complex<double>;

bool IsPowerOfTwo(int32_t v) { return v > 0 && (v & (v - 1)) == 0; }

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* fft_length, TfLiteTensor* output) {
  // TFLite's checks and messages (its FFT library takes powers of 2 only).
  const int32_t* fft_length_data = fft_length->data.i32;
  TF_LITE_ENSURE(context, IsPowerOfTwo(fft_length_data[0]));
  TF_LITE_ENSURE(context, IsPowerOfTwo(fft_length_data[1]));
  const int rank = NumDimensions(input);
  TfLiteIntArray* shape = TfLiteIntArrayCopy(input->dims);
  shape->data[rank - 2] = fft_length_data[0];
  shape->data[rank - 1] = fft_length_data[1] / 2 + 1;
  return context->ResizeTensor(context, output, shape);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_EQ(context, NumInputs(node), 2);
  TF_LITE_ENSURE_EQ(context, NumOutputs(node), 1);
  const TfLiteTensor *input, *fft_length;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 1, &fft_length));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  TF_LITE_ENSURE(context, NumDimensions(input) >= 2);
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "Type '%s' for input is not supported by rfft2d.",
                       TfLiteTypeGetName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_EQ(context, NumDimensions(fft_length), 1);
  TF_LITE_ENSURE_EQ(context, SizeOfDimension(fft_length, 0), 2);
  if (fft_length->type != kTfLiteInt32) {
    TF_LITE_KERNEL_LOG(context, "Type '%s' for fft_length is not supported by rfft2d.",
                       TfLiteTypeGetName(fft_length->type));
    return kTfLiteError;
  }
  output->type = kTfLiteComplex64;
  if (!IsConstantOrPersistentTensor(fft_length)) {
    SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeOutput(context, input, fft_length, output);
}

// In-place radix-2 FFT (exp(-2 pi i k n / N)) of n values `stride` apart; n a power of 2.
void Fft(Complex* x, int n, int stride, const std::vector<Complex>& twiddle_of_max, int max_n) {
  for (int i = 1, j = 0; i < n; ++i) {  // bit reversal
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[static_cast<size_t>(i) * stride], x[static_cast<size_t>(j) * stride]);
  }
  for (int len = 2; len <= n; len <<= 1) {
    const int step = max_n / len;  // twiddle k of this length is twiddle k * step of max_n
    for (int i = 0; i < n; i += len) {
      for (int k = 0; k < len / 2; ++k) {
        Complex* pa = x + static_cast<size_t>(i + k) * stride;
        Complex* pb = x + static_cast<size_t>(i + k + len / 2) * stride;
        // Both read before either is written, the product written out (std::complex's
        // operator* checks for infinities through __muldc3).
        const double ar = pa->real(), ai = pa->imag(), br = pb->real(), bi = pb->imag();
        const double wr = twiddle_of_max[static_cast<size_t>(k) * step].real();
        const double wi = twiddle_of_max[static_cast<size_t>(k) * step].imag();
        const double tr = br * wr - bi * wi, ti = br * wi + bi * wr;
        *pa = Complex(ar + tr, ai + ti);
        *pb = Complex(ar - tr, ai - ti);
      }
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* fft_length = GetInput(context, node, 1);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, input, fft_length, output));
  }
  const int height = fft_length->data.i32[0], width = fft_length->data.i32[1];
  const int half = width / 2 + 1;
  const int rank = NumDimensions(input);
  const int in_h = SizeOfDimension(input, rank - 2), in_w = SizeOfDimension(input, rank - 1);
  int64_t slices = 1;
  for (int d = 0; d < rank - 2; ++d) slices *= SizeOfDimension(input, d);
  const int max_n = std::max(height, width);
  // The double-precision working rows are twice the output's bytes: a crafted fft_length
  // the output's arena accepted may still not fit.
  std::vector<Complex> twiddle, row, grid;
  try {
    twiddle.resize(static_cast<size_t>(max_n / 2 + 1));
    row.resize(static_cast<size_t>(std::max(1, width / 2)));
    grid.resize(static_cast<size_t>(height) * half);
  } catch (const std::bad_alloc&) {
    TF_LITE_KERNEL_LOG(context, "RFFT2D: cannot allocate %zu bytes of working memory.",
                       static_cast<size_t>(height) * half * sizeof(Complex));
    return kTfLiteError;
  }
  for (size_t k = 0; k < twiddle.size(); ++k) {
    const double angle = -2.0 * M_PI * static_cast<double>(k) / max_n;
    twiddle[k] = Complex(std::cos(angle), std::sin(angle));
  }
  const float* in = input->data.f;
  auto* out = reinterpret_cast<std::complex<float>*>(output->data.raw);
  for (int64_t s = 0; s < slices; ++s) {
    const float* x = in + s * static_cast<int64_t>(in_h) * in_w;
    // Each row's transform (its first half + 1 kept: the rest mirrors it), then each
    // kept column's.
    for (int r = 0; r < height; ++r) {
      auto value = [&](int c) -> double {
        return r < in_h && c < in_w ? x[static_cast<int64_t>(r) * in_w + c] : 0.0;
      };
      Complex* g = grid.data() + static_cast<size_t>(r) * half;
      if (width == 1) {
        g[0] = Complex(value(0), 0.0);
        continue;
      }
      // The real row as a complex one of half the length (z[n] = x[2n] + i x[2n + 1]),
      // transformed, then split into the real transform's first half + 1 outputs:
      // X[k] = E[k] + exp(-2 pi i k / W) O[k], with E and O the transforms of the even and
      // odd values, E[k] = (Z[k] + conj(Z[m - k])) / 2, O[k] = (Z[k] - conj(Z[m - k])) / 2i.
      const int m = width / 2;
      for (int n = 0; n < m; ++n) row[n] = Complex(value(2 * n), value(2 * n + 1));
      Fft(row.data(), m, 1, twiddle, max_n);
      const int step = max_n / width;
      for (int k = 0; k <= m; ++k) {
        // Z[k] and conj(Z[m - k]), indices mod m, read as doubles (a std::complex copy went
        // through the stack here).
        const Complex* zk = row.data() + (k == m ? 0 : k);
        const Complex* zm = row.data() + (k == 0 ? 0 : m - k);
        const double kr = zk->real(), ki = zk->imag(), cr = zm->real(), ci = -zm->imag();
        const double er = 0.5 * (kr + cr), ei = 0.5 * (ki + ci);
        // (Z[k] - conj(Z[m - k])) / 2i
        const double orr = 0.5 * (ki - ci), oi = -0.5 * (kr - cr);
        // (k * step <= max_n / 2: inside the table.)
        const double wr = twiddle[static_cast<size_t>(k) * step].real();
        const double wi = twiddle[static_cast<size_t>(k) * step].imag();
        g[k] = Complex(er + (wr * orr - wi * oi), ei + (wr * oi + wi * orr));
      }
    }
    for (int c = 0; c < half; ++c) Fft(grid.data() + c, height, half, twiddle, max_n);
    std::complex<float>* y = out + s * static_cast<int64_t>(height) * half;
    for (size_t i = 0; i < grid.size(); ++i) {
      y[i] = std::complex<float>(static_cast<float>(grid[i].real()),
                                 static_cast<float>(grid[i].imag()));
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace rfft2d

TfLiteRegistration* Register_RFFT2D() {
  static TfLiteRegistration r = {nullptr, nullptr, rfft2d::Prepare, rfft2d::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
