#include "resolver/runtime_versions.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "catch2/catch.hpp"
#include "model/op_code.h"
#include "resolver/register_snapshots_test_data.inc"
#include "resolver/runtime_versions_table.h"
#include "util/strings.h"

namespace tflite_inspect {
namespace {

using tflite::BuiltinOperator;

int32_t OpByName(const std::string& name) {
  for (int32_t c = tflite::BuiltinOperator_MIN; c <= tflite::BuiltinOperator_MAX; ++c) {
    if (IsKnownBuiltinOp(c) && BuiltinOpName(c) == name) return c;
  }
  FAIL("unknown op name in snapshot: " << name);
  return -1;
}

using Registered = std::map<int32_t, std::set<int>>;

// "ABS:1-4 RELU:1" -> {ABS: {1..4}, RELU: {1}}.
Registered ParseSnapshot(const char* text) {
  Registered out;
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    size_t colon = item.find(':');
    REQUIRE(colon != std::string::npos);
    std::string range = item.substr(colon + 1);
    size_t dash = range.find('-');
    int lo = std::stoi(range.substr(0, dash));
    int hi = dash == std::string::npos ? lo : std::stoi(range.substr(dash + 1));
    for (int v = lo; v <= hi; ++v) out[OpByName(item.substr(0, colon))].insert(v);
  }
  return out;
}

// What the table says BuiltinOpResolver registers at a known release.
Registered TableAt(TfLiteRelease r) {
  Registered out;
  for (const auto& f : OpVersionFacts()) {
    if (RegisteredVersions(f.op, r).count(f.version)) out[f.op].insert(f.version);
  }
  return out;
}

// The map's pairs dated up to `upstream` (inclusive), less the resolver exceptions:
// the upper bound for a snapshot taken after the newest known release.
Registered MapUpTo(const std::string& upstream) {
  Registered out;
  for (const auto& f : OpVersionFacts()) {
    if (CompareVersions(f.upstream, upstream) > 0) continue;
    if (LookupPair(f.op, f.version).status == PairStatus::kNotInResolver) continue;
    out[f.op].insert(f.version);
  }
  return out;
}

// Every pair of `small` is in `big`; failures name the op and the versions.
void CheckSubset(const Registered& small, const Registered& big, const std::string& what) {
  for (const auto& [op, versions] : small) {
    auto it = big.find(op);
    std::set<int> missing;
    for (int v : versions) {
      if (it == big.end() || !it->second.count(v)) missing.insert(v);
    }
    INFO(what << ": " << BuiltinOpName(op));
    CHECK(missing.empty());
  }
}

TEST_CASE("releases parse from 2.8, 2.8.0 and v2.8.4") {
  REQUIRE(ParseRelease("2.8").ok());
  CHECK(ParseRelease("2.8").value() == TfLiteRelease{2, 8});
  CHECK(ParseRelease("2.8.0").value() == TfLiteRelease{2, 8});
  CHECK(ParseRelease("v2.8.4").value() == TfLiteRelease{2, 8});
  CHECK(ParseRelease("1.14").value() == TfLiteRelease{1, 14});
  CHECK(ParseRelease("2.21")->Name() == "2.21");

  auto unknown = ParseRelease("2.30");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(unknown.status().message(), Catch::Contains("unknown TFLite release '2.30'"));
  CHECK_THAT(unknown.status().message(), Catch::Contains("1.14, 1.15, 2.0, 2.1,"));
  CHECK_THAT(unknown.status().message(), Catch::EndsWith("2.20, 2.21"));
  for (const char* bad : {"", "2", "two.eight", "2.8.0.1", "2..8", "2.8-rc0"}) {
    INFO(bad);
    auto r = ParseRelease(bad);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.status().message(), Catch::Contains("is not a TFLite release"));
  }
  CHECK(ParseRelease("1.13").status().message().find("unknown TFLite release") == 0);
}

TEST_CASE("upstream strings map to the first minor release whose .0 has them") {
  CHECK(FirstReleaseAtLeast("2.3.0") == TfLiteRelease{2, 3});
  CHECK(FirstReleaseAtLeast("2.14.4") == TfLiteRelease{2, 15});  // TRANSPOSE v7
  CHECK(FirstReleaseAtLeast("1.13.1") == TfLiteRelease{1, 14});
  CHECK(FirstReleaseAtLeast("1.5.0") == TfLiteRelease{1, 14});
  CHECK(FirstReleaseAtLeast("1.15.1") == TfLiteRelease{2, 0});
  CHECK(FirstReleaseAtLeast("2.21.0") == TfLiteRelease{2, 21});
  CHECK_FALSE(FirstReleaseAtLeast("2.22.0").has_value());
  CHECK_FALSE(FirstReleaseAtLeast("garbage").has_value());
}

