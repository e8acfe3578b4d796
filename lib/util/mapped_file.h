// Read-only memory mapping of a whole file. Model loading is zero-copy: constant
// buffers are read in place from the mapping, which lives as long as the model.
#ifndef TFLITE_INSPECT_LIB_UTIL_MAPPED_FILE_H_
#define TFLITE_INSPECT_LIB_UTIL_MAPPED_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "util/status.h"

namespace tflite_inspect {

class MappedFile {
 public:
  // Maps `path` read-only. Errors name the path and the OS reason.
  static Result<std::unique_ptr<MappedFile>> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  MappedFile(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  const uint8_t* data_;
  size_t size_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_UTIL_MAPPED_FILE_H_
