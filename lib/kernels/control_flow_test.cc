#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <vector>

#include "kernels/testing/op_test_util.h"
#include "tensorflow/lite/core/api/profiler.h"

namespace tflite_inspect {
namespace {

const auto kF32 = tflite::TensorType_FLOAT32;
const auto kI32 = tflite::TensorType_INT32;
const auto kBool = tflite::TensorType_BOOL;

// OpTestModel::SetInput needs vector::data(), which vector<bool> lacks.
void SetBool(OpTestModel& m, int input, bool value) {
  m.interpreter().input_tensor(input)->data.b[0] = value;
}

OpOptions AddOpts() { return Options(tflite::AddOptionsT()); }

tflite::WhileOptionsT WhileOpts(int cond, int body) {
  tflite::WhileOptionsT o;
  o.cond_subgraph_index = cond;
  o.body_subgraph_index = body;
  return o;
}

// Loop variables (i, n, acc): while i < n { i += 1; acc += acc }.
ModelBuilder CountingWhile() {
  ModelBuilder b;
  int i = b.AddTensor(kI32, {1}, "i");
  int n = b.AddTensor(kI32, {1}, "n");
  int acc = b.AddTensor(kF32, {1}, "acc");
  int i_out = b.AddTensor(kI32, {1}, "i_out");
  int n_out = b.AddTensor(kI32, {1}, "n_out");
  int acc_out = b.AddTensor(kF32, {1}, "acc_out");
  b.AddOperator(tflite::BuiltinOperator_WHILE, {i, n, acc}, {i_out, n_out, acc_out},
                Options(WhileOpts(1, 2)));
  b.SetInputs({i, n, acc});
  b.SetOutputs({i_out, n_out, acc_out});

  const int cond = b.AddSubgraph("cond");
  b.UseSubgraph(cond);
  int ci = b.AddTensor(kI32, {1}, "i");
  int cn = b.AddTensor(kI32, {1}, "n");
  int cacc = b.AddTensor(kF32, {1}, "acc");
  int less = b.AddTensor(kBool, {1}, "less");
  b.AddOperator(tflite::BuiltinOperator_LESS, {ci, cn}, {less});
  b.SetInputs({ci, cn, cacc});
  b.SetOutputs({less});

  const int body = b.AddSubgraph("body");
  b.UseSubgraph(body);
  int bi = b.AddTensor(kI32, {1}, "i");
  int bn = b.AddTensor(kI32, {1}, "n");
  int bacc = b.AddTensor(kF32, {1}, "acc");
  int one = b.AddConstTensor<int32_t>(kI32, {1}, {1}, "one");
  int bi2 = b.AddTensor(kI32, {1}, "i2");
  int bacc2 = b.AddTensor(kF32, {1}, "acc2");
  b.AddOperator(tflite::BuiltinOperator_ADD, {bi, one}, {bi2}, AddOpts());
  b.AddOperator(tflite::BuiltinOperator_ADD, {bacc, bacc}, {bacc2}, AddOpts());
  b.SetInputs({bi, bn, bacc});
  b.SetOutputs({bi2, bn, bacc2});  // n passes through
  b.UseSubgraph(0);
  return b;
}

TEST_CASE("WHILE: counts to N and doubles an accumulator", "[control_flow]") {
  OpTestModel m(CountingWhile());
  REQUIRE(m.Prepare() == kTfLiteOk);
  for (int n : {5, 0, 1, 3}) {
    CAPTURE(n);
    m.SetInput<int32_t>(0, {0});
    m.SetInput<int32_t>(1, {n});
    m.SetInput<float>(2, {1.5f});
    REQUIRE(m.Invoke() == kTfLiteOk);
    CHECK(m.Output<int32_t>(0) == std::vector<int32_t>{n});
    CHECK(m.Output<int32_t>(1) == std::vector<int32_t>{n});
    CHECK(m.Output<float>(2) == std::vector<float>{1.5f * (1 << n)});
  }
}

// while i < 3 { i += 1; x = concat(x, x) }: the body grows x, so the output is dynamic.
TEST_CASE("WHILE: a body that changes shapes gives dynamic outputs", "[control_flow]") {
  ModelBuilder b;
  int i = b.AddTensor(kI32, {1}, "i");
  int x = b.AddTensor(kF32, {2}, "x");
  int i_out = b.AddTensor(kI32, {1}, "i_out");
  int x_out = b.AddTensor(kF32, {2}, "x_out");
  b.AddOperator(tflite::BuiltinOperator_WHILE, {i, x}, {i_out, x_out}, Options(WhileOpts(1, 2)));
  b.SetInputs({i, x});
  b.SetOutputs({i_out, x_out});
  b.UseSubgraph(b.AddSubgraph("cond"));
  int ci = b.AddTensor(kI32, {1});
  int cx = b.AddTensor(kF32, {2});
  int three = b.AddConstTensor<int32_t>(kI32, {1}, {3});
  int less = b.AddTensor(kBool, {1});
  b.AddOperator(tflite::BuiltinOperator_LESS, {ci, three}, {less});
  b.SetInputs({ci, cx});
  b.SetOutputs({less});
  b.UseSubgraph(b.AddSubgraph("body"));
  int bi = b.AddTensor(kI32, {1});
  int bx = b.AddTensor(kF32, {2});
  int one = b.AddConstTensor<int32_t>(kI32, {1}, {1});
  int bi2 = b.AddTensor(kI32, {1});
  int bx2 = b.AddTensor(kF32, {4});
  b.AddOperator(tflite::BuiltinOperator_ADD, {bi, one}, {bi2}, AddOpts());
  tflite::ConcatenationOptionsT concat;
  concat.axis = 0;
  b.AddOperator(tflite::BuiltinOperator_CONCATENATION, {bx, bx}, {bx2}, Options(concat));
  b.SetInputs({bi, bx});
  b.SetOutputs({bi2, bx2});
  b.UseSubgraph(0);

  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.SetInput<int32_t>(0, {0});
  m.SetInput<float>(1, {1, 2});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<int32_t>(0) == std::vector<int32_t>{3});
  CHECK(m.OutputShape(1) == std::vector<int>{16});
  const std::vector<float> got = m.Output<float>(1);
  REQUIRE(got.size() == 16);
  for (int k = 0; k < 16; ++k) CHECK(got[k] == (k % 2 == 0 ? 1.f : 2.f));
  // Again from a fresh start: the loop re-sizes its subgraphs back.
  m.SetInput<int32_t>(0, {2});
  m.SetInput<float>(1, {3, 4});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(1) == std::vector<int>{4});
  CHECK(m.Output<float>(1) == std::vector<float>{3, 4, 3, 4});
}

