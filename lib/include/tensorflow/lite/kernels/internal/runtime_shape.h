// tflite::RuntimeShape: the shape type of TFLite's reference and optimized
// kernels (source-compatible with upstream
// tensorflow/lite/kernels/internal/runtime_shape.h).
//
// Shapes of up to kMaxSmallSize dimensions live inline (no allocation); larger
// ones own a heap array. Copy construction is allowed, copy assignment is not
// (as upstream). FlatSize() does not check for overflow; use CheckedFlatSize()
// on untrusted shapes.
#ifndef TENSORFLOW_LITE_KERNELS_INTERNAL_RUNTIME_SHAPE_H_
#define TENSORFLOW_LITE_KERNELS_INTERNAL_RUNTIME_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>

#include "tensorflow/lite/kernels/internal/compatibility.h"

namespace tflite {

// Legacy 4-D shape with explicit strides (innermost dimension first).
template <int N>
struct Dims {
  int sizes[N];
  int strides[N];
};

class RuntimeShape {
 public:
  static constexpr int kMaxSmallSize = 6;

  RuntimeShape& operator=(RuntimeShape const&) = delete;

  RuntimeShape() : size_(0) {}

  // Uninitialized dimensions.
  explicit RuntimeShape(int dimensions_count) : size_(dimensions_count) {
    if (dimensions_count > kMaxSmallSize) {
      dims_pointer_ = new int32_t[dimensions_count];
    }
  }

  // `shape_size` dimensions, all equal to `value`.
  RuntimeShape(int shape_size, int32_t value) : size_(0) {
    Resize(shape_size);
    for (int i = 0; i < shape_size; ++i) SetDim(i, value);
  }

  RuntimeShape(int dimensions_count, const int32_t* dims_data) : size_(0) {
    ReplaceWith(dimensions_count, dims_data);
  }

  RuntimeShape(const std::initializer_list<int> init_list) : size_(0) {
    BuildFrom(init_list);
  }

  RuntimeShape(RuntimeShape const& other) : size_(other.DimensionsCount()) {
    if (size_ > kMaxSmallSize) dims_pointer_ = new int32_t[size_];
    std::memcpy(DimsData(), other.DimsData(), sizeof(int32_t) * size_);
  }

  ~RuntimeShape() {
    if (size_ > kMaxSmallSize) delete[] dims_pointer_;
  }

  bool operator==(const RuntimeShape& comp) const {
    return size_ == comp.size_ &&
           std::memcmp(DimsData(), comp.DimsData(), size_ * sizeof(int32_t)) ==
               0;
  }
  bool operator!=(const RuntimeShape& comp) const { return !(*this == comp); }

  inline int32_t DimensionsCount() const { return size_; }

  inline int32_t Dims(int i) const {
    TFLITE_DCHECK_GE(i, 0);
    TFLITE_DCHECK_LT(i, size_);
    return size_ > kMaxSmallSize ? dims_pointer_[i] : dims_[i];
  }

  inline void SetDim(int i, int32_t val) {
    TFLITE_DCHECK_GE(i, 0);
    TFLITE_DCHECK_LT(i, size_);
    if (size_ > kMaxSmallSize) {
      dims_pointer_[i] = val;
    } else {
      dims_[i] = val;
    }
  }

  inline int32_t* DimsData() {
    return size_ > kMaxSmallSize ? dims_pointer_ : dims_;
  }
  inline const int32_t* DimsData() const {
    return size_ > kMaxSmallSize ? dims_pointer_ : dims_;
  }
  // Only valid for shapes of at most 5 dimensions (inline storage).
  inline const int32_t* DimsDataUpTo5D() const { return dims_; }

