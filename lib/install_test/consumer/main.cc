// Loads a model through the installed library and prints its operator codes.
#include <cstdio>

#include "model/model.h"
#include "tensorflow/lite/schema/schema_generated.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto model = tflite_inspect::Model::LoadFile(argv[1]);
  if (!model.ok()) {
    std::fprintf(stderr, "%s\n", model.status().message().c_str());
    return 1;
  }
  for (const auto& code : model.value()->op_codes()) std::printf("%s\n", code.display().c_str());
  return 0;
}
