// What a Netron / Model Explorer user reads off a node: its attributes (stride, padding,
// dilation, activation, axis, ...), its multiply-accumulates and the bytes of the constant
// tensors it reads (weights, biases), from the model file alone.
#ifndef TFLITE_INSPECT_LIB_INSPECT_NODE_ATTRIBUTES_H_
#define TFLITE_INSPECT_LIB_INSPECT_NODE_ATTRIBUTES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {

// ("stride", "2x2"), ("padding", "SAME"), ("activation", "RELU6"), ... for the options the
// builtin op's table carries; defaults that change nothing (no activation, dilation 1x1)
// are left out. Empty for ops without options and for custom ops.
std::vector<std::pair<std::string, std::string>> NodeAttributes(const tflite::Operator& op,
                                                                int32_t builtin_code);

// Multiply-accumulates of one inference of the node, from the tensors' static shapes:
// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED, BATCH_MATMUL, CONV_3D, and
// the recurrent ops (LSTM, RNN and their sequence forms, SVDF: steps x weight elements).
// 0 for other ops; -1 when a shape it needs is unknown (a -1 or missing dimension).
int64_t NodeMacs(const tflite::Operator& op, int32_t builtin_code,
                 const flatbuffers::Vector<flatbuffers::Offset<tflite::Tensor>>& tensors);
// The same from shapes given by the caller (e.g. the ones Prepare computed): input(i) and
// output(i) return the node's i-th input / output dimensions, empty when the tensor is
// absent or a dimension is not positive; adj_x is BATCH_MATMUL's option.
int64_t NodeMacs(int32_t builtin_code, const std::function<std::vector<int64_t>(size_t)>& input,
                 const std::function<std::vector<int64_t>(size_t)>& output, bool adj_x);

// Custom ops whose work is a builtin's, counted as that builtin's: MediaPipe's
// Convolution2DTransposeBias (input, weights [O, KH, KW, I], bias) does TRANSPOSE_CONV's
// (output shape, weights, input). 0 for any other custom op (its work is unknown).
int64_t CustomNodeMacs(const std::string& custom_name, const tflite::Operator& op,
                       const flatbuffers::Vector<flatbuffers::Offset<tflite::Tensor>>& tensors);
int64_t CustomNodeMacs(const std::string& custom_name,
                       const std::function<std::vector<int64_t>(size_t)>& input,
                       const std::function<std::vector<int64_t>(size_t)>& output);

// "12.3M", "950k", "812": counts for people.
std::string HumanCount(int64_t n);
// "3.4 MB", "12.0 kB", "96 B".
std::string HumanBytes(uint64_t n);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_INSPECT_NODE_ATTRIBUTES_H_
