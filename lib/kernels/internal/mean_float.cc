#include "kernels/internal/mean_float.h"

#include <algorithm>
#include <cstdint>

#include "kernels/internal/eigen_sum.h"

namespace tflite {
namespace mean_float {

MeanF32::MeanF32(const std::vector<int>& dims, const std::vector<bool>& reduced) {
  size_t count = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    const auto size = static_cast<size_t>(dims[d]);
    if (reduced[d]) count *= size;
    if (size == 1) continue;  // neither reduces nor moves anything
    if (!shape_.empty() && reduced_.back() == reduced[d]) {
      shape_.back() *= size;
    } else {
      shape_.push_back(size);
      reduced_.push_back(reduced[d]);
    }
  }
  if (shape_.empty()) {  // every dimension 1: a copy
    shape_.push_back(1);
    reduced_.push_back(false);
  }
  out_stride_.assign(shape_.size(), 0);
  for (size_t d = shape_.size(); d-- > 0;) {
    if (reduced_[d]) continue;
    out_stride_[d] = output_size_;
    output_size_ *= shape_[d];
  }
  count_ = static_cast<float>(count);
}

void MeanF32::Run(const float* in, float* out) const {
  const size_t last = shape_.size() - 1, row = shape_[last];
  if (reduced_[last] && shape_.size() <= 2) {  // contiguous runs, one per output
    for (size_t o = 0; o < output_size_; ++o) {
      out[o] =
          tflite::EigenSum(in + o * row, static_cast<int64_t>(row), static_cast<int64_t>(o * row)) /
          count_;
    }
    return;
  }
  std::fill(out, out + output_size_, 0.0f);
  // [reduced rows, kept K] or [reduced rows, kept K, reduced L] (a group norm's moments over
  // [1, H, W, groups, C / groups]): each output still gets its values in memory order (row
  // by row, L in order), all K at once where the odometer below stepped every L values
  // (50 us a MEAN of 64 x 64 x 32 with L = 4).
  if (reduced_[0] && shape_.size() >= 2 && shape_.size() <= 3 && !reduced_[1]) {
    const size_t rows = shape_[0], k_count = shape_[1];
    const size_t l_count = shape_.size() == 3 ? shape_[2] : 1;
    for (size_t r = 0; r < rows; ++r, in += k_count * l_count) {
      for (size_t l = 0; l < l_count; ++l) {
        for (size_t k = 0; k < k_count; ++k) out[k] += in[k * l_count + l];
      }
    }
    for (size_t i = 0; i < output_size_; ++i) out[i] /= count_;
    return;
  }
  size_t rows = 1;
  for (size_t d = 0; d < last; ++d) rows *= shape_[d];
  std::vector<size_t> index(shape_.size(), 0);
  size_t out_offset = 0;
  for (size_t r = 0; r < rows; ++r, in += row) {
    if (reduced_[last]) {
      float sum = out[out_offset];
      for (size_t i = 0; i < row; ++i) sum += in[i];
      out[out_offset] = sum;
    } else {
      float* o = out + out_offset;
      for (size_t i = 0; i < row; ++i) o[i] += in[i];
    }
    // Next row: the odometer over the outer merged dimensions.
    for (size_t d = last; d-- > 0;) {
      out_offset += out_stride_[d];
      if (++index[d] < shape_[d]) break;
      out_offset -= out_stride_[d] * shape_[d];
      index[d] = 0;
    }
  }
  for (size_t i = 0; i < output_size_; ++i) out[i] /= count_;
}

}  // namespace mean_float
}  // namespace tflite
