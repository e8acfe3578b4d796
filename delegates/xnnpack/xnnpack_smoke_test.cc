// Proves that Debian's XNNPACK links and runs here: a one-node subgraph (add2) built,
// set up and invoked through the subgraph API the delegate will use.
#include <xnnpack.h>

#include <array>
#include <limits>

#include "catch2/catch.hpp"

TEST_CASE("XNNPACK subgraph add2 runs") {
  REQUIRE(xnn_initialize(nullptr) == xnn_status_success);
  xnn_subgraph_t subgraph = nullptr;
  REQUIRE(xnn_create_subgraph(3, 0, &subgraph) == xnn_status_success);
  const size_t dims[2] = {1, 4};
  uint32_t a = XNN_INVALID_VALUE_ID, b = XNN_INVALID_VALUE_ID, c = XNN_INVALID_VALUE_ID;
  REQUIRE(xnn_define_tensor_value(subgraph, xnn_datatype_fp32, 2, dims, nullptr, 0,
                                  XNN_VALUE_FLAG_EXTERNAL_INPUT, &a) == xnn_status_success);
  REQUIRE(xnn_define_tensor_value(subgraph, xnn_datatype_fp32, 2, dims, nullptr, 1,
                                  XNN_VALUE_FLAG_EXTERNAL_INPUT, &b) == xnn_status_success);
  REQUIRE(xnn_define_tensor_value(subgraph, xnn_datatype_fp32, 2, dims, nullptr, 2,
                                  XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &c) == xnn_status_success);
  const float inf = std::numeric_limits<float>::infinity();
  REQUIRE(xnn_define_add2(subgraph, -inf, inf, a, b, c, 0) == xnn_status_success);
  xnn_runtime_t runtime = nullptr;
  REQUIRE(xnn_create_runtime_v2(subgraph, nullptr, 0, &runtime) == xnn_status_success);
  // Inputs carry XNN_EXTRA_BYTES of slack, as XNNPACK may read past the end.
  std::array<float, 8> x{1, 2, 3, 4}, y{10, 20, 30, 40};
  std::array<float, 4> z{};
  const xnn_external_value values[3] = {{0, x.data()}, {1, y.data()}, {2, z.data()}};
  REQUIRE(xnn_setup_runtime(runtime, 3, values) == xnn_status_success);
  REQUIRE(xnn_invoke_runtime(runtime) == xnn_status_success);
  CHECK(z == std::array<float, 4>{11, 22, 33, 44});
  xnn_delete_runtime(runtime);
  xnn_delete_subgraph(subgraph);
}