TEST_CASE("the table: known ops, contiguous versions, dates never go backwards") {
  std::map<int32_t, std::vector<const OpVersionFact*>> by_op;
  std::set<std::pair<int32_t, int>> seen;
  for (const auto& f : OpVersionFacts()) {
    INFO(BuiltinOpName(f.op) << " v" << f.version << " " << f.upstream);
    CHECK(IsKnownBuiltinOp(f.op));
    CHECK(seen.insert({f.op, f.version}).second);  // no duplicate rows
    CHECK(FirstReleaseAtLeast(f.upstream).has_value() ==
          (CompareVersions(f.upstream, "2.21.0") <= 0));
    by_op[f.op].push_back(&f);
  }
  CHECK(OpVersionFacts().size() == 420);
  for (auto& [op, facts] : by_op) {
    std::sort(facts.begin(), facts.end(),
              [](const OpVersionFact* a, const OpVersionFact* b) { return a->version < b->version; });
    INFO(BuiltinOpName(op));
    // BROADCAST_TO v1 was rolled back upstream before any release.
    CHECK(facts.front()->version == (op == tflite::BuiltinOperator_BROADCAST_TO ? 2 : 1));
    for (size_t i = 1; i < facts.size(); ++i) {
      CHECK(facts[i]->version == facts[i - 1]->version + 1);
      CHECK(CompareVersions(facts[i - 1]->upstream, facts[i]->upstream) <= 0);
    }
  }
}

TEST_CASE("pair lookups: released, rounded up, unreleased, not in the resolver, unknown") {
  PairInfo fc9 = LookupPair(tflite::BuiltinOperator_FULLY_CONNECTED, 9);
  CHECK(fc9.status == PairStatus::kReleased);
  CHECK(fc9.upstream == "2.3.0");
  CHECK(fc9.first_release == TfLiteRelease{2, 3});
  CHECK(fc9.note.empty());

  PairInfo t7 = LookupPair(tflite::BuiltinOperator_TRANSPOSE, 7);
  CHECK(t7.first_release == TfLiteRelease{2, 15});
  CHECK_THAT(t7.note, Catch::Contains("2.14.4, a patch release"));

  PairInfo mul8 = LookupPair(tflite::BuiltinOperator_MUL, 8);
  CHECK(mul8.status == PairStatus::kUnreleased);
  CHECK(mul8.upstream == "2.23.0");
  CHECK_FALSE(mul8.first_release.has_value());

  CHECK(LookupPair(tflite::BuiltinOperator_STABLEHLO_CBRT, 1).status ==
        PairStatus::kNotInResolver);
  CHECK(LookupPair(tflite::BuiltinOperator_QUANTIZE, 6).status == PairStatus::kNotInResolver);
  CHECK(LookupPair(tflite::BuiltinOperator_CONV_2D, 9).status == PairStatus::kUnknown);
  CHECK(LookupPair(tflite::BuiltinOperator_CONCAT_EMBEDDINGS, 1).status == PairStatus::kUnknown);
  CHECK(LookupPair(tflite::BuiltinOperator_BROADCAST_TO, 1).status == PairStatus::kUnknown);
}

TEST_CASE("registered versions per release") {
  using tflite::BuiltinOperator_FULLY_CONNECTED;
  CHECK(RegisteredVersions(BuiltinOperator_FULLY_CONNECTED, {1, 14}) == std::set<int>{1, 2, 3, 4});
  CHECK(RegisteredVersions(BuiltinOperator_FULLY_CONNECTED, {2, 2}) ==
        std::set<int>{1, 2, 3, 4, 5, 6});
  CHECK(RegisteredVersions(BuiltinOperator_FULLY_CONNECTED, {2, 3}).size() == 9);
  CHECK(RegisteredVersions(BuiltinOperator_FULLY_CONNECTED, {2, 21}).size() == 14);
  CHECK(RegisteredVersions(tflite::BuiltinOperator_GELU, {2, 8}).empty());
  CHECK(RegisteredVersions(tflite::BuiltinOperator_STABLEHLO_CBRT, {2, 21}).empty());
}

