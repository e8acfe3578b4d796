// SHA-256 (FIPS 180-4) of a file or a byte range, as lowercase hex: benchmark_model
// records the model's hash in --output_json so a baseline can tell it was made from
// the same file.
#ifndef TFLITE_INSPECT_LIB_UTIL_SHA256_H_
#define TFLITE_INSPECT_LIB_UTIL_SHA256_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "util/status.h"

namespace tflite_inspect {

std::string Sha256Hex(const uint8_t* data, size_t size);
Result<std::string> Sha256OfFile(const std::string& path);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_UTIL_SHA256_H_
