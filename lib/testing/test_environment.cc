// Linked into every test binary (tfi_add_test): expected outputs (goldens, delegate logs)
// must not depend on the CPU the tests run on, so the XNNPACK delegate's CPU-dependent
// choice of its own GEMM (delegates/xnnpack/conv_f32.h) is pinned off unless the
// environment already says otherwise; the tests of that path pin it on themselves.
#include <cstdlib>

namespace {
const bool kPinned = [] {
  setenv("TFI_XNNPACK_OWN_GEMM", "0", /*overwrite=*/0);
  return true;
}();
}  // namespace
