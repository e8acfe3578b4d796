#include "benchmark/input_layers.h"

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "tensorflow/lite/kernels/kernel_util.h"

namespace tflite_inspect {
namespace {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);) out.push_back(item);
  if (s.back() == sep) out.emplace_back();
  return out;
}

bool ParseInt(const std::string& s, int* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  const long x = std::strtol(s.c_str(), &end, 10);
  if (*end != '\0' || x < INT32_MIN || x > INT32_MAX) return false;
  *v = static_cast<int>(x);
  return true;
}

int FindLayer(const std::vector<InputLayerInfo>& layers, const std::string& name) {
  for (size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

template <typename T, typename Dist>
std::vector<uint8_t> Fill(size_t n, Dist dist, std::mt19937_64& rng) {
  std::vector<uint8_t> bytes(n * sizeof(T));
  for (size_t i = 0; i < n; ++i) {
    const T v = static_cast<T>(dist(rng));
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
  return bytes;
}

}  // namespace

Result<std::vector<InputLayerInfo>> ParseInputLayers(const std::string& names_string,
                                                     const std::string& shapes_string,
                                                     const std::string& ranges_string,
                                                     const std::string& files_string) {
  std::vector<InputLayerInfo> layers;
  const auto names = Split(names_string, ',');
  const auto shapes = Split(shapes_string, ':');
  if (names.size() != shapes.size()) {
    return InvalidArgument(fmt::format(
        "The number of items in --input_layer_shape ({}, with {} items) must match the number "
        "of items in --input_layer ({}, with {} items). For example --input_layer=input1,input2 "
        "--input_layer_shape=1,224,224,4:1,20",
        shapes_string, shapes.size(), names_string, names.size()));
  }
  for (size_t i = 0; i < names.size(); ++i) {
    InputLayerInfo layer;
    layer.name = names[i];
    for (const auto& d : Split(shapes[i], ',')) {
      int dim = 0;
      if (!ParseInt(d, &dim)) {
        return InvalidArgument(fmt::format("--input_layer_shape: incorrect size string '{}' for "
                                           "input '{}'", shapes[i], names[i]));
      }
      if (dim == -1) {
        return InvalidArgument(
            "Any unknown sizes in the shapes (-1's) must be replaced with the size you want to "
            "benchmark with.");
      }
      if (dim < 0) {
        return InvalidArgument(fmt::format("--input_layer_shape: negative size {} for input '{}'",
                                           dim, names[i]));
      }
      layer.shape.push_back(dim);
    }
    layers.push_back(std::move(layer));
  }
  for (const auto& item : Split(ranges_string, ':')) {
    const auto parts = Split(item, ',');
    int low = 0, high = 0;
    if (parts.size() != 3 || !ParseInt(parts[1], &low) || !ParseInt(parts[2], &high)) {
      return InvalidArgument(fmt::format("--input_layer_value_range: '{}' is not "
                                         "name,low,high (e.g. input1,1,2:input2,0,254)", item));
    }
    const int index = FindLayer(layers, parts[0]);
    if (index < 0) {
      return InvalidArgument(fmt::format("--input_layer_value_range: input '{}' is not in "
                                         "--input_layer ({})", parts[0], names_string));
    }
    if (low > high) {
      return InvalidArgument(fmt::format("--input_layer_value_range: '{}' has low > high", item));
    }
    layers[index].has_value_range = true;
    layers[index].low = low;
    layers[index].high = high;
  }
  for (const auto& item : Split(files_string, ',')) {
    // TFLite's rule: "::" is a ':' of the name or path (converted models name inputs
    // "serving_default_x:0"); exactly one single ':' separates them.
    size_t colon = std::string::npos;
    for (size_t i = 0; i + 1 < item.size(); ++i) {
      if (item[i] != ':') continue;
      if (item[i + 1] == ':') {
        ++i;
      } else if (colon != std::string::npos) {
        return InvalidArgument(fmt::format("--input_layer_value_files: {} contains more than "
                                           "one delimiter (write a ':' of a name as '::')",
                                           item));
      } else {
        colon = i;
      }
    }
    if (colon == std::string::npos || colon == 0 || colon + 1 == item.size()) {
      return InvalidArgument(fmt::format("--input_layer_value_files: '{}' is not name:path "
                                         "(e.g. input1:file_path1,input2:file_path2; a ':' of "
                                         "a name as '::')", item));
    }
    auto unescape = [](std::string text) {
      for (size_t p = text.find("::"); p != std::string::npos; p = text.find("::", p + 1)) {
        text.erase(p, 1);
      }
      return text;
    };
    const std::string name = unescape(item.substr(0, colon));
    const int index = FindLayer(layers, name);
    if (index < 0) {
      return InvalidArgument(fmt::format("--input_layer_value_files: input '{}' is not in "
                                         "--input_layer ({})", name, names_string));
    }
    layers[index].input_file_path = unescape(item.substr(colon + 1));
  }
  return layers;
}

Result<std::vector<uint8_t>> MakeInputData(const TfLiteTensor& t, const InputLayerInfo* info,
                                           uint64_t seed, int stream) {
  if (info != nullptr && !info->input_file_path.empty()) {
    std::ifstream f(info->input_file_path, std::ios::binary | std::ios::ate);
    if (!f) {
      return IoError("Failed to read the input_layer_value_file:" + info->input_file_path);
    }
    const auto size = static_cast<size_t>(f.tellg());
    if (size != t.bytes) {
      return InvalidArgument(fmt::format("The size of {} is {} bytes. It should be {} bytes.",
                                         info->input_file_path, size, t.bytes));
    }
    std::vector<uint8_t> bytes(size);
    f.seekg(0);
    f.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
    return bytes;
  }
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(stream));
  const bool ranged = info != nullptr && info->has_value_range;
  const int low = ranged ? info->low : 0;
  auto high = [&](int dflt) { return ranged ? info->high : dflt; };
  const size_t n = t.dims == nullptr ? 0 : static_cast<size_t>(tflite::NumElements(t.dims));
  switch (t.type) {
    case kTfLiteFloat32:
      return Fill<float>(n, std::uniform_real_distribution<float>(-0.5f, 0.5f), rng);
    case kTfLiteFloat64:
      return Fill<double>(n, std::uniform_real_distribution<double>(-0.5, 0.5), rng);
    case kTfLiteInt64:
      return Fill<int64_t>(n, std::uniform_int_distribution<int64_t>(low, high(99)), rng);
    case kTfLiteInt32:
      return Fill<int32_t>(n, std::uniform_int_distribution<int32_t>(low, high(99)), rng);
    case kTfLiteUInt32:
      return Fill<uint32_t>(n, std::uniform_int_distribution<int64_t>(low, high(99)), rng);
    case kTfLiteInt16:
      return Fill<int16_t>(n, std::uniform_int_distribution<int32_t>(low, high(99)), rng);
    case kTfLiteUInt8:
      return Fill<uint8_t>(n, std::uniform_int_distribution<int32_t>(low, high(254)), rng);
    case kTfLiteInt8:
      return Fill<int8_t>(n, std::uniform_int_distribution<int32_t>(ranged ? low : -127, high(127)),
                          rng);
    case kTfLiteBool:
      return Fill<bool>(n, std::uniform_int_distribution<int32_t>(0, 1), rng);
    default:
      return Status(StatusCode::kUnsupported,
                    fmt::format("Don't know how to populate tensor {} of type {}",
                                t.name ? t.name : "", TfLiteTypeGetName(t.type)));
  }
}

}  // namespace tflite_inspect
