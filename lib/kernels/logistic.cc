// LOGISTIC: 1 / (1 + exp(-x)). float32 is evaluated so that the relative
// error stays small for large |x| (1 / (1 + e) or e / (1 + e) with e = exp(-|x|)), on 8
// AVX2 lanes with vector_math::Exp8 where the CPU has it (a few ulp; results below 2^-126
// and NaN through std::exp); int8 / uint8 use TFLite's 256-entry lookup
// table (activations.cc SigmoidPrepare: output scale must be 1/256), which is
// what both its reference and default kernels run.
// int16 (version 3): kernels/internal/sigmoid_int16.h, bit-exact with the reference.
#include <cmath>
#include <cstdint>

#include "kernels/internal/byte_table.h"
#include "kernels/internal/elementwise.h"
#include "kernels/internal/gemm.h"
#include "kernels/internal/sigmoid_int16.h"
#include "kernels/internal/vector_math.h"
#include "tensorflow/lite/kernels/builtin_op_kernels.h"

namespace tflite {
namespace ops {
namespace builtin {
namespace logistic {

float Sigmoid(float x) {
  if (x >= 0) return 1.0f / (1.0f + std::exp(-x));
  const float e = std::exp(x);
  return e / (1.0f + e);
}

#if defined(TFI_VECTOR_MATH_AVX2)
// Sigmoid on 8 lanes, the same two branches (e = exp(-|x|) <= 1: no overflow); inputs
// below -87 (denormal results) and NaN are left for the scalar pass.
__attribute__((target("avx2,fma"))) void SigmoidAvx2(const float* in, float* out, int64_t n) {
  const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1.0f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(in + i);
    const __m256 e = vector_math::Exp8(_mm256_or_ps(x, sign));  // exp(-|x|)
    const __m256 pos = _mm256_div_ps(one, _mm256_add_ps(one, e));
    const __m256 neg = _mm256_div_ps(e, _mm256_add_ps(one, e));
    const __m256 x_ge_0 = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GE_OQ);
    _mm256_storeu_ps(out + i, _mm256_blendv_ps(neg, pos, x_ge_0));
  }
  for (; i < n; ++i) out[i] = Sigmoid(in[i]);
}
#endif

void SigmoidFloat(const float* in, float* out, int64_t n) {
#if defined(TFI_VECTOR_MATH_AVX2)
  if (gemm::CpuHasAvx2Fma()) {
    SigmoidAvx2(in, out, n);
    for (int64_t i = 0; i < n; ++i) {
      if (!(in[i] >= -87.0f)) out[i] = Sigmoid(in[i]);  // tiny results and NaN
    }
    return;
  }
#endif
  elementwise::UnaryMap(in, out, n, Sigmoid);
}

struct OpData {
  elementwise::ByteLut lut;     // int8 / uint8
  sigmoid_int16::Params int16;  // int16
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData; }
void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, elementwise::PrepareUnary(context, node, &input, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      TF_LITE_ENSURE(context, output->params.scale == 1. / 256);
      return byte_table::Prepare(context, node, kTfLiteBuiltinLogistic, *input, *output,
                                 &static_cast<OpData*>(node->user_data)->lut);
    case kTfLiteInt16:
      TF_LITE_ENSURE(context, output->params.scale == 1. / 32768);
      return sigmoid_int16::Prepare(context, "LOGISTIC", /*tanh=*/false, input, output,
                                    &static_cast<OpData*>(node->user_data)->int16);
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInputSafe(context, node, 0, &input));
  TF_LITE_ENSURE_OK(context, GetOutputSafe(context, node, 0, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      SigmoidFloat(GetTensorData<float>(input), GetTensorData<float>(output), NumElements(input));
      return kTfLiteOk;
    case kTfLiteInt8:
    case kTfLiteUInt8:
      elementwise::EvalByteLut(static_cast<const OpData*>(node->user_data)->lut, input, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      sigmoid_int16::Logistic(static_cast<const OpData*>(node->user_data)->int16,
                              NumElements(input), GetTensorData<int16_t>(input),
                              GetTensorData<int16_t>(output));
      return kTfLiteOk;
    default:
      return elementwise::UnsupportedType(context, input->type);
  }
}

}  // namespace logistic

TfLiteRegistration* Register_LOGISTIC() {
  static TfLiteRegistration r = {logistic::Init, logistic::Free, logistic::Prepare, logistic::Eval};
  return &r;
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite
