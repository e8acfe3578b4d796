// Read-only view of a whole model file. Model loading is zero-copy: constant buffers are
// read in place from the view, which lives as long as the model. A regular file on a
// local disk is memory-mapped; anything else (a pipe, /dev/stdin, a file on a network
// file system, where a mapping can change under the reader) is read into memory.
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
  // Errors name the path and the OS reason.
  static Result<std::unique_ptr<MappedFile>> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool is_mapped() const { return mapped_; }

  // Largest file read (not mapped) into memory: FlatBuffers' own 2 GiB limit.
  static constexpr size_t kMaxReadBytes = size_t{1} << 31;

  // A mapped file truncated or rewritten by someone else while mapped makes the next
  // read of a vanished page raise SIGBUS. This process-wide handler (for the tools; the
  // library never installs one) turns a SIGBUS inside a live mapping into one line on
  // stderr naming the file, the offset and the size it had, and exit status 1. A SIGBUS
  // anywhere else keeps its default action. Idempotent.
  static void InstallFaultHandler();

 private:
  MappedFile(const uint8_t* data, size_t size, bool mapped, int slot)
      : data_(data), size_(size), mapped_(mapped), slot_(slot) {}
  const uint8_t* data_;
  size_t size_;
  bool mapped_;
  int slot_;  // in the registry the fault handler reads; -1: not registered
};

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_UTIL_MAPPED_FILE_H_