// while i < 3 { i += 1; x = concat(x, x); s += k }: k passes through the body, which
// reads it; x grows, so the body's arena is planned again every iteration and k, copied
// in once where the arena keeps its bytes, is copied again each time it does not.
TEST_CASE("WHILE: a passed-through variable beside one that changes shapes", "[control_flow]") {
  ModelBuilder b;
  const std::vector<int> in = {b.AddTensor(kI32, {1}, "i"), b.AddTensor(kF32, {2}, "x"),
                               b.AddTensor(kF32, {3}, "k"), b.AddTensor(kF32, {3}, "s")};
  const std::vector<int> out = {b.AddTensor(kI32, {1}), b.AddTensor(kF32, {2}),
                                b.AddTensor(kF32, {3}), b.AddTensor(kF32, {3})};
  b.AddOperator(tflite::BuiltinOperator_WHILE, in, out, Options(WhileOpts(1, 2)));
  b.SetInputs(in);
  b.SetOutputs(out);
  b.UseSubgraph(b.AddSubgraph("cond"));
  int ci = b.AddTensor(kI32, {1});
  int three = b.AddConstTensor<int32_t>(kI32, {1}, {3});
  int less = b.AddTensor(kBool, {1});
  b.AddOperator(tflite::BuiltinOperator_LESS, {ci, three}, {less});
  b.SetInputs({ci, b.AddTensor(kF32, {2}), b.AddTensor(kF32, {3}), b.AddTensor(kF32, {3})});
  b.SetOutputs({less});
  b.UseSubgraph(b.AddSubgraph("body"));
  int bi = b.AddTensor(kI32, {1});
  int bx = b.AddTensor(kF32, {2});
  int bk = b.AddTensor(kF32, {3});
  int bs = b.AddTensor(kF32, {3});
  int one = b.AddConstTensor<int32_t>(kI32, {1}, {1});
  int bi2 = b.AddTensor(kI32, {1});
  int bx2 = b.AddTensor(kF32, {4});
  int bs2 = b.AddTensor(kF32, {3});
  b.AddOperator(tflite::BuiltinOperator_ADD, {bi, one}, {bi2}, AddOpts());
  tflite::ConcatenationOptionsT concat;
  concat.axis = 0;
  b.AddOperator(tflite::BuiltinOperator_CONCATENATION, {bx, bx}, {bx2}, Options(concat));
  b.AddOperator(tflite::BuiltinOperator_ADD, {bs, bk}, {bs2}, AddOpts());
  b.SetInputs({bi, bx, bk, bs});
  b.SetOutputs({bi2, bx2, bk, bs2});  // k passes through
  b.UseSubgraph(0);

  OpTestModel m(b);
  REQUIRE(m.Prepare() == kTfLiteOk);
  for (int start : {0, 2, 3, 0}) {
    CAPTURE(start);
    const float f = static_cast<float>(start + 1);
    const float n = static_cast<float>(3 - start);
    m.SetInput<int32_t>(0, {start});
    m.SetInput<float>(1, {1, 2});
    m.SetInput<float>(2, {f, 10 * f, 100 * f});
    m.SetInput<float>(3, {1, 1, 1});
    REQUIRE(m.Invoke() == kTfLiteOk);
    CHECK(m.OutputShape(1) == std::vector<int>{2 << (3 - start)});
    CHECK(m.Output<float>(2) == std::vector<float>{f, 10 * f, 100 * f});
    CHECK(m.Output<float>(3) == std::vector<float>{1 + n * f, 1 + n * 10 * f, 1 + n * 100 * f});
  }
}

