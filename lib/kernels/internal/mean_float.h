// Float MEAN as TFLite's builtin kernel computes it (its bits): the input's dimensions of 1
// dropped and neighbours of one kind (reduced or kept) merged; over the innermost axes each
// output's contiguous run summed as Eigen sums a row (eigen_sum.h), otherwise the values
// added to their output in memory order; then divided by the count in float. Shared by the
// builtin kernel (kernels/mean.cc) and the XNNPACK delegate's own MEAN step.
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MEAN_FLOAT_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MEAN_FLOAT_H_

#include <cstddef>
#include <vector>

namespace tflite {
namespace mean_float {

class MeanF32 {
 public:
  // dims: the input's shape; reduced[d]: whether axis d is reduced.
  MeanF32(const std::vector<int>& dims, const std::vector<bool>& reduced);
  void Run(const float* in, float* out) const;
  size_t output_size() const { return output_size_; }

 private:
  std::vector<size_t> shape_;       // merged input dimensions
  std::vector<bool> reduced_;       // per merged dimension
  std::vector<size_t> out_stride_;  // output stride of each merged dimension (0: reduced)
  size_t output_size_ = 1;
  float count_ = 1;
};

}  // namespace mean_float
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_MEAN_FLOAT_H_