TEST_CASE("schema bounds: the largest code each release registers") {
  CHECK(SchemaMaxCode({1, 14}) == tflite::BuiltinOperator_ROUND);          // 116
  CHECK(SchemaMaxCode({2, 3}) == tflite::BuiltinOperator_BATCH_MATMUL);    // 126
  CHECK(SchemaMaxCode({2, 4}) == tflite::BuiltinOperator_CUMSUM);          // 128
  CHECK(SchemaMaxCode({2, 8}) == tflite::BuiltinOperator_MULTINOMIAL);     // 149
  CHECK(SchemaMaxCode({2, 17}) == tflite::BuiltinOperator_STABLEHLO_CASE); // 209
  for (const auto& r : KnownReleases()) {
    INFO(r.Name());
    if (r < TfLiteRelease{2, 4}) CHECK(SchemaMaxCode(r) < 127);
  }
}

TEST_CASE("what each release prints, as device logs quote it") {
  // tensorflow==2.4.1 on a model with SLICE v5 (PINTO0309/PINTO_model_zoo#185).
  CHECK(ReleaseMissMessage({2, 4}, tflite::BuiltinOperator_SLICE, 5) ==
        "Didn't find op for builtin opcode 'SLICE' version '5'");
  CHECK(RegisteredVersions(tflite::BuiltinOperator_SLICE, {2, 4}) == std::set<int>{1, 2, 3, 4});
  // flutter-tflite on TFLite 2.11 with LOG v2 and FULLY_CONNECTED v12
  // (tensorflow/flutter-tflite#250).
  CHECK(ReleaseMissMessage({2, 11}, tflite::BuiltinOperator_LOG, 2) ==
        "Didn't find op for builtin opcode 'LOG' version '2'. An older version of this builtin "
        "might be supported. Are you using an old TFLite binary with a newer model?");
  CHECK(RegisteredVersions(tflite::BuiltinOperator_LOG, {2, 11}) == std::set<int>{1});
  CHECK(RegisteredVersions(tflite::BuiltinOperator_FULLY_CONNECTED, {2, 11}).count(12) == 0);
  // A code beyond the release's schema.
  CHECK(ReleaseMissMessage({2, 8}, tflite::BuiltinOperator_GELU, 1) ==
        "Op builtin_code out of range: 150. Are you using old TFLite binary with newer model?");
  // Before 2.4 a release reads only the byte-wide code: 127 for every op from 127 on.
  CHECK(EffectiveBuiltinCode({2, 3}, 127, tflite::BuiltinOperator_GELU) == 127);
  CHECK(EffectiveBuiltinCode({2, 4}, 127, tflite::BuiltinOperator_GELU) == 150);
  CHECK(EffectiveBuiltinCode({1, 14}, 9, 0) == 9);  // old converters write only the byte
  CHECK(ReleaseMissMessage({2, 3}, 127, 1) ==
        "Op builtin_code out of range: 127. Are you using old TFLite binary with newer model?");
}

TEST_CASE("the table sandwiches three snapshots of TFLite's register.cc") {
  using namespace register_snapshots;
  Registered tf211 = ParseSnapshot(kTf211Dev);
  CheckSubset(TableAt({2, 10}), tf211, "table@2.10 <= tf 2.11-dev");
  CheckSubset(tf211, TableAt({2, 11}), "tf 2.11-dev <= table@2.11");

  Registered tf215 = ParseSnapshot(kTf215Dev);
  CheckSubset(TableAt({2, 14}), tf215, "table@2.14 <= tf 2.15-dev");
  CheckSubset(tf215, TableAt({2, 15}), "tf 2.15-dev <= table@2.15");
  // The snapshot is after the 2.14 branch and still lacks TRANSPOSE v7 ("2.14.4").
  CHECK(tf215[tflite::BuiltinOperator_TRANSPOSE].count(7) == 0);

  Registered litert = ParseSnapshot(kLiteRtHead);
  CheckSubset(TableAt({2, 21}), litert, "table@2.21 <= LiteRT head");
  CheckSubset(litert, MapUpTo("2.22.0"), "LiteRT head <= map up to 2.22.0");
}

TEST_CASE("BuiltinOpResolver's own custom ops") {
  CHECK(IsBuiltinResolverCustomOp("TFLite_Detection_PostProcess"));
  CHECK(IsBuiltinResolverCustomOp("Mfcc"));
  CHECK_FALSE(IsBuiltinResolverCustomOp("Landmarks2TransformMatrix"));
  CHECK(KnownReleaseList().rfind("1.14, 1.15, 2.0", 0) == 0);
}

}  // namespace
}  // namespace tflite_inspect
