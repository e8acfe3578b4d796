// The test delegate: claims every node whose op is in a given list (builtin names such
// as "ADD" or custom op names) and runs the claimed nodes with the CPU kernels it
// replaced, so results stay right while partitions take any shape a test or a report
// needs. Tools enable it with --test_delegate_ops=ADD,CONV_2D,MyCustomOp.
#ifndef TFLITE_INSPECT_DELEGATES_SAMPLE_TEST_DELEGATE_H_
#define TFLITE_INSPECT_DELEGATES_SAMPLE_TEST_DELEGATE_H_

#include <limits>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/utils/simple_delegate.h"

namespace tflite_inspect {

struct TestDelegateOptions {
  std::vector<std::string> ops;  // builtin op names or custom op names
  int max_delegated_partitions = 0;
  int min_nodes_per_partition = 0;
  int first_delegate_node_index = 0;  // nodes outside [first, last] stay on the CPU
  int last_delegate_node_index = std::numeric_limits<int>::max();
  std::string name = "TestDelegate";
  // Added to every float32 value the delegate's partitions output: a deliberately wrong
  // delegate, for testing inference_diff. 0 keeps results exact.
  float output_error = 0.0f;
};

// Splits "ADD, CONV_2D,MyOp" into names; empty items are dropped.
std::vector<std::string> ParseOpList(const std::string& list);

tflite::TfLiteDelegateUniquePtr CreateTestDelegate(const TestDelegateOptions& options);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_DELEGATES_SAMPLE_TEST_DELEGATE_H_
