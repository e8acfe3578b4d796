#include "model/model.h"

#include <algorithm>
#include <cstring>

#include "fmt/format.h"
#include "model/validate.h"

namespace tflite_inspect {
namespace {

// flatbuffers 2.0.8 asserts on verifier sizes of 2 GiB or more. Models that large keep
// their weights outside the flatbuffer (Buffer.offset), so the flatbuffer itself lies in
// the first 2 GiB and only that prefix needs verifying.
size_t VerifiableSize(size_t size) {
  const size_t max = FLATBUFFERS_MAX_BUFFER_SIZE - 1;
  return size < max ? size : max;
}

std::string Identifier(const uint8_t* bytes, size_t size) {
  if (size < 8) return "";
  std::string id(reinterpret_cast<const char*>(bytes) + 4, 4);
  for (char& c : id) {
    if (c < 32 || c > 126) c = '?';
  }
  return id;
}

}  // namespace

Result<std::unique_ptr<Model>> Model::LoadFile(const std::string& path) {
  auto file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  std::unique_ptr<Model> m(new Model());
  m->file_ = std::move(file.value());
  m->bytes_ = m->file_->data();
  m->size_ = m->file_->size();
  m->source_ = path;
  return Finish(std::move(m));
}

Result<std::unique_ptr<Model>> Model::LoadBuffer(const void* data, size_t size) {
  if (data == nullptr && size != 0) return InvalidArgument("model buffer is null");
  std::unique_ptr<Model> m(new Model());
  m->bytes_ = static_cast<const uint8_t*>(data);
  if (size != 0 && reinterpret_cast<uintptr_t>(data) % alignof(std::max_align_t) != 0) {
    m->owned_.reset(new std::max_align_t[(size + sizeof(std::max_align_t) - 1) /
                                         sizeof(std::max_align_t)]);
    std::memcpy(m->owned_.get(), data, size);
    m->bytes_ = reinterpret_cast<const uint8_t*>(m->owned_.get());
  }
  m->size_ = size;
  m->source_ = "<buffer>";
  return Finish(std::move(m));
}

Result<std::unique_ptr<Model>> Model::Finish(std::unique_ptr<Model> m) {
  const std::string& src = m->source_;
  if (m->size_ < 8) {
    return InvalidModel(fmt::format("{}: file is {} bytes, too small for a TFLite model "
                                    "(a flatbuffer needs at least 8)", src, m->size_));
  }
  if (!tflite::ModelBufferHasIdentifier(m->bytes_)) {
    // TFLite's own wording, with what we found instead.
    return InvalidModel(fmt::format(
        "{}: Model provided has model identifier '{}', should be 'TFL3'", src,
        Identifier(m->bytes_, m->size_)));
  }
  flatbuffers::Verifier verifier(m->bytes_, VerifiableSize(m->size_));
  if (!tflite::VerifyModelBuffer(verifier)) {
    return InvalidModel(fmt::format(
        "{}: the model is not a valid flatbuffer ({} bytes): an offset, vector or string "
        "points outside the file or is misaligned; the file may be truncated or corrupt",
        src, m->size_));
  }
  m->model_ = tflite::GetModel(m->bytes_);

  ValidationInput in{m->model_, m->size_, {}};
  if (const auto* codes = m->model_->operator_codes()) {
    for (const auto* c : *codes) in.op_codes.push_back(ResolveOpCode(c));
  }
  Status st = ValidateModel(in, &m->refusals_);
  if (!st.ok()) return Status(st.code(), src + ": " + st.message());
  m->op_codes_ = std::move(in.op_codes);

  if (const auto* metadata = m->model_->metadata()) {
    for (const auto* md : *metadata) {
      if (md->name() == nullptr || md->name()->str() != "min_runtime_version") continue;
      BufferView b = m->buffer(md->buffer());
      // The converter writes a NUL-padded string ("1.14.0\0\0...").
      std::string v(reinterpret_cast<const char*>(b.data), b.size);
      v = v.substr(0, std::strlen(v.c_str()));
      m->min_runtime_version_ = v;
    }
  }
  return m;
}

const OpCode& Model::op_code_of(int subgraph, int op) const {
  const auto* o = model_->subgraphs()->Get(subgraph)->operators()->Get(op);
  return op_codes_[o->opcode_index()];
}

BufferView Model::aligned_buffer(uint32_t index, size_t alignment) const {
  BufferView v = buffer(index);
  if (v.empty() || alignment <= 1 || reinterpret_cast<uintptr_t>(v.data) % alignment == 0) return v;
  std::lock_guard<std::mutex> lock(copies_mutex_);
  auto& copy = aligned_copies_[index];
  if (copy == nullptr) {
    copy.reset(new std::max_align_t[(v.size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t)]);
    std::memcpy(copy.get(), v.data, v.size);
  }
  v.data = reinterpret_cast<const uint8_t*>(copy.get());
  return v;
}

BufferView Model::bool_buffer(uint32_t index) const {
  BufferView v = buffer(index);
  if (std::all_of(v.data, v.data + v.size, [](uint8_t b) { return b <= 1; })) return v;
  std::lock_guard<std::mutex> lock(copies_mutex_);
  auto& copy = bool_copies_[index];
  if (copy == nullptr) {
    copy.reset(new uint8_t[v.size]);
    for (size_t i = 0; i < v.size; ++i) copy[i] = v.data[i] != 0 ? 1 : 0;
  }
  v.data = copy.get();
  return v;
}

BufferView Model::buffer(uint32_t index) const {
  BufferView v;
  const auto* buffers = model_->buffers();
  if (buffers == nullptr || index >= buffers->size()) return v;
  const auto* b = buffers->Get(index);
  if (b->offset() > 1) {  // TFLite: offset 0/1 mean "no external data"
    v.data = bytes_ + b->offset();
    v.size = static_cast<size_t>(b->size());
    v.external = true;
  } else if (b->data() != nullptr) {
    v.data = b->data()->data();
    v.size = b->data()->size();
  }
  return v;
}

}  // namespace tflite_inspect
