// The C structs and helpers that TFLite kernels and delegates are written
// against: tensors, nodes, the context, registrations, delegates and the
// TF_LITE_ENSURE family of macros. Source-compatible rewrite of upstream
// tensorflow/lite/core/c/common.h; users include "tensorflow/lite/c/common.h".
//
// Contract: struct members keep upstream's names, types and order (kernels and
// delegates built for TFLite index into them); new members only ever go last.
// Ownership: arrays returned by *Create/*Copy are malloc'ed and freed with the
// matching *Free. Nothing here is thread-safe; a context belongs to one
// interpreter and is used from one thread at a time.
//
// Not provided: the TF_LITE_STATIC_MEMORY (TFLite Micro) layouts, the
// _WIN32-only context members, the opaque-delegate builder functions.
#ifndef TENSORFLOW_LITE_CORE_C_COMMON_H_
#define TENSORFLOW_LITE_CORE_C_COMMON_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensorflow/lite/core/c/c_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

// Kinds of external (non-TFLite) state that ops may share through the context.
typedef enum TfLiteExternalContextType {
  kTfLiteEigenContext = 0,
  kTfLiteGemmLowpContext = 1,
  kTfLiteEdgeTpuContext = 2,
  kTfLiteCpuBackendContext = 3,
  kTfLiteLiteRtBufferContext = 4,
  kTfLiteMaxExternalContexts = 5
} TfLiteExternalContextType;

struct TfLiteContext;
struct TfLiteDelegate;
struct TfLiteRegistration;
struct TfLiteOpaqueDelegateBuilder;

// External state registered on a context; Refresh is called when settings
// such as the thread count change.
typedef struct TfLiteExternalContext {
  TfLiteExternalContextType type;
  TfLiteStatus (*Refresh)(struct TfLiteContext* context);
} TfLiteExternalContext;

// Tensor index that marks an omitted optional input.
#define kTfLiteOptionalTensor (-1)

// Length-prefixed int array (shapes, tensor index lists). `data` is a
// flexible array member; allocate with TfLiteIntArrayCreate.
typedef struct TfLiteIntArray {
  int size;
#if defined(_MSC_VER)
  int data[1];
#else
  int data[];
#endif
} TfLiteIntArray;

// Bytes needed for a TfLiteIntArray of `size` elements.
size_t TfLiteIntArrayGetSizeInBytes(int size);
// New array of `size` uninitialized entries; NULL on failure or size < 0.
TfLiteIntArray* TfLiteIntArrayCreate(int size);
// 1 if both arrays have equal size and contents (two NULLs are equal), else 0.
int TfLiteIntArrayEqual(const TfLiteIntArray* a, const TfLiteIntArray* b);
// 1 if `a` holds exactly b_data[0..b_size), else 0 (NULL equals an empty one).
int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a, int b_size,
                              const int b_data[]);
// Deep copy; NULL in gives NULL out. Free with TfLiteIntArrayFree.
TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src);
// Frees an array from Create/Copy; NULL is a no-op.
void TfLiteIntArrayFree(TfLiteIntArray* a);

// Length-prefixed float array (per-channel quantization scales).
typedef struct TfLiteFloatArray {
  int size;
#if defined(_MSC_VER)
  float data[1];
#else
  float data[];
#endif
} TfLiteFloatArray;

int TfLiteFloatArrayGetSizeInBytes(int size);
TfLiteFloatArray* TfLiteFloatArrayCreate(int size);
TfLiteFloatArray* TfLiteFloatArrayCopy(const TfLiteFloatArray* src);
void TfLiteFloatArrayFree(TfLiteFloatArray* a);

// --- Error reporting and early-return macros --------------------------------
// All reporting goes through TF_LITE_KERNEL_LOG so that a size-constrained
// build can strip the strings (TF_LITE_STRIP_ERROR_STRINGS).
#ifndef TF_LITE_STRIP_ERROR_STRINGS
#define TF_LITE_KERNEL_LOG(context, ...)            \
  do {                                              \
    (context)->ReportError((context), __VA_ARGS__); \
  } while (false)

