#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "kernels/testing/op_test_util.h"

namespace tflite_inspect {
namespace {

std::unique_ptr<tflite::DimensionMetadataT> Dense(int32_t size) {
  auto d = std::make_unique<tflite::DimensionMetadataT>();
  d->format = tflite::DimensionType_DENSE;
  d->dense_size = size;
  return d;
}

// CSR level; uint8 index vectors when `narrow` (the loader widens them).
std::unique_ptr<tflite::DimensionMetadataT> Csr(const std::vector<int32_t>& segments,
                                                const std::vector<int32_t>& indices,
                                                bool narrow = false) {
  auto d = std::make_unique<tflite::DimensionMetadataT>();
  d->format = tflite::DimensionType_SPARSE_CSR;
  if (narrow) {
    tflite::Uint8VectorT s, i;
    s.values.assign(segments.begin(), segments.end());
    i.values.assign(indices.begin(), indices.end());
    d->array_segments.Set(std::move(s));
    d->array_indices.Set(std::move(i));
  } else {
    tflite::Int32VectorT s, i;
    s.values = segments;
    i.values = indices;
    d->array_segments.Set(std::move(s));
    d->array_indices.Set(std::move(i));
  }
  return d;
}

struct Sparse {
  std::vector<int32_t> traversal_order;
  std::vector<int32_t> block_map;
  std::vector<std::unique_ptr<tflite::DimensionMetadataT>> dims;
};

// DENSIFY of a constant sparse tensor; returns the dense output.
template <typename T>
std::vector<T> Densify(tflite::TensorType type, const std::vector<int32_t>& shape,
                       const std::vector<T>& values, Sparse sparse, std::string* errors = nullptr) {
  ModelBuilder b;
  const int in = b.AddConstTensor<T>(type, shape, values, "sparse");
  auto sp = std::make_unique<tflite::SparsityParametersT>();
  sp->traversal_order = sparse.traversal_order;
  sp->block_map = sparse.block_map;
  sp->dim_metadata = std::move(sparse.dims);
  b.subgraph(0).tensors[in]->sparsity = std::move(sp);
  const int out = b.AddTensor(type, shape, "dense");
  b.AddOperator(tflite::BuiltinOperator_DENSIFY, {in}, {out});
  b.SetOutputs({out});
  OpTestModel m(b);
  if (m.Prepare() != kTfLiteOk || m.Invoke() != kTfLiteOk) {
    if (errors != nullptr) *errors = m.errors();
    return {};
  }
  CHECK(m.OutputShape(0) == std::vector<int>(shape.begin(), shape.end()));
  return m.Output<T>(0);
}

// The 4x4 matrix used below: rows {1,0,0,2}, {0,3,0,0}, {0,0,0,0}, {4,0,5,0}.
const std::vector<float> kCsrDense = {1, 0, 0, 2, 0, 3, 0, 0, 0, 0, 0, 0, 4, 0, 5, 0};

TEST_CASE("DENSIFY CSR float32 (row-major)") {
  Sparse s;
  s.traversal_order = {0, 1};
  s.dims.push_back(Dense(4));
  s.dims.push_back(Csr({0, 2, 3, 3, 5}, {0, 3, 1, 0, 2}));
  CHECK(Densify<float>(tflite::TensorType_FLOAT32, {4, 4}, {1, 2, 3, 4, 5}, std::move(s)) ==
        kCsrDense);
}

TEST_CASE("DENSIFY CSC (traversal order 1, 0) with uint8 indices") {
  Sparse s;
  s.traversal_order = {1, 0};
  s.dims.push_back(Dense(4));
  s.dims.push_back(Csr({0, 2, 3, 4, 5}, {0, 3, 1, 3, 0}, /*narrow=*/true));
  CHECK(Densify<float>(tflite::TensorType_FLOAT32, {4, 4}, {1, 4, 3, 5, 2}, std::move(s)) ==
        kCsrDense);
}

TEST_CASE("DENSIFY 2x2 block-sparse int8") {
  // Block (0,0) = {1,2,3,4}, block (1,1) = {5,6,7,8}.
  Sparse s;
  s.traversal_order = {0, 1, 2, 3};
  s.block_map = {0, 1};
  s.dims.push_back(Dense(2));
  s.dims.push_back(Csr({0, 1, 2}, {0, 1}));
  s.dims.push_back(Dense(2));
  s.dims.push_back(Dense(2));
  CHECK(Densify<int8_t>(tflite::TensorType_INT8, {4, 4}, {1, 2, 3, 4, 5, 6, 7, 8}, std::move(s)) ==
        std::vector<int8_t>{1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 5, 6, 0, 0, 7, 8});
}

TEST_CASE("DENSIFY float16 keeps the bits, an all-dense layout copies") {
  Sparse s;
  s.traversal_order = {0, 1};
  s.dims.push_back(Dense(2));
  s.dims.push_back(Csr({0, 1, 2}, {1, 0}));
  CHECK(Densify<uint16_t>(tflite::TensorType_FLOAT16, {2, 2}, {0x3C00, 0xC100}, std::move(s)) ==
        std::vector<uint16_t>{0, 0x3C00, 0xC100, 0});
  Sparse d;
  d.traversal_order = {0, 1, 2};
  d.dims.push_back(Dense(2));
  d.dims.push_back(Dense(1));
  d.dims.push_back(Dense(3));
  CHECK(Densify<float>(tflite::TensorType_FLOAT32, {2, 1, 3}, {1, 2, 3, 4, 5, 6}, std::move(d)) ==
        std::vector<float>{1, 2, 3, 4, 5, 6});
}

// Independent encoder: a dense R x C matrix as block-CSR with br x bc blocks (a block is
// stored when any of its elements is non-zero), as TFLite's converter lays it out.
Sparse EncodeBlockCsr(const std::vector<float>& dense, int rows, int cols, int br, int bc,
                      std::vector<float>* values) {
  const int brows = rows / br, bcols = cols / bc;
  std::vector<int32_t> segments = {0}, indices;
  for (int i = 0; i < brows; ++i) {
    for (int j = 0; j < bcols; ++j) {
      bool any = false;
      for (int y = 0; y < br; ++y)
        for (int x = 0; x < bc; ++x) any |= dense[(i * br + y) * cols + j * bc + x] != 0;
      if (!any) continue;
      indices.push_back(j);
      for (int y = 0; y < br; ++y)
        for (int x = 0; x < bc; ++x) values->push_back(dense[(i * br + y) * cols + j * bc + x]);
    }
    segments.push_back(static_cast<int32_t>(indices.size()));
  }
  Sparse s;
  s.dims.push_back(Dense(brows));
  s.dims.push_back(Csr(segments, indices));
  if (br == 1 && bc == 1) {
    s.traversal_order = {0, 1};
  } else {
    s.traversal_order = {0, 1, 2, 3};
    s.block_map = {0, 1};
    s.dims.push_back(Dense(br));
    s.dims.push_back(Dense(bc));
  }
  return s;
}

TEST_CASE("DENSIFY random block-CSR matrices round-trip") {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const int br = 1 + static_cast<int>(rng() % 2), bc = 1 + static_cast<int>(rng() % 4);
    const int rows = br * (1 + static_cast<int>(rng() % 6));
    const int cols = bc * (1 + static_cast<int>(rng() % 6));
    std::vector<float> dense(rows * cols, 0.f);
    std::uniform_real_distribution<float> value(-4.f, 4.f);
    for (auto& v : dense) {
      if (rng() % 3 == 0) v = value(rng);
    }
    std::vector<float> values;
    Sparse s = EncodeBlockCsr(dense, rows, cols, br, bc, &values);
    if (values.empty()) continue;  // an all-zero matrix has no buffer to be constant
    CHECK(Densify<float>(tflite::TensorType_FLOAT32, {rows, cols}, values, std::move(s)) == dense);
  }
}

TEST_CASE("DENSIFY rejects bad models") {
  SECTION("non-constant input") {
    ModelBuilder b;
    const int in = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "in");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "out");
    b.AddOperator(tflite::BuiltinOperator_DENSIFY, {in}, {out});
    b.SetInputs({in});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("must be constant") != std::string::npos);
  }
  SECTION("constant without sparsity") {
    ModelBuilder b;
    const int in = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {2}, {1, 2}, "in");
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "out");
    b.AddOperator(tflite::BuiltinOperator_DENSIFY, {in}, {out});
    b.SetOutputs({out});
    OpTestModel m(b);
    CHECK(m.Prepare() == kTfLiteError);
    CHECK(m.errors().find("no sparsity") != std::string::npos);
  }
  SECTION("int32 values") {
    Sparse s;
    s.traversal_order = {0};
    s.dims.push_back(Csr({0, 1}, {1}));
    std::string errors;
    CHECK(Densify<int32_t>(tflite::TensorType_INT32, {2}, {7}, std::move(s), &errors).empty());
    CHECK(errors.find("Type INT32 (2) not supported.") != std::string::npos);
  }
}

}  // namespace
}  // namespace tflite_inspect
