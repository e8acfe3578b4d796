// The data behind runtime_versions.h; only runtime_versions.cc and tests include this.
#ifndef TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_VERSIONS_TABLE_H_
#define TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_VERSIONS_TABLE_H_

#include <cstddef>

#include "resolver/runtime_versions.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite_inspect {
namespace runtime_table {

struct OpVersionRow {
  tflite::BuiltinOperator op;
  int version;
  const char* since;  // upstream's string, "2.3.0"
};

struct ResolverException {
  tflite::BuiltinOperator op;
  int version;
  const char* why;
};

extern const TfLiteRelease kReleases[];
extern const size_t kNumReleases;
extern const OpVersionRow kOpVersions[];
extern const size_t kNumOpVersions;
extern const ResolverException kNotInBuiltinResolver[];
extern const size_t kNumNotInBuiltinResolver;
// Why this runtime lacks an op (all its missing versions) that TFLite's resolver has.
struct CoverageGap {
  tflite::BuiltinOperator op;  // ignored when custom is set
  const char* custom;          // custom op name, or nullptr for a builtin
  const char* why;
};
extern const CoverageGap kCoverageGaps[];
extern const size_t kNumCoverageGaps;
extern const char* const kBuiltinResolverCustomOps[];
extern const size_t kNumBuiltinResolverCustomOps;

}  // namespace runtime_table
}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_VERSIONS_TABLE_H_