#define TF_LITE_MAYBE_KERNEL_LOG(context, ...)        \
  do {                                                \
    if ((context) != nullptr) {                       \
      (context)->ReportError((context), __VA_ARGS__); \
    }                                                 \
  } while (false)
#else
#define ARGS_UNUSED(...) (void)sizeof(#__VA_ARGS__)
#define TF_LITE_KERNEL_LOG(context, ...) ARGS_UNUSED(__VA_ARGS__)
#define TF_LITE_MAYBE_KERNEL_LOG(context, ...) ARGS_UNUSED(__VA_ARGS__)
#endif

// Returns kTfLiteError, logging `__FILE__ " " msg...`, unless `value` holds.
#define TF_LITE_ENSURE_MSG(context, value, ...)                \
  do {                                                         \
    if (!(value)) {                                            \
      TF_LITE_KERNEL_LOG((context), __FILE__ " " __VA_ARGS__); \
      return kTfLiteError;                                     \
    }                                                          \
  } while (0)

// Returns kTfLiteError, logging file, line and the expression, unless `a`.
#define TF_LITE_ENSURE(context, a)                                      \
  do {                                                                  \
    if (!(a)) {                                                         \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s was not true.", __FILE__, \
                         __LINE__, #a);                                 \
      return kTfLiteError;                                              \
    }                                                                   \
  } while (0)

// Propagates a non-ok status unchanged (no logging).
#define TF_LITE_ENSURE_STATUS(a) \
  do {                           \
    const TfLiteStatus s = (a);  \
    if (s != kTfLiteOk) {        \
      return s;                  \
    }                            \
  } while (0)

// Returns kTfLiteError unless a == b; logs both values with %d, so use it for
// int-like operands only (TF_LITE_ENSURE_TYPES_EQ for TfLiteType). Operands
// may be evaluated twice.
#define TF_LITE_ENSURE_EQ(context, a, b)                                   \
  do {                                                                     \
    if ((a) != (b)) {                                                      \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s != %s (%d != %d)", __FILE__, \
                         __LINE__, #a, #b, (a), (b));                      \
      return kTfLiteError;                                                 \
    }                                                                      \
  } while (0)

#define TF_LITE_ENSURE_TYPES_EQ(context, a, b)                             \
  do {                                                                     \
    if ((a) != (b)) {                                                      \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s != %s (%s != %s)", __FILE__, \
                         __LINE__, #a, #b, TfLiteTypeGetName(a),           \
                         TfLiteTypeGetName(b));                            \
      return kTfLiteError;                                                 \
    }                                                                      \
  } while (0)

// Returns kTfLiteError unless |a - b| <= epsilon (C++ only: uses auto).
#define TF_LITE_ENSURE_NEAR(context, a, b, epsilon)                          \
  do {                                                                       \
    auto delta = ((a) > (b)) ? ((a) - (b)) : ((b) - (a));                    \
    if (delta > epsilon) {                                                   \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s not near %s (%f != %f)",       \
                         __FILE__, __LINE__, #a, #b, static_cast<double>(a), \
                         static_cast<double>(b));                            \
      return kTfLiteError;                                                   \
    }                                                                        \
  } while (0)

// Propagates a non-ok `status`; an optional printf-style message after it is
// logged (prefixed with file:line) only on failure.
#ifndef TF_LITE_STRIP_ERROR_STRINGS
#define TF_LITE_VAR_ARG_HEAD(FIRST, ...) FIRST
#define TF_LITE_STRINGIFY_HELPER(x) #x
#define TF_LITE_STRINGIFY(x) TF_LITE_STRINGIFY_HELPER(x)
#define TF_LITE_ENSURE_OK(context, status, ...)                             \
  do {                                                                      \
    const TfLiteStatus s = (status);                                        \
    if (s != kTfLiteOk) {                                                   \
      if (sizeof(TF_LITE_VAR_ARG_HEAD("" __VA_ARGS__)) > sizeof("")) {      \
        TF_LITE_MAYBE_KERNEL_LOG(                                           \
            (context),                                                      \
            __FILE__ ":" TF_LITE_STRINGIFY(__LINE__) ": " __VA_ARGS__);     \
      }                                                                     \
      return s;                                                             \
    }                                                                       \
  } while (0)
#else
#define TF_LITE_ENSURE_OK(context, status, ...) \
  do {                                          \
    const TfLiteStatus s = (status);            \
    if (s != kTfLiteOk) {                       \
      return s;                                 \
    }                                           \
  } while (0)
#endif

#if defined(__GNUC__)
#define TFL_UNREACHABLE() (__builtin_unreachable())
#elif defined(_MSC_VER)
#define TFL_UNREACHABLE() (__assume(false))
#endif

// --- Scalar element types without a C equivalent ------------------------------
typedef struct TfLiteComplex64 {
  float re, im;
} TfLiteComplex64;

typedef struct TfLiteComplex128 {
  double re, im;
} TfLiteComplex128;

// IEEE half, raw bits.
typedef struct TfLiteFloat16 {
  uint16_t data;
} TfLiteFloat16;

// bfloat16 (1 sign, 8 exponent, 7 mantissa bits), raw bits.
typedef struct TfLiteBFloat16 {
  uint16_t data;
} TfLiteBFloat16;

// Upper-case type name for messages ("FLOAT32"); "Unknown type" otherwise.
// The returned string is static.
const char* TfLiteTypeGetName(TfLiteType type);

// --- Quantization -------------------------------------------------------------
#ifdef __cplusplus
typedef enum TfLiteQuantizationType : int {
#else
typedef enum TfLiteQuantizationType {
#endif
  kTfLiteNoQuantization = 0,
  kTfLiteAffineQuantization = 1,     // params: TfLiteAffineQuantization*
  kTfLiteBlockwiseQuantization = 2,  // params: TfLiteBlockwiseQuantization*
  kTfLiteMultiAxisQuantization = 3,  // params: TfLiteMultiAxisQuantization*
} TfLiteQuantizationType;

// Tagged quantization description; `params` is owned by the tensor and its
// type depends on `type`.
typedef struct TfLiteQuantization {
  TfLiteQuantizationType type;
  void* params;
} TfLiteQuantization;

// Per-tensor (scale->size == 1) or per-channel affine quantization along
// `quantized_dimension`: real = scale[c] * (q - zero_point[c]).
typedef struct TfLiteAffineQuantization {
  TfLiteFloatArray* scale;
  TfLiteIntArray* zero_point;
  int32_t quantized_dimension;
} TfLiteAffineQuantization;

// Blockwise quantization; scale / zero_point are tensor indices.
typedef struct TfLiteBlockwiseQuantization {
  int32_t scale;
  int32_t zero_point;
  int32_t blocksize;
  int32_t quantized_dimension;
} TfLiteBlockwiseQuantization;

// Multi-axis quantization; scales / zero_points are tensor indices
// (zero_points == -1 means all zero), blocksize 0 means per-channel.
typedef struct TfLiteMultiAxisQuantization {
  int32_t scales;
  int32_t zero_points;
  int32_t blocksize;
  TfLiteIntArray* quantized_dimensions;
} TfLiteMultiAxisQuantization;

// Typed views of a tensor's buffer. Prefer GetTensorData<T>() or `.data`.
typedef union TfLitePtrUnion {
  int32_t* i32;
  uint32_t* u32;
  int64_t* i64;
  uint64_t* u64;
  float* f;
  TfLiteFloat16* f16;
  TfLiteBFloat16* bf16;
  double* f64;
  char* raw;
  const char* raw_const;
  uint8_t* uint8;
  bool* b;
  int16_t* i16;
  uint16_t* ui16;
  TfLiteComplex64* c64;
  TfLiteComplex128* c128;
  int8_t* int8;
  void* data;
} TfLitePtrUnion;

// Who owns a tensor's buffer and for how long it is valid:
//  MmapRo: read-only, external (weights); ArenaRw: arena, valid during eval;
//  ArenaRwPersistent: arena, kept across evals; Dynamic: malloc'ed, resized
//  during eval; PersistentRo: malloc'ed and filled in Prepare; Custom: user
//  buffer; VariantObject: a C++ VariantData made with new; NonCpu: not CPU
//  memory (never touched by CPU code).
typedef enum TfLiteAllocationType {
  kTfLiteMemNone = 0,
  kTfLiteMmapRo,
  kTfLiteArenaRw,
  kTfLiteArenaRwPersistent,
  kTfLiteDynamic,
  kTfLitePersistentRo,
  kTfLiteCustom,
  kTfLiteVariantObject,
  kTfLiteNonCpu,
} TfLiteAllocationType;

// How a tensor's buffer was allocated (derived from TfLiteAllocationType).
typedef enum TfLiteAllocationStrategy {
  kTfLiteAllocationStrategyUnknown,
  kTfLiteAllocationStrategyNone,
  kTfLiteAllocationStrategyMMap,
  kTfLiteAllocationStrategyArena,
  kTfLiteAllocationStrategyMalloc,
  kTfLiteAllocationStrategyNew
} TfLiteAllocationStrategy;

// How long a tensor property stays the same.
typedef enum TfLiteRunStability {
  kTfLiteRunStabilityUnknown,
  kTfLiteRunStabilityUnstable,
  kTfLiteRunStabilitySingleRun,
  kTfLiteRunStabilityAcrossRuns
} TfLiteRunStability;

// Steps of an op's life cycle.
typedef enum TfLiteRunStep {
  kTfLiteRunStepUnknown,
  kTfLiteRunStepInit,
  kTfLiteRunStepPrepare,
  kTfLiteRunStepEval
} TfLiteRunStep;

// Delegate-owned buffer id; delegates use values >= 0.
typedef int TfLiteBufferHandle;
enum {
  kTfLiteNullBufferHandle = -1,
};

// One dimension of a sparse tensor (see SparsityParameters in schema.fbs).
typedef struct TfLiteDimensionMetadata {
  TfLiteDimensionType format;
  int dense_size;
  TfLiteIntArray* array_segments;
  TfLiteIntArray* array_indices;
} TfLiteDimensionMetadata;

typedef struct TfLiteSparsity {
  TfLiteIntArray* traversal_order;
  TfLiteIntArray* block_map;
  TfLiteDimensionMetadata* dim_metadata;
  int dim_metadata_size;
} TfLiteSparsity;

// A user-provided buffer for a tensor (not owned by the runtime).
typedef struct TfLiteCustomAllocation {
  void* data;
  size_t bytes;
} TfLiteCustomAllocation;

typedef enum TfLiteCustomAllocationFlags {
  kTfLiteCustomAllocationFlagsNone = 0,
  kTfLiteCustomAllocationFlagsSkipAlignCheck = 1,
} TfLiteCustomAllocationFlags;

// --- Tensors and nodes --------------------------------------------------------
// A typed n-d buffer. `dims` is owned by the tensor (TfLiteIntArray); `bytes`
// equals element size times the product of dims. `quantization` supersedes
// `params`; `sparsity` and `dims_signature` are optional (NULL).
typedef struct TfLiteTensor {
  TfLiteType type;
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  TfLiteQuantizationParams params;
  TfLiteAllocationType allocation_type;
  size_t bytes;
  const void* allocation;  // opaque (e.g. the model's mmap allocation)
  const char* name;        // NUL-terminated, may be NULL
  struct TfLiteDelegate* delegate;  // knows how to read `buffer_handle`
  TfLiteBufferHandle buffer_handle;
  bool data_is_stale;  // set by a delegate whose buffer is newer than `data`
  bool is_variable;
  TfLiteQuantization quantization;
  TfLiteSparsity* sparsity;
  // Shape with -1 for unknown dimensions; NULL or empty when all are known.
  const TfLiteIntArray* dims_signature;
} TfLiteTensor;

// One op instance: tensor index lists plus the op's private data.
typedef struct TfLiteNode {
  TfLiteIntArray* inputs;         // may contain kTfLiteOptionalTensor
  TfLiteIntArray* outputs;
  TfLiteIntArray* intermediates;
  TfLiteIntArray* temporaries;    // scratch tensors added by the kernel
  void* user_data;                // returned by TfLiteRegistration::init
  void* builtin_data;             // a TfLite*Params struct for builtins
  const void* custom_initial_data;  // custom op options from the model
  int custom_initial_data_size;
  struct TfLiteDelegate* delegate;  // set for nodes that replace a subgraph
  bool might_have_side_effect;      // e.g. stateful ops
} TfLiteNode;

// Minimal tensor view used by TFLite Micro style kernels during eval.
typedef struct TfLiteEvalTensor {
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  TfLiteType type;
} TfLiteEvalTensor;

// Frees the tensor's buffer if it owns one (kTfLiteDynamic, kTfLitePersistentRo,
// kTfLiteVariantObject) and sets data to NULL.
void TfLiteTensorDataFree(TfLiteTensor* t);
// Frees quantization params and resets to kTfLiteNoQuantization.
void TfLiteQuantizationFree(TfLiteQuantization* quantization);
// Frees `sparsity` and everything it owns; NULL is a no-op.
void TfLiteSparsityFree(TfLiteSparsity* sparsity);
// Frees data (if owned), dims, dims_signature, quantization and sparsity.
void TfLiteTensorFree(TfLiteTensor* t);
// TfLiteTensorFree(tensor), then sets the given fields; takes ownership of
// `dims`; `buffer` is owned only if allocation_type says so.
void TfLiteTensorReset(TfLiteType type, const char* name, TfLiteIntArray* dims,
                       TfLiteQuantizationParams quantization, char* buffer,
                       size_t size, TfLiteAllocationType allocation_type,
                       const void* allocation, bool is_variable,
                       TfLiteTensor* tensor);
// Copies type, dims and data (and the delegate buffer fields) from src to
// dst. Ok (no-op) if either is NULL; kTfLiteError if `bytes` differ. Does not
// reallocate dst's buffer or change its allocation type.
TfLiteStatus TfLiteTensorCopy(const TfLiteTensor* src, TfLiteTensor* dst);
// Returns a deep copy of src (owned buffers, dims, quantization, sparsity).
TfLiteTensor TfLiteTensorClone(TfLiteTensor src);
// Resizes the buffer of a kTfLiteDynamic / kTfLitePersistentRo tensor to
// `num_bytes` (other tensors: no-op, kTfLiteOk), keeping the data if
// `preserve_data`. kTfLiteError if allocation fails.
TfLiteStatus TfLiteTensorResizeMaybeCopy(size_t num_bytes, TfLiteTensor* tensor,
                                         bool preserve_data);
// TfLiteTensorResizeMaybeCopy(num_bytes, tensor, true).
TfLiteStatus TfLiteTensorRealloc(size_t num_bytes, TfLiteTensor* tensor);
// dims_signature if non-empty, else dims.
const TfLiteIntArray* TfLiteTensorGetDimsSignature(const TfLiteTensor* t);

TfLiteAllocationStrategy TfLiteTensorGetAllocationStrategy(
    const TfLiteTensor* t);
TfLiteRunStability TfLiteTensorGetBufferAddressStability(const TfLiteTensor* t);
TfLiteRunStability TfLiteTensorGetDataStability(const TfLiteTensor* t);
TfLiteRunStep TfLiteTensorGetDataKnownStep(const TfLiteTensor* t);
TfLiteRunStep TfLiteTensorGetShapeKnownStep(const TfLiteTensor* t);

// Node subset handed to one delegate kernel; stored as that node's
// builtin_data, so it must be trivially destructible.
typedef struct TfLiteDelegateParams {
  struct TfLiteDelegate* delegate;
  TfLiteIntArray* nodes_to_replace;
  TfLiteIntArray* input_tensors;
  TfLiteIntArray* output_tensors;
} TfLiteDelegateParams;

// --- Context ------------------------------------------------------------------
// What the runtime gives kernels and delegates: the tensors plus callbacks.
// Memory returned through out-parameters (execution plans, partition previews)
// is owned by the runtime and valid until the next such call.
typedef struct TfLiteContext {
  size_t tensors_size;

  // Node indices in execution order.
  TfLiteStatus (*GetExecutionPlan)(struct TfLiteContext* context,
                                   TfLiteIntArray** execution_plan);

  TfLiteTensor* tensors;  // tensors_size entries

  void* impl_;  // the runtime's private state

  // Resizes `tensor` to `new_size`, taking ownership of new_size.
  TfLiteStatus (*ResizeTensor)(struct TfLiteContext*, TfLiteTensor* tensor,
                               TfLiteIntArray* new_size);
  // printf-style error report.
  void (*ReportError)(struct TfLiteContext*, const char* msg, ...);

  // Appends tensors; *first_new_tensor_index (if non-NULL) gets the first.
  TfLiteStatus (*AddTensors)(struct TfLiteContext*, int tensors_to_add,
                             int* first_new_tensor_index);

  TfLiteStatus (*GetNodeAndRegistration)(
      struct TfLiteContext*, int node_index, TfLiteNode** node,
      struct TfLiteRegistration** registration);

  // Replaces each connected subset of `nodes_to_replace` with one node run by
  // `registration`; does not take ownership of nodes_to_replace.
  TfLiteStatus (*ReplaceNodeSubsetsWithDelegateKernels)(
      struct TfLiteContext*, struct TfLiteRegistration registration,
      const TfLiteIntArray* nodes_to_replace, struct TfLiteDelegate* delegate);

  int recommended_num_threads;

  TfLiteExternalContext* (*GetExternalContext)(struct TfLiteContext*,
                                               TfLiteExternalContextType);
  // Does not take ownership.
  void (*SetExternalContext)(struct TfLiteContext*, TfLiteExternalContextType,
                             TfLiteExternalContext*);

  bool allow_fp32_relax_to_fp16;

  void* profiler;  // tflite::Profiler*, or NULL

  // Buffer living as long as the interpreter (Init/Prepare only); NULL on
  // failure.
  void* (*AllocatePersistentBuffer)(struct TfLiteContext* ctx, size_t bytes);
  // Buffer freed right after the current invoke (Eval only).
  TfLiteStatus (*AllocateBufferForEval)(struct TfLiteContext* ctx, size_t bytes,
                                        void** ptr);
  // Prepare: reserve an arena scratch buffer; Eval: fetch it by index.
  TfLiteStatus (*RequestScratchBufferInArena)(struct TfLiteContext* ctx,
                                              size_t bytes, int* buffer_idx);
  void* (*GetScratchBuffer)(struct TfLiteContext* ctx, int buffer_idx);

  // Like ResizeTensor but copies `shape`; the caller keeps ownership.
  TfLiteStatus (*ResizeTensorExplicit)(struct TfLiteContext* ctx,
                                       TfLiteTensor* tensor, int dims,
                                       const int* shape);

  // Partitions `nodes_to_replace` as ReplaceNodeSubsetsWithDelegateKernels
  // would, without changing the graph.
  TfLiteStatus (*PreviewDelegatePartitioning)(
      struct TfLiteContext* context, const TfLiteIntArray* nodes_to_replace,
      TfLiteDelegateParams** partition_params_array, int* num_partitions);

  TfLiteTensor* (*GetTensor)(const struct TfLiteContext* context,
                             int tensor_idx);
  TfLiteEvalTensor* (*GetEvalTensor)(const struct TfLiteContext* context,
                                     int tensor_idx);

  // Looks up the model's metadata entry `name`; the data lives as long as
  // the interpreter.
  TfLiteStatus (*GetModelMetadata)(const struct TfLiteContext* context,
                                   const char* name, const char** ptr,
                                   size_t* bytes);

  // Switches a subgraph to its delegate context (pair with Release).
  TfLiteStatus (*AcquireSubgraphContext)(
      struct TfLiteContext* context, int subgraph_index,
      struct TfLiteContext** acquired_context);
  TfLiteStatus (*ReleaseSubgraphContext)(struct TfLiteContext* context,
                                         int subgraph_index);
} TfLiteContext;

// ABI-stable operator description (opaque here).
typedef struct TfLiteOperator TfLiteOperator;
typedef TfLiteOperator TfLiteRegistrationExternal;

// Bits of TfLiteRegistration::inplace_operator: which inputs an op lets the
// runtime share with its outputs.
typedef enum {
  kTfLiteInplaceOpNone = 0,
  kTfLiteInplaceOpDataUnmodified = 1,
  kTfLiteInplaceInputCanBeSharedWithCorrespondingOutput = 2,
  kTfLiteInplaceOpInput0Shared = 4,
  kTfLiteInplaceOpInput1Shared = 8,
  kTfLiteInplaceOpInput2Shared = 16,
  kTfLiteInplaceOpMaxValue = UINT64_MAX,
} TfLiteInPlaceOp;

static const int kTfLiteMaxSharableOpInputs = 3;

// An op implementation (builtin, custom or delegate kernel). Unset callbacks
// are NULL; brace-initialize so future fields are zeroed.
typedef struct TfLiteRegistration {
  // Once per node. Builtins get their TfLite*Params as `buffer` (length 0);
  // custom ops get their options bytes. The result becomes node->user_data.
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  // Releases what init returned.
  void (*free)(TfLiteContext* context, void* buffer);
  // After input shapes change; may resize outputs.
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);
  int32_t builtin_code;     // a TfLiteBuiltinOperator value
  const char* custom_name;  // NULL for builtins
  int version;
  TfLiteOperator* registration_external;
  struct TfLiteAsyncKernel* (*async_kernel)(TfLiteContext* context,
                                            TfLiteNode* node);
  uint64_t inplace_operator;  // TfLiteInPlaceOp bits
} TfLiteRegistration;

// Older prefixes of TfLiteRegistration, kept for binary compatibility.
typedef struct TfLiteRegistration_V3 {
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteContext* context, void* buffer);
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);
  int32_t builtin_code;
  const char* custom_name;
  int version;
  TfLiteOperator* registration_external;
  struct TfLiteAsyncKernel* (*async_kernel)(TfLiteContext* context,
                                            TfLiteNode* node);
} TfLiteRegistration_V3;

typedef struct TfLiteRegistration_V2 {
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteContext* context, void* buffer);
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);
  int32_t builtin_code;
  const char* custom_name;
  int version;
  TfLiteOperator* registration_external;
} TfLiteRegistration_V2;

typedef struct TfLiteRegistration_V1 {
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteContext* context, void* buffer);
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);
  int32_t builtin_code;
  const char* custom_name;
  int version;
} TfLiteRegistration_V1;

// Bits of TfLiteDelegate::flags.
typedef enum TfLiteDelegateFlags {
  kTfLiteDelegateFlagsNone = 0,
  // The delegate handles tensors whose shape is only known at invoke time.
  kTfLiteDelegateFlagsAllowDynamicTensors = 1,
  // Needs AllowDynamicTensors: the runtime propagates shapes to the
  // delegate's non-dynamic I/O tensors before its Prepare.
  kTfLiteDelegateFlagsRequirePropagatedShapes = 2,
  // The delegate reports per-operator profiling events itself.
  kTfLiteDelegateFlagsPerOperatorProfiling = 4,
  // Hint: the whole graph will go to this one delegate.
  kTfLiteDelegateFlagsHintFullyDelegatedToSingleDelegate = 8,
} TfLiteDelegateFlags;

// A backend that takes over subgraphs. Owned by the application; `data_` is
// the delegate's own state.
typedef struct TfLiteDelegate {
  void* data_;
  // Called by ModifyGraphWithDelegate; typically calls
  // context->ReplaceNodeSubsetsWithDelegateKernels.
  TfLiteStatus (*Prepare)(TfLiteContext* context,
                          struct TfLiteDelegate* delegate);
  // Delegate buffer -> tensor->data (may allocate like kTfLiteDynamic).
  TfLiteStatus (*CopyFromBufferHandle)(TfLiteContext* context,
                                       struct TfLiteDelegate* delegate,
                                       TfLiteBufferHandle buffer_handle,
                                       TfLiteTensor* tensor);
  // tensor->data -> delegate buffer; NULL if the delegate has no buffers.
  TfLiteStatus (*CopyToBufferHandle)(TfLiteContext* context,
                                     struct TfLiteDelegate* delegate,
                                     TfLiteBufferHandle buffer_handle,
                                     TfLiteTensor* tensor);
  // Frees the handle (not the underlying resource); may be NULL.
  void (*FreeBufferHandle)(TfLiteContext* context,
                           struct TfLiteDelegate* delegate,
                           TfLiteBufferHandle* handle);
  int64_t flags;  // TfLiteDelegateFlags bits
  // If set, takes precedence over the callbacks above (Prepare must be NULL).
  struct TfLiteOpaqueDelegateBuilder* opaque_delegate_builder;
} TfLiteDelegate;

// A delegate with every field zero / NULL.
TfLiteDelegate TfLiteDelegateCreate(void);

// Sentinel a delegate kernel's init returns to signal failure.
void* TfLiteKernelInitFailed(void);

#ifdef __cplusplus
}  // extern "C"

#include <new>
#include <utility>

// --- Variant tensors (kTfLiteVariantObject) -------------------------------------
// A tensor whose data.data points to a C++ object derived from VariantData.
// Always store it as `static_cast<VariantData*>(derived)`; the runtime
// deletes and copies it only through this interface.
class VariantData {
 public:
  virtual ~VariantData() = default;
  // Copies *this into `maybe_alloc` (same derived type, or NULL to allocate).
  virtual VariantData* CloneTo(VariantData* maybe_alloc) const = 0;
};

// CRTP base implementing CloneTo with ErasedDerived's copy constructor.
template <typename ErasedDerived>
class AbstractVariantData : public VariantData {
 public:
  VariantData* CloneTo(VariantData* maybe_alloc) const override {
    const auto& self = static_cast<const ErasedDerived&>(*this);
    if (maybe_alloc != nullptr) {
      auto* derived = static_cast<ErasedDerived*>(maybe_alloc);
      derived->~ErasedDerived();
      return new (derived) ErasedDerived(self);
    }
    return new ErasedDerived(self);
  }

 protected:
  AbstractVariantData() = default;
  AbstractVariantData(const AbstractVariantData&) = default;
  AbstractVariantData(AbstractVariantData&&) = delete;
};

// (Re)constructs a VariantType in a kTfLiteVariant tensor, reusing its memory
// if it already holds one (which must then be a VariantType).
template <class VariantType, class... VariantArgs>
TfLiteStatus TfLiteTensorVariantRealloc(TfLiteTensor* t,
                                        VariantArgs&&... args) {
  if (t->type != kTfLiteVariant) return kTfLiteError;
  VariantType* made;
  if (t->data.raw != nullptr) {
    static_cast<VariantData*>(t->data.data)->~VariantData();
    made = new (t->data.raw) VariantType(std::forward<VariantArgs>(args)...);
  } else {
    made = new VariantType(std::forward<VariantArgs>(args)...);
  }
  t->data.data = static_cast<VariantData*>(made);
  t->allocation_type = kTfLiteVariantObject;
  return kTfLiteOk;
}

// Deep copy of quantization params.
TfLiteQuantization TfLiteQuantizationClone(const TfLiteQuantization& src);

#endif  // __cplusplus
#endif  // TENSORFLOW_LITE_CORE_C_COMMON_H_