  // Changes the rank, keeping the leading min(old, new) dimensions.
  inline void Resize(int dimensions_count) {
    const int32_t old_size = size_;
    size_ = dimensions_count;
    if (old_size <= kMaxSmallSize) {
      if (dimensions_count <= kMaxSmallSize) return;
      int32_t* big = new int32_t[dimensions_count];  // small -> big
      std::memcpy(big, dims_, sizeof(int32_t) * old_size);
      dims_pointer_ = big;
      return;
    }
    if (dimensions_count > kMaxSmallSize && dimensions_count <= old_size) {
      return;  // big -> smaller big: keep the buffer
    }
    std::unique_ptr<int32_t[]> old_data(dims_pointer_);
    if (dimensions_count <= old_size) {  // big -> small
      std::memcpy(dims_, old_data.get(), sizeof(int32_t) * dimensions_count);
    } else {  // big -> bigger
      dims_pointer_ = new int32_t[dimensions_count];
      std::memcpy(dims_pointer_, old_data.get(), sizeof(int32_t) * old_size);
    }
  }

  void ReplaceWith(int dimensions_count, const int32_t* dims_data) {
    Resize(dimensions_count);
    std::memcpy(DimsData(), dims_data, dimensions_count * sizeof(int32_t));
  }

  template <typename T>
  inline void BuildFrom(const T& src_iterable) {
    const int dimensions_count = static_cast<int>(
        std::distance(src_iterable.begin(), src_iterable.end()));
    Resize(dimensions_count);
    int32_t* data = DimsData();
    for (auto it : src_iterable) *data++ = it;
  }
  inline void BuildFrom(const std::initializer_list<int> init_list) {
    BuildFrom<const std::initializer_list<int>>(init_list);
  }

  // `shape` padded in front with 1s to `new_shape_size` dimensions
  // (new_shape_size must be >= shape.DimensionsCount()).
  inline static RuntimeShape ExtendedShape(int new_shape_size,
                                           const RuntimeShape& shape) {
    return RuntimeShape(new_shape_size, shape, 1);
  }

  // Product of all dimensions (1 for rank 0). Unchecked: may overflow.
  int FlatSize() const {
    int buffer_size = 1;
    const int* dims_data = reinterpret_cast<const int*>(DimsData());
    for (int i = 0; i < size_; i++) buffer_size *= dims_data[i];
    return buffer_size;
  }

  // Checked products: false if a dimension is negative, the range is invalid
  // or the product overflows the output type.
  bool CheckedFlatSize(size_t& flat_size) const {
    return CheckedNumElementsInRange(0, size_, flat_size);
  }
  bool CheckedNumElementsInRange(int start, int end, size_t& out) const {
    if (start < 0 || end < start || end > size_) return false;
    size_t product = 1;
    const int32_t* dims_data = DimsData();
    for (int i = start; i < end; ++i) {
      if (dims_data[i] < 0) return false;
      const size_t d = static_cast<size_t>(dims_data[i]);
      if (product != 0 && d > std::numeric_limits<size_t>::max() / product) {
        return false;
      }
      product *= d;
    }
    out = product;
    return true;
  }
  bool CheckedNumElementsInRange(int start, int end, int& out) const {
    size_t wide = 0;
    if (!CheckedNumElementsInRange(start, end, wide) ||
        wide > static_cast<size_t>(std::numeric_limits<int>::max())) {
      return false;
    }
    out = static_cast<int>(wide);
    return true;
  }
  bool CheckedSizeToDimension(int end, size_t& out) const {
    return CheckedNumElementsInRange(0, end, out);
  }
  bool CheckedSizeToDimension(int end, int& out) const {
    return CheckedNumElementsInRange(0, end, out);
  }
  bool CheckedSizeFromDimension(int start, size_t& out) const {
    return CheckedNumElementsInRange(start, size_, out);
  }
  bool CheckedSizeFromDimension(int start, int& out) const {
    return CheckedNumElementsInRange(start, size_, out);
  }
  bool CheckedFlatSizeSkipDim(int skip_dim, size_t& flat_size) const {
    if (skip_dim < 0 || skip_dim >= size_) return false;
    size_t prefix = 0, suffix = 0;
    if (!CheckedNumElementsInRange(0, skip_dim, prefix) ||
        !CheckedNumElementsInRange(skip_dim + 1, size_, suffix)) {
      return false;
    }
    if (prefix != 0 && suffix > std::numeric_limits<size_t>::max() / prefix) {
      return false;
    }
    flat_size = prefix * suffix;
    return true;
  }

