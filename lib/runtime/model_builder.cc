#include "tensorflow/lite/model_builder.h"

#include "model/model.h"

namespace tflite {
namespace {

std::unique_ptr<FlatBufferModel> Wrap(
    tflite_inspect::Result<std::unique_ptr<tflite_inspect::Model>> loaded,
    ErrorReporter* reporter) {
  if (reporter == nullptr) reporter = DefaultErrorReporter();
  if (!loaded.ok()) {
    TF_LITE_REPORT_ERROR(reporter, "%s", loaded.status().message().c_str());
    return nullptr;
  }
  return std::unique_ptr<FlatBufferModel>(
      new FlatBufferModel(std::move(loaded).value(), reporter));
}

}  // namespace

FlatBufferModel::FlatBufferModel(std::unique_ptr<tflite_inspect::Model> model,
                                 ErrorReporter* reporter)
    : model_(std::move(model)), error_reporter_(reporter) {}

FlatBufferModel::~FlatBufferModel() = default;

std::unique_ptr<FlatBufferModel> FlatBufferModel::BuildFromFile(const char* filename,
                                                                ErrorReporter* reporter) {
  return Wrap(tflite_inspect::Model::LoadFile(filename ? filename : ""), reporter);
}

std::unique_ptr<FlatBufferModel> FlatBufferModel::VerifyAndBuildFromFile(
    const char* filename, ErrorReporter* reporter) {
  return BuildFromFile(filename, reporter);
}

std::unique_ptr<FlatBufferModel> FlatBufferModel::BuildFromBuffer(const char* buffer,
                                                                  size_t size,
                                                                  ErrorReporter* reporter) {
  return Wrap(tflite_inspect::Model::LoadBuffer(buffer, size), reporter);
}

std::unique_ptr<FlatBufferModel> FlatBufferModel::VerifyAndBuildFromBuffer(
    const char* buffer, size_t size, ErrorReporter* reporter) {
  return BuildFromBuffer(buffer, size, reporter);
}

const tflite::Model* FlatBufferModel::GetModel() const { return model_->fb(); }

std::string FlatBufferModel::GetMinimumRuntime() const {
  return model_->min_runtime_version().value_or("");
}

}  // namespace tflite