// IF(c, x): then x + x, else x * x (or concat(x, x) when `grow`).
ModelBuilder IfModel(bool grow) {
  ModelBuilder b;
  int c = b.AddTensor(kBool, {1}, "c");
  int x = b.AddTensor(kF32, {2}, "x");
  int y = b.AddTensor(kF32, {2}, "y");
  tflite::IfOptionsT o;
  o.then_subgraph_index = 1;
  o.else_subgraph_index = 2;
  b.AddOperator(tflite::BuiltinOperator_IF, {c, x}, {y}, Options(o));
  b.SetInputs({c, x});
  b.SetOutputs({y});
  b.UseSubgraph(b.AddSubgraph("then"));
  int tx = b.AddTensor(kF32, {2});
  int ty = b.AddTensor(kF32, {2});
  b.AddOperator(tflite::BuiltinOperator_ADD, {tx, tx}, {ty}, AddOpts());
  b.SetInputs({tx});
  b.SetOutputs({ty});
  b.UseSubgraph(b.AddSubgraph("else"));
  int ex = b.AddTensor(kF32, {2});
  int ey = b.AddTensor(kF32, {grow ? 4 : 2});
  if (grow) {
    tflite::ConcatenationOptionsT concat;
    concat.axis = 0;
    b.AddOperator(tflite::BuiltinOperator_CONCATENATION, {ex, ex}, {ey}, Options(concat));
  } else {
    b.AddOperator(tflite::BuiltinOperator_MUL, {ex, ex}, {ey}, Options(tflite::MulOptionsT()));
  }
  b.SetInputs({ex});
  b.SetOutputs({ey});
  b.UseSubgraph(0);
  return b;
}

TEST_CASE("IF: chooses between two subgraphs", "[control_flow]") {
  OpTestModel m(IfModel(false));
  REQUIRE(m.Prepare() == kTfLiteOk);
  SetBool(m, 0, true);
  m.SetInput<float>(1, {3, -4});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{6, -8});
  SetBool(m, 0, false);
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.Output<float>(0) == std::vector<float>{9, 16});
}

TEST_CASE("IF: branches with different output shapes give a dynamic output", "[control_flow]") {
  OpTestModel m(IfModel(true));
  REQUIRE(m.Prepare() == kTfLiteOk);
  SetBool(m, 0, false);
  m.SetInput<float>(1, {1, 2});
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{4});
  CHECK(m.Output<float>(0) == std::vector<float>{1, 2, 1, 2});
  SetBool(m, 0, true);
  REQUIRE(m.Invoke() == kTfLiteOk);
  CHECK(m.OutputShape(0) == std::vector<int>{2});
  CHECK(m.Output<float>(0) == std::vector<float>{2, 4});
}

// Counts operator invocations per subgraph.
class CountingProfiler : public tflite::Profiler {
 public:
  uint32_t BeginEvent(const char*, EventType type, int64_t, int64_t subgraph) override {
    if (type == EventType::OPERATOR_INVOKE_EVENT) ++ops[static_cast<int>(subgraph)];
    return 0;
  }
  void EndEvent(uint32_t) override {}
  std::map<int, int> ops;
};

