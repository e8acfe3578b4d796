// A loaded, verified and validated TFLite model.
//
// Loading runs the flatbuffer verifier first and then checks every index, size and
// shape that a runtime would trust (see validate.h). Once Load* succeeds, code that
// walks the model may rely on those invariants; kernels never see unchecked bytes.
//
// Ownership: LoadFile maps the file read-only and owns the mapping; LoadBuffer borrows
// the caller's bytes, which must outlive the Model. Constant buffers are used in place
// (zero-copy) in both cases. A Model is immutable and safe to share between threads.
#ifndef TFLITE_INSPECT_LIB_MODEL_MODEL_H_
#define TFLITE_INSPECT_LIB_MODEL_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "model/op_code.h"
#include "model/tensor_type.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/mapped_file.h"
#include "util/status.h"

namespace tflite_inspect {

// Bytes of one constant buffer, pointing into the model's memory.
struct BufferView {
  const uint8_t* data = nullptr;
  size_t size = 0;
  bool external = false;  // stored outside the flatbuffer (Buffer.offset/size)
  bool empty() const { return size == 0; }
};

class Model {
 public:
  static Result<std::unique_ptr<Model>> LoadFile(const std::string& path);
  // `data` must stay valid and unchanged for the life of the returned model. A buffer
  // that is not aligned as new[] aligns is copied (flatbuffers reads its tables with
  // aligned accesses: undefined behaviour otherwise, which UBSan reports in the verifier).
  static Result<std::unique_ptr<Model>> LoadBuffer(const void* data, size_t size);

  const tflite::Model* fb() const { return model_; }
  const uint8_t* bytes() const { return bytes_; }
  size_t size() const { return size_; }
  // The path given to LoadFile, or "<buffer>".
  const std::string& source() const { return source_; }

  // operator_codes resolved as TFLite resolves them (see op_code.h).
  const std::vector<OpCode>& op_codes() const { return op_codes_; }
  const OpCode& op_code_of(int subgraph, int op) const;

  // Constant data of buffer `index`; empty when the buffer holds none.
  BufferView buffer(uint32_t index) const;
  // The same bytes at an address that is a multiple of `alignment` (a power of two up to
  // alignof(std::max_align_t)): the buffer itself when it is, else a copy the model keeps
  // for its lifetime. A crafted file can place a buffer anywhere; kernels read constants
  // as arrays of their element type, which must be aligned for it.
  BufferView aligned_buffer(uint32_t index, size_t alignment) const;
  // Buffer `index` read as bool values: the bytes themselves when each is 0 or 1, else a
  // copy the model keeps with every non-zero byte as 1. A crafted file can hold other
  // bytes in a bool constant, and reading those as `bool` is undefined in every kernel
  // that does (TFLite's too); as bytes they mean false / true by zero / non-zero.
  BufferView bool_buffer(uint32_t index) const;

  // The "min_runtime_version" metadata entry written by the TFLite converter.
  const std::optional<std::string>& min_runtime_version() const { return min_runtime_version_; }

  // Problems that leave the model readable but make TFLite's InterpreterBuilder refuse
  // it (for example a quantized_dimension out of range). Each is TFLite's own text
  // followed by where it was found. Empty for a model TFLite accepts.
  const std::vector<std::string>& refusals() const { return refusals_; }

 private:
  Model() = default;
  static Result<std::unique_ptr<Model>> Finish(std::unique_ptr<Model> m);

  std::unique_ptr<MappedFile> file_;
  std::unique_ptr<std::max_align_t[]> owned_;  // LoadBuffer's aligned copy, when needed
  const uint8_t* bytes_ = nullptr;
  size_t size_ = 0;
  std::string source_;
  const tflite::Model* model_ = nullptr;
  std::vector<OpCode> op_codes_;
  std::optional<std::string> min_runtime_version_;
  std::vector<std::string> refusals_;
  mutable std::mutex copies_mutex_;
  mutable std::map<uint32_t, std::unique_ptr<std::max_align_t[]>> aligned_copies_;
  mutable std::map<uint32_t, std::unique_ptr<uint8_t[]>> bool_copies_;
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_MODEL_MODEL_H_