 private:
  // For ExtendedShape(): `shape` padded in front with `pad_value`.
  RuntimeShape(int new_shape_size, const RuntimeShape& shape, int pad_value)
      : size_(0) {
    TFLITE_DCHECK_GE(new_shape_size, shape.DimensionsCount());
    Resize(new_shape_size);
    const int size_increase = new_shape_size - shape.DimensionsCount();
    for (int i = 0; i < size_increase; ++i) SetDim(i, pad_value);
    std::memcpy(DimsData() + size_increase, shape.DimsData(),
                sizeof(int32_t) * shape.DimensionsCount());
  }

  int32_t size_;
  // Zero-initialized so that no path reads an indeterminate member (and GCC's
  // -Wmaybe-uninitialized stays quiet); the cost is 24 bytes of stores.
  union {
    int32_t dims_[kMaxSmallSize] = {};
    int32_t* dims_pointer_;
  };
};

// RuntimeShape (outermost first) -> legacy Dims<4> (innermost first, with
// packed strides). The shape must have at most 4 dimensions.
inline tflite::Dims<4> ToRuntimeDims(const tflite::RuntimeShape& array_shape) {
  tflite::Dims<4> result;
  const int dimensions_count = array_shape.DimensionsCount();
  TFLITE_DCHECK_LE(dimensions_count, 4);
  int cum_prod = 1;
  for (int i = 0; i < 4; i++) {
    const int new_dim =
        (i < dimensions_count) ? array_shape.Dims(dimensions_count - 1 - i) : 1;
    result.sizes[i] = new_dim;
    result.strides[i] = cum_prod;
    cum_prod *= new_dim;
  }
  return result;
}

inline RuntimeShape DimsToShape(const tflite::Dims<4>& dims) {
  return RuntimeShape(
      {dims.sizes[3], dims.sizes[2], dims.sizes[1], dims.sizes[0]});
}

// Row-major element offset of (i0, ..., i3) in a 4-D shape. A zero-sized
// dimension accepts index 0 (empty tensors are valid).
inline int Offset(const RuntimeShape& shape, int i0, int i1, int i2, int i3) {
  TFLITE_DCHECK_EQ(shape.DimensionsCount(), 4);
  const int* d = reinterpret_cast<const int*>(shape.DimsDataUpTo5D());
  TFLITE_DCHECK((d[0] == 0 && i0 == 0) || (i0 >= 0 && i0 < d[0]));
  TFLITE_DCHECK((d[1] == 0 && i1 == 0) || (i1 >= 0 && i1 < d[1]));
  TFLITE_DCHECK((d[2] == 0 && i2 == 0) || (i2 >= 0 && i2 < d[2]));
  TFLITE_DCHECK((d[3] == 0 && i3 == 0) || (i3 >= 0 && i3 < d[3]));
  return ((i0 * d[1] + i1) * d[2] + i2) * d[3] + i3;
}

inline int Offset(const RuntimeShape& shape, int i0, int i1, int i2, int i3,
                  int i4) {
  TFLITE_DCHECK_EQ(shape.DimensionsCount(), 5);
  const int* d = reinterpret_cast<const int*>(shape.DimsDataUpTo5D());
  TFLITE_DCHECK((d[0] == 0 && i0 == 0) || (i0 >= 0 && i0 < d[0]));
  TFLITE_DCHECK((d[1] == 0 && i1 == 0) || (i1 >= 0 && i1 < d[1]));
  TFLITE_DCHECK((d[2] == 0 && i2 == 0) || (i2 >= 0 && i2 < d[2]));
  TFLITE_DCHECK((d[3] == 0 && i3 == 0) || (i3 >= 0 && i3 < d[3]));
  TFLITE_DCHECK((d[4] == 0 && i4 == 0) || (i4 >= 0 && i4 < d[4]));
  return (((i0 * d[1] + i1) * d[2] + i2) * d[3] + i3) * d[4] + i4;
}

inline int Offset(const RuntimeShape& shape, int* index) {
  return Offset(shape, index[0], index[1], index[2], index[3]);
}

}  // namespace tflite

#endif  // TENSORFLOW_LITE_KERNELS_INTERNAL_RUNTIME_SHAPE_H_
