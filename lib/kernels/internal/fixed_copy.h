// A memcpy of a size known only at run time, made one of a compile-time size where the size
// is one of the short ones strided copies meet (a block row of DEPTH_TO_SPACE, a 4-channel
// pixel): such a copy inlines into a move or two, where a memcpy call of a run-time size
// cost several times the copy (ESPCN's 12-byte rows: 4 ns each).
#ifndef TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FIXED_COPY_H_
#define TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FIXED_COPY_H_

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace tflite {
namespace fixed_copy {

// Calls f(copy), copy(dst, src) copying `bytes` bytes.
template <typename F>
void WithCopy(size_t bytes, const F& f) {
  auto fixed = [&](auto n) {
    f([](void* dst, const void* src) { std::memcpy(dst, src, decltype(n)::value); });
  };
  switch (bytes) {
    case 2:
      return fixed(std::integral_constant<size_t, 2>());
    case 3:
      return fixed(std::integral_constant<size_t, 3>());
    case 4:
      return fixed(std::integral_constant<size_t, 4>());
    case 8:
      return fixed(std::integral_constant<size_t, 8>());
    case 12:
      return fixed(std::integral_constant<size_t, 12>());
    case 16:
      return fixed(std::integral_constant<size_t, 16>());
    case 32:
      return fixed(std::integral_constant<size_t, 32>());
    case 64:
      return fixed(std::integral_constant<size_t, 64>());
    default:
      return f([bytes](void* dst, const void* src) { std::memcpy(dst, src, bytes); });
  }
}

}  // namespace fixed_copy
}  // namespace tflite

#endif  // TFLITE_INSPECT_LIB_KERNELS_INTERNAL_FIXED_COPY_H_