// CALL_ONCE(init) then y = x + x; the init subgraph adds two constants.
ModelBuilder CallOnceModel(int init_index, bool init_has_input) {
  ModelBuilder b;
  int x = b.AddTensor(kF32, {1}, "x");
  int y = b.AddTensor(kF32, {1}, "y");
  tflite::CallOnceOptionsT o;
  o.init_subgraph_index = init_index;
  b.AddOperator(tflite::BuiltinOperator_CALL_ONCE, {}, {}, Options(o));
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {y}, AddOpts());
  b.SetInputs({x});
  b.SetOutputs({y});
  b.UseSubgraph(b.AddSubgraph("init"));
  // Without inputs, the init subgraph reads state (a variable: nothing else may be read
  // without a writer).
  int a = init_has_input ? b.AddTensor(kF32, {1}) : b.AddVariableTensor(kF32, {1}, "state");
  int k = b.AddConstTensor<float>(kF32, {1}, {2.f});
  int s = b.AddTensor(kF32, {1});
  b.AddOperator(tflite::BuiltinOperator_ADD, {a, k}, {s}, AddOpts());
  if (init_has_input) b.SetInputs({a});
  b.UseSubgraph(0);
  return b;
}

TEST_CASE("CALL_ONCE: runs its init subgraph on the first Invoke only", "[control_flow]") {
  OpTestModel m(CallOnceModel(1, false));
  CountingProfiler profiler;
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.interpreter().SetProfiler(&profiler);
  for (int call = 0; call < 3; ++call) {
    m.SetInput<float>(0, {float(call)});
    REQUIRE(m.Invoke() == kTfLiteOk);
    CHECK(m.Output<float>(0) == std::vector<float>{2.f * call});
  }
  CHECK(profiler.ops[1] == 1);  // the init subgraph's ADD ran once
  CHECK(profiler.ops[0] == 3 + 3);
}

TEST_CASE("Control flow: bad models fail to prepare with a message", "[control_flow]") {
  SECTION("CALL_ONCE with an out-of-range subgraph") {
    OpTestModel m(CallOnceModel(7, false));
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("init_subgraph_index is 7"));
  }
  SECTION("CALL_ONCE naming its own subgraph") {
    // Refused by the loader's call-cycle check before the kernel sees it.
    OpTestModel m(CallOnceModel(0, false));
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("subgraph 0 calls itself"));
  }
  SECTION("CALL_ONCE init subgraph with inputs") {
    OpTestModel m(CallOnceModel(1, true));
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("CALL_ONCE"));
  }
  SECTION("IF condition that is not bool") {
    ModelBuilder b = IfModel(false);
    b.subgraph(0).tensors[0]->type = kI32;
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("failed to prepare"));
  }
  SECTION("IF branch with a different input count") {
    ModelBuilder b = IfModel(false);
    b.UseSubgraph(1);
    b.subgraph(1).inputs.push_back(b.AddTensor(kF32, {1}, "extra"));
    b.UseSubgraph(0);
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("IF input"));
  }
  SECTION("WHILE loop variable types differ from the body's") {
    ModelBuilder b = CountingWhile();
    b.subgraph(2).tensors[2]->type = kI32;  // body's acc
    OpTestModel m(b);
    CHECK(m.Prepare() != kTfLiteOk);
    CHECK_THAT(m.errors(), Catch::Contains("WHILE body input 2"));
  }
}

TEST_CASE("WHILE: the tools' iteration cap stops a loop that would not end", "[control_flow]") {
  OpTestModel m(CountingWhile());
  REQUIRE(m.Prepare() == kTfLiteOk);
  m.interpreter().SetMaxWhileIterations(10);
  m.SetInput<int32_t>(0, {0});
  m.SetInput<int32_t>(1, {10});  // exactly 10 iterations: allowed
  m.SetInput<float>(2, {1.f});
  REQUIRE(m.Invoke() == kTfLiteOk);
  m.SetInput<int32_t>(0, {0});
  m.SetInput<int32_t>(1, {1 << 30});  // as good as endless
  CHECK(m.Invoke() == kTfLiteError);
  CHECK_THAT(m.errors(), Catch::Contains("WHILE (cond subgraph 1, body subgraph 2): still running "
                                         "after 10 iterations, the iteration cap"));
}

}  // namespace
}  // namespace tflite_inspect
