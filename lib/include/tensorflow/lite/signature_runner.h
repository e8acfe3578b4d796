// TFLite's public path for the SignatureRunner (core/signature_runner.h).
#ifndef TENSORFLOW_LITE_SIGNATURE_RUNNER_H_
#define TENSORFLOW_LITE_SIGNATURE_RUNNER_H_

#include "tensorflow/lite/core/signature_runner.h"

#endif  // TENSORFLOW_LITE_SIGNATURE_RUNNER_H_
