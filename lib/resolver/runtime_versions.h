// Which TFLite release first registers each (builtin op, version) pair in its
// BuiltinOpResolver, and what a release's interpreter prints for a pair it lacks.
//
// The facts live in one table, runtime_versions_table.cc (TFLite's own
// op_version_map from tools/versioning/runtime_version.cc, plus the exceptions that the
// releases' kernels/register.cc show); docs/runtime_versions.md says where each fact comes
// from and up to which release the table is complete. Everything here is immutable data
// and pure functions: thread-safe, no allocation failures reported, nothing aborts.
#ifndef TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_VERSIONS_H_
#define TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_VERSIONS_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "resolver/op_catalog.h"
#include "util/status.h"

namespace tflite_inspect {

// A TFLite release at minor granularity: "2.8" stands for 2.8.0, the first build of that
// line (patch releases add no op versions).
struct TfLiteRelease {
  int major = 0;
  int minor = 0;

  std::string Name() const;  // "2.8"
  friend bool operator==(TfLiteRelease a, TfLiteRelease b) {
    return a.major == b.major && a.minor == b.minor;
  }
  friend bool operator!=(TfLiteRelease a, TfLiteRelease b) { return !(a == b); }
  friend bool operator<(TfLiteRelease a, TfLiteRelease b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  }
  friend bool operator<=(TfLiteRelease a, TfLiteRelease b) { return !(b < a); }
  friend bool operator>(TfLiteRelease a, TfLiteRelease b) { return b < a; }
  friend bool operator>=(TfLiteRelease a, TfLiteRelease b) { return !(a < b); }
};

// The releases the table covers, oldest first (1.14 ... 2.21).
const std::vector<TfLiteRelease>& KnownReleases();
// "1.14, 1.15, 2.0, ..., 2.21".
std::string KnownReleaseList();

// "2.8", "2.8.0", "2.8.4", "v2.8" -> 2.8. Fails with kInvalidArgument, naming the text and
// listing the known releases, when the text is malformed or names a release the table
// does not cover.
Result<TfLiteRelease> ParseRelease(std::string_view text);

// The first known release whose x.y.0 build is at least `upstream` ("2.3.0" -> 2.3,
// "2.14.4" -> 2.15, "1.13.1" -> 1.14); nullopt when `upstream` is newer than every known
// release or is not a dotted version.
std::optional<TfLiteRelease> FirstReleaseAtLeast(std::string_view upstream);

// What the table knows about one (builtin op, version) pair.
enum class PairStatus {
  kReleased,       // registered from `first_release` on
  kUnreleased,     // TFLite's map dates it after the newest known release
  kNotInResolver,  // in TFLite's map, but BuiltinOpResolver does not register it
  kUnknown,        // not in the table: no TFLite release registers it (as far as known)
};

struct PairInfo {
  PairStatus status = PairStatus::kUnknown;
  std::string upstream;  // TFLite's map entry ("2.3.0"); "" for kUnknown
  std::optional<TfLiteRelease> first_release;  // set for kReleased only
  std::string note;      // why, for kNotInResolver and for rounded-up patch versions
};

PairInfo LookupPair(int32_t builtin_op, int version);

// The versions of `builtin_op` that `release`'s BuiltinOpResolver registers.
std::set<int> RegisteredVersions(int32_t builtin_op, TfLiteRelease release);

// The largest builtin code `release` registers: the lower bound of that release's schema
// (BuiltinOperator_MAX). Codes above it are "out of range" for that release's reader.
int32_t SchemaMaxCode(TfLiteRelease release);

// Custom ops that every known release's BuiltinOpResolver registers itself.
bool IsBuiltinResolverCustomOp(const std::string& name);

// What `release`'s BuiltinOpResolver registers: its builtin (op, version) pairs and its
// custom ops (TFLite_Detection_PostProcess, Mfcc, AudioSpectrogram; version 1).
OpCatalog TfLiteBuiltinResolverCatalog(TfLiteRelease release);

// Why this runtime's BuiltinOpResolver lacks (op, version) that TFLite's registers, or ""
// when no reason is recorded (then: not implemented yet). Custom ops by name, op < 0.
std::string CoverageGapReason(int32_t builtin_op, const std::string& custom_name = "");

// What `release`'s InterpreterBuilder prints (its first error line, before "Registration
// failed.") for an operator code it cannot resolve. `code` is the builtin code as that
// release reads it (see EffectiveBuiltinCode).
std::string ReleaseMissMessage(TfLiteRelease release, int32_t code, int version);

// The builtin code a release reads from an operator_codes entry: releases before 2.4 know
// only the byte-wide deprecated_builtin_code (127 for every op numbered 127 and up).
int32_t EffectiveBuiltinCode(TfLiteRelease release, int32_t deprecated_builtin_code,
                             int32_t builtin_code);

// One row of the table, for listings and tests.
struct OpVersionFact {
  int32_t op;
  int version;
  const char* upstream;
};
const std::vector<OpVersionFact>& OpVersionFacts();

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_RESOLVER_RUNTIME_VERSIONS_H_
