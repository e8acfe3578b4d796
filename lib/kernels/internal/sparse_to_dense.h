// Sparse tensor -> dense, shared by DENSIFY and FULLY_CONNECTED's sparse weights (v8):
// TfLiteTensor::sparsity (from the flatbuffer's SparsityParameters) expanded with the
// semantics of TFLite's FormatConverter::SparseToDense: levels are walked in traversal
// order, dense levels enumerate 0..dense_size-1, CSR levels take their indices from
// array_segments[prev] .. array_segments[prev + 1], and block levels (those past the
// tensor's rank) refine the dimension named by block_map. Values are consumed in that
// order; every other element is zero.
//
// The loader (lib/model/validate.cc) has checked the sparsity against the shape and the
// buffer size; the walk still bounds-checks every read and write so that a tensor built
// another way gives an error, not a crash. Errors go to the context, prefixed with the
// op name given. Not thread-safe (one walk at a time per object).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPARSE_TO_DENSE_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPARSE_TO_DENSE_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite {
namespace sparsity {

inline std::vector<int> ToVector(const TfLiteIntArray* a) {
  return a == nullptr ? std::vector<int>() : std::vector<int>(a->data, a->data + a->size);
}

// Sparse -> dense walk over raw elements of `elem` bytes.
class SparseToDense {
 public:
  SparseToDense(const TfLiteTensor* input, size_t elem, const char* op = "DENSIFY")
      : op_(op), elem_(elem) {
    const TfLiteSparsity& s = *input->sparsity;
    dense_shape_ = ToVector(input->dims);
    traversal_order_ = ToVector(s.traversal_order);
    block_map_ = ToVector(s.block_map);
    for (int i = 0; i < s.dim_metadata_size; ++i) {
      const TfLiteDimensionMetadata& md = s.dim_metadata[i];
      format_.push_back(md.format);
      dense_size_.push_back(md.dense_size);
      segments_.push_back(ToVector(md.array_segments));
      indices_.push_back(ToVector(md.array_indices));
    }
    // Block sizes as upstream's InitSparseToDenseConverter derives them.
    const int rank = static_cast<int>(dense_shape_.size());
    block_size_.assign(block_map_.size(), 1);
    for (size_t k = 0; k < block_map_.size(); ++k) {
      const size_t level = rank + k;
      if (level < traversal_order_.size()) {
        const int d = traversal_order_[level];
        if (d >= 0 && d < static_cast<int>(dense_size_.size())) block_size_[k] = dense_size_[d];
      }
    }
    num_values_ = elem == 0 ? 0 : input->bytes / elem;
  }

  // Structural checks that keep the walk in bounds.
  TfLiteStatus Validate(TfLiteContext* context) const {
    const size_t rank = dense_shape_.size();
    const size_t n = traversal_order_.size();
    TF_LITE_ENSURE_OK(context, Check(context, n == rank + block_map_.size() && format_.size() == n,
                                     "traversal_order / dim_metadata do not match the rank"));
    for (size_t i = 0; i < n; ++i) {
      TF_LITE_ENSURE_OK(
          context,
          Check(context, traversal_order_[i] >= 0 && traversal_order_[i] < static_cast<int>(n),
                "bad traversal_order"));
      if (i >= rank) {
        const int b = traversal_order_[i] - static_cast<int>(rank);
        TF_LITE_ENSURE_OK(context, Check(context, b >= 0 && b < static_cast<int>(block_map_.size()),
                                         "a block level names a non-block dimension"));
      }
      TF_LITE_ENSURE_OK(context,
                        Check(context, format_[i] != kTfLiteDimDense || dense_size_[i] >= 0,
                              "negative dense_size"));
    }
    for (int d : block_map_) {
      TF_LITE_ENSURE_OK(context,
                        Check(context, d >= 0 && d < static_cast<int>(rank), "bad block_map"));
    }
    return kTfLiteOk;
  }

  TfLiteStatus Run(TfLiteContext* context, const char* src, char* dst, size_t dst_count) {
    src_ = src;
    dst_ = dst;
    dst_count_ = dst_count;
    src_pos_ = 0;
    std::memset(dst, 0, dst_count * elem_);
    std::vector<int> indices(traversal_order_.size(), 0);
    if (!Populate(&indices, 0, 0)) {
      TF_LITE_KERNEL_LOG(context, "%s: sparse data is inconsistent with its shape", op_);
      return kTfLiteError;
    }
    return kTfLiteOk;
  }

 private:
  TfLiteStatus Check(TfLiteContext* context, bool ok, const char* what) const {
    if (ok) return kTfLiteOk;
    TF_LITE_KERNEL_LOG(context, "%s: %s", op_, what);
    return kTfLiteError;
  }

  bool Populate(std::vector<int>* indices, size_t level, int prev_idx) {
    if (level == indices->size()) return Emit(*indices);
    if (format_[level] == kTfLiteDimDense) {
      const int size = dense_size_[level];
      for (int i = 0; i < size; ++i) {
        (*indices)[level] = i;
        if (!Populate(indices, level + 1, prev_idx * size + i)) return false;
      }
      return true;
    }
    const std::vector<int>& seg = segments_[level];
    const std::vector<int>& idx = indices_[level];
    if (prev_idx < 0 || static_cast<size_t>(prev_idx) + 1 >= seg.size()) return true;
    for (int i = seg[prev_idx]; i < seg[prev_idx + 1]; ++i) {
      if (i < 0 || static_cast<size_t>(i) >= idx.size()) return false;
      (*indices)[level] = idx[i];
      if (!Populate(indices, level + 1, i)) return false;
    }
    return true;
  }

  // Writes the next source value at the dense position of `indices`.
  bool Emit(const std::vector<int>& indices) {
    const size_t rank = dense_shape_.size();
    std::vector<int64_t> orig(rank, 0);
    for (size_t i = 0; i < rank; ++i) orig[traversal_order_[i]] = indices[i];
    for (size_t i = rank; i < indices.size(); ++i) {
      const int b = traversal_order_[i] - static_cast<int>(rank);
      const int d = block_map_[b];
      orig[d] = orig[d] * block_size_[b] + indices[i];
    }
    int64_t flat = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (orig[d] < 0 || orig[d] >= dense_shape_[d]) return false;
      flat = flat * dense_shape_[d] + orig[d];
    }
    if (static_cast<size_t>(flat) >= dst_count_ || src_pos_ >= num_values_) return false;
    std::memcpy(dst_ + flat * elem_, src_ + src_pos_ * elem_, elem_);
    ++src_pos_;
    return true;
  }

  const char* op_;
  size_t elem_;
  std::vector<int> dense_shape_, traversal_order_, block_map_, block_size_, dense_size_;
  std::vector<TfLiteDimensionType> format_;
  std::vector<std::vector<int>> segments_, indices_;
  size_t num_values_ = 0;
  const char* src_ = nullptr;
  char* dst_ = nullptr;
  size_t dst_count_ = 0;
  size_t src_pos_ = 0;
};

}  // namespace sparsity
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_SPARSE_TO_DENSE_H_
