// RESHAPE, SQUEEZE (static reshapes), PAD / PADV2 (constant paddings; RESHAPE, SQUEEZE and PAD
// also quantized, with equal input and output quantization), RESIZE_BILINEAR
// (static size), DEPTH_TO_SPACE; and DEQUANTIZE of fp16 constants, which the delegate
// turns into float32 weights at prepare, as TFLite's XNNPACK delegate does.
#include <fmt/format.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "xnnpack/node_visitor.h"

namespace tflite_inspect {
namespace xnnpack {

bool VisitShape(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (node.inputs->size < 1 || node.outputs->size != 1) return v.Refuse("expects an input and an output");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  const bool moves_only = reg.builtin_code == kTfLiteBuiltinReshape || reg.builtin_code == kTfLiteBuiltinSqueeze ||
                          reg.builtin_code == kTfLiteBuiltinPad || reg.builtin_code == kTfLiteBuiltinPadv2;
  if (moves_only ? !CheckFloatOrSameQuantized(v, in, out)
                 : !CheckFloat(v, in, "input") || !CheckFloat(v, out, "output")) {
    return false;
  }
  if (!CheckRank(v, in, 0, XNN_MAX_TENSOR_DIMS, "input") ||
      !CheckRank(v, out, 0, XNN_MAX_TENSOR_DIMS, "output")) {
    return false;
  }
  const TfLiteTensor& o = Tensor(v, out);
  switch (reg.builtin_code) {
    case kTfLiteBuiltinReshape:
    case kTfLiteBuiltinSqueeze: {
      // As TFLite's delegate: a new-shape tensor must be an int32 model constant of rank 1
      // (or leading 1s). One computed at prepare (SHAPE -> STRIDED_SLICE -> PACK, as in
      // squeeze-excite blocks) keeps the RESHAPE on the CPU there, so here too.
      if (reg.builtin_code == kTfLiteBuiltinReshape && node.inputs->size == 2 && node.inputs->data[1] >= 0) {
        const int shape = node.inputs->data[1];
        const TfLiteTensor& s = Tensor(v, shape);
        if (s.type != kTfLiteInt32) return v.Refuse(fmt::format("the new shape is {}, not INT32", TfLiteTypeGetName(s.type)));
        if (!IsModelConstant(v, shape)) {
          return v.Refuse("the new shape is not a constant of the model (TFLite's delegate requires one)");
        }
        for (int d = 0; s.dims != nullptr && d + 1 < s.dims->size; ++d) {
          if (s.dims->data[d] != 1) return v.Refuse("the new shape is not a vector");
        }
      }
      if (v.subgraph == nullptr) return true;
      size_t dims[XNN_MAX_TENSOR_DIMS];
      for (int i = 0; i < o.dims->size; ++i) dims[i] = static_cast<size_t>(o.dims->data[i]);
      return Defined(v, xnn_define_static_reshape(v.subgraph, o.dims->size, dims, v.id(in), v.id(out), 0),
                     reg.builtin_code == kTfLiteBuiltinReshape ? "RESHAPE" : "SQUEEZE");
    }
    case kTfLiteBuiltinPad:
    case kTfLiteBuiltinPadv2: {
      if (node.inputs->size < 2) return v.Refuse("no paddings");
      const int pads = node.inputs->data[1];
      if (!IsStatic(v, pads)) return v.Refuse("the paddings are not a constant");
      const TfLiteTensor& pt = Tensor(v, pads);
      const int rank = Tensor(v, in).dims->size;
      if (pt.dims->size != 2 || pt.dims->data[0] != rank || pt.dims->data[1] != 2) {
        return v.Refuse("the paddings are not [rank, 2]");
      }
      float value = 0.0f;
      if (reg.builtin_code == kTfLiteBuiltinPadv2 && node.inputs->size > 2 && node.inputs->data[2] >= 0) {
        const int c = node.inputs->data[2];
        if (IsQuantized8(Tensor(v, in))) return v.Refuse("a quantized PADV2 pad value (XNNPACK pads with the zero point)");
        if (!IsStatic(v, c) || Tensor(v, c).type != kTfLiteFloat32) return v.Refuse("the pad value is not a float constant");
        value = *static_cast<const float*>(StaticData(v, c));
      }
      size_t pre[XNN_MAX_TENSOR_DIMS], post[XNN_MAX_TENSOR_DIMS];
      for (int i = 0; i < rank; ++i) {
        int64_t b, a;
        if (pt.type == kTfLiteInt32) {
          b = static_cast<const int32_t*>(StaticData(v, pads))[2 * i];
          a = static_cast<const int32_t*>(StaticData(v, pads))[2 * i + 1];
        } else if (pt.type == kTfLiteInt64) {
          b = static_cast<const int64_t*>(StaticData(v, pads))[2 * i];
          a = static_cast<const int64_t*>(StaticData(v, pads))[2 * i + 1];
        } else {
          return v.Refuse("the paddings are not int32 or int64");
        }
        if (b < 0 || a < 0) return v.Refuse("negative paddings");
        pre[i] = static_cast<size_t>(b);
        post[i] = static_cast<size_t>(a);
      }
      if (v.subgraph == nullptr) return true;
      return Defined(v, xnn_define_static_constant_pad(v.subgraph, pre, post, value, v.id(in), v.id(out), 0), "PAD");
    }
    case kTfLiteBuiltinResizeBilinear: {
      if (!CheckRank(v, in, 4, 4, "input")) return false;
      const auto* p = static_cast<const TfLiteResizeBilinearParams*>(node.builtin_data);
      if (p->align_corners && p->half_pixel_centers) return v.Refuse("align_corners with half_pixel_centers");
      if (v.subgraph == nullptr) return true;
      uint32_t flags = 0;
      if (p->align_corners) flags = XNN_FLAG_ALIGN_CORNERS;
      else if (!p->half_pixel_centers) flags = XNN_FLAG_TENSORFLOW_LEGACY_MODE;
      return Defined(v, xnn_define_static_resize_bilinear_2d(v.subgraph, o.dims->data[1], o.dims->data[2],
                                                              v.id(in), v.id(out), flags),
                     "RESIZE_BILINEAR");
    }
    default: {  // DEPTH_TO_SPACE
      if (!CheckRank(v, in, 4, 4, "input")) return false;
      const auto* p = static_cast<const TfLiteDepthToSpaceParams*>(node.builtin_data);
      if (p->block_size < 2) return v.Refuse("block size below 2");
      if (v.subgraph == nullptr) return true;
      return Defined(v, xnn_define_depth_to_space(v.subgraph, v.id(in), v.id(out), p->block_size, 0),
                     "DEPTH_TO_SPACE");
    }
  }
}

bool IsWeightNode(const VisitContext& v, const TfLiteNode& node, const TfLiteRegistration& reg) {
  if (reg.builtin_code == kTfLiteBuiltinDensify) return true;
  return reg.builtin_code == kTfLiteBuiltinDequantize && node.inputs->size == 1 &&
         node.inputs->data[0] >= 0 && Tensor(v, node.inputs->data[0]).type == kTfLiteFloat16;
}

// DEQUANTIZE of FLOAT16 constants (weights: folded, nothing to define), or of INT8 / UINT8
// activations (per tensor) to FLOAT32, as XNNPACK's convert, which TFLite's delegate uses.
bool VisitDequantize(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 1 || node.outputs->size != 1) return v.Refuse("expects 1 input, 1 output");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (in < 0 || out < 0) return v.Refuse("a tensor is missing");
  const TfLiteTensor& i = Tensor(v, in);
  if (i.type == kTfLiteFloat16) {
    if (!IsStatic(v, in)) return v.Refuse("DEQUANTIZE of FLOAT16 is taken for constant weights only");
    if (Tensor(v, out).type != kTfLiteFloat32) return v.Refuse("output is not FLOAT32");
    // Nothing to define: the output is a static value of the subgraph.
    return true;
  }
  if (!IsQuantized8(i)) {
    return v.Refuse(fmt::format("DEQUANTIZE of {}: taken for FLOAT16 weights and INT8 / UINT8 activations",
                                TfLiteTypeGetName(i.type)));
  }
  if (IsStatic(v, in)) return v.Refuse("DEQUANTIZE of 8-bit constants is left to the CPU (folded once)");
  if (!CheckQuantized(v, in, "input") || !CheckFloat(v, out, "output")) return false;
  if (v.subgraph == nullptr) return true;
  return Defined(v, xnn_define_convert(v.subgraph, v.id(in), v.id(out), 0), "DEQUANTIZE");
}

// QUANTIZE of FLOAT32 to INT8 / UINT8 (per tensor), as XNNPACK's convert. 8-bit to 8-bit
// (a requantization), which TFLite's newer XNNPACK takes, this one has no operator for.
bool VisitQuantize(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 1 || node.outputs->size != 1) return v.Refuse("expects 1 input, 1 output");
  const int in = node.inputs->data[0], out = node.outputs->data[0];
  if (in < 0 || out < 0) return v.Refuse("a tensor is missing");
  if (Tensor(v, in).type != kTfLiteFloat32) {
    return v.Refuse(fmt::format("QUANTIZE of {}: this XNNPACK converts FLOAT32 only",
                                TfLiteTypeGetName(Tensor(v, in).type)));
  }
  if (!CheckFloat(v, in, "input") || !CheckQuantized(v, out, "output")) return false;
  if (v.subgraph == nullptr) return true;
  return Defined(v, xnn_define_convert(v.subgraph, v.id(in), v.id(out), 0), "QUANTIZE");
}

}  // namespace xnnpack
}  // namespace tflite_inspect

namespace tflite_inspect {
namespace xnnpack {

bool VisitDensify(VisitContext& v, const TfLiteNode& node, const TfLiteRegistration&) {
  if (node.inputs->size != 1 || node.outputs->size != 1) return v.Refuse("expects 1 input, 1 output");
  // The runtime folds DENSIFY of constant weights before a static-shape delegate looks
  // at the graph; the partition then reads the dense weights as constants.
  if (!IsStatic(v, node.inputs->data[0]) || !IsStatic(v, node.outputs->data[0])) {
    return v.Refuse("only DENSIFY of constant weights is supported (folded before delegation)");
  }
  return true;
}

}  // namespace xnnpack
}  // namespace tflite_inspect
