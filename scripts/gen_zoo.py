#!/usr/bin/env python3
"""Makes a larger model zoo than ../shared/models/zoo, with goldens from the real TFLite.

Models come from the real converter (tensorflow-cpu, random weights from a fixed seed, so
nothing is downloaded): Keras applications and small TensorFlow graphs that produce the
structures converters emit (WHILE, IF, GRU, bidirectional LSTM, several signatures,
embeddings, strided / gather-heavy graphs, resize variants, 1-D convnets, grouped and 3-D
convolutions, depth-to-space, causal attention, segment reductions), each in the
quantization modes people deploy:

  float         float32
  fp16          fp16 weights (DEQUANTIZE at load)
  dynamic       dynamic-range: int8 weights, hybrid kernels
  int8          full integer, int8 input/output
  int8_floatio  full integer inside, float input/output
  int8_uint8io  full integer, uint8 input/output
  16x8          int16 activations, int8 weights

Everything goes to a cache folder outside the repository (default ~/.cache/tflite-inspect/zoo,
or $TFI_ZOO_CACHE), laid out as ../shared/models/zoo: NAME_MODE.tflite and
goldens/NAME_MODE/{input_<i>.bin, output_<i>.bin, report.json}. Goldens: integer outputs
from TFLite's reference kernels (BUILTIN_REF) where they run, else its optimized builtin
kernels (the reference int8 SOFTMAX aborts on long rows; each golden run is a child process
so an abort only changes the kernels used, noted per output), and so are the float outputs
of full-integer models (int8_floatio); other float outputs from the builtin kernels without
delegates. A model the converter refuses is listed in
goldens/conversion_failures.json with the converter's message.

    scripts/setup_python.sh            # once: /tmp/tfi-venv with tensorflow-cpu, ai-edge-litert
    /tmp/tfi-venv/bin/python scripts/gen_zoo.py [--only SUBSTR[,SUBSTR...]] [--modes m1,m2]
        [--seed N] [--list]
    scripts/zoo_check.sh               # runs every cached model, prints the table
"""
import argparse
import hashlib
import json
import multiprocessing
import os
import sys

import numpy as np

CACHE = os.environ.get("TFI_ZOO_CACHE", os.path.expanduser("~/.cache/tflite-inspect/zoo"))
MODES = ["float", "fp16", "dynamic", "int8", "int8_floatio", "int8_uint8io", "16x8"]


# --- Model families -------------------------------------------------------------------
# Each returns (keras model or tf.Module, [input specs]); Keras applications without
# their softmax head where TFLite users strip it are kept whole here: the 1000-class
# SOFTMAX is part of what users deploy.

def keras_app(name, size, **kw):
    def make(tf):
        ctor = getattr(tf.keras.applications, name)
        return ctor(weights=None, input_shape=(size, size, 3), **kw)
    return make


def transformer_encoder(seq, dim, heads, layers, vocab=1000):
    def make(tf):
        k = tf.keras
        ids = k.Input((seq,), dtype="int32")
        x = k.layers.Embedding(vocab, dim)(ids)
        pos = k.layers.Embedding(seq, dim)(tf.range(seq)[tf.newaxis, :])
        x = x + pos
        for _ in range(layers):
            a = k.layers.MultiHeadAttention(heads, dim // heads)(x, x)
            x = k.layers.LayerNormalization()(x + a)
            f = k.layers.Dense(dim * 4, activation="gelu")(x)
            f = k.layers.Dense(dim)(f)
            x = k.layers.LayerNormalization()(x + f)
        x = k.layers.GlobalAveragePooling1D()(x)
        return k.Model(ids, k.layers.Dense(4)(x))
    return make


def recurrent(kind, steps, features, units):
    def make(tf):
        k = tf.keras
        x_in = k.Input((steps, features), batch_size=1)  # static: TensorList ops lower
        if kind == "gru":
            x = k.layers.GRU(units)(x_in)
        elif kind == "bilstm":
            x = k.layers.Bidirectional(k.layers.LSTM(units, return_sequences=True))(x_in)
            x = k.layers.GlobalAveragePooling1D()(x)
        else:
            x = k.layers.LSTM(units)(x_in)
        return k.Model(x_in, k.layers.Dense(8, activation="softmax")(x))
    return make


def conv1d_net(length, channels, kernel, padding, blocks):
    """A 1-D convnet (ECG, TCN, audio style): Conv1D stacks as converted, 1 x k filters
    over [1, W, C] images."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((length, channels[0]))
        x = x_in
        for c in channels[1:]:
            for _ in range(blocks):
                x = k.layers.Conv1D(c, kernel, padding=padding, activation="relu")(x)
            x = k.layers.MaxPool1D(2)(x)
        x = k.layers.GlobalAveragePooling1D()(x)
        return k.Model(x_in, k.layers.Dense(12)(x))
    return make


def vit(size, patch, dim, heads, layers, classes=10):
    """A ViT: a strided convolution cuts patches, a class token is concatenated, a learned
    position embedding added, pre-norm encoder blocks, the class token classified."""
    def make(tf):
        k = tf.keras

        class ClassToken(k.layers.Layer):
            def build(self, shape):
                self.cls = self.add_weight(shape=(1, 1, shape[-1]), initializer="random_normal")
                self.pos = self.add_weight(shape=(1, shape[1] + 1, shape[-1]),
                                           initializer="random_normal")

            def call(self, x):
                cls = tf.tile(self.cls, [tf.shape(x)[0], 1, 1])
                return tf.concat([cls, x], axis=1) + self.pos

        x_in = k.Input((size, size, 3))
        x = k.layers.Conv2D(dim, patch, strides=patch)(x_in)
        x = k.layers.Reshape(((size // patch) ** 2, dim))(x)
        x = ClassToken()(x)
        for _ in range(layers):
            h = k.layers.LayerNormalization(epsilon=1e-6)(x)
            x = x + k.layers.MultiHeadAttention(heads, dim // heads)(h, h)
            h = k.layers.LayerNormalization(epsilon=1e-6)(x)
            h = k.layers.Dense(dim * 2, activation="gelu")(h)
            x = x + k.layers.Dense(dim)(h)
        x = k.layers.LayerNormalization(epsilon=1e-6)(x)
        return k.Model(x_in, k.layers.Dense(classes)(x[:, 0]))
    return make


def unet_transpose(size, base):
    """A segmentation net with transposed convolutions, batch norm, leaky ReLU, bilinear
    upsampling and skip concatenations (the decoder layers U-Net ports use)."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((size, size, 3))
        skips, x = [], x_in
        for i in range(3):
            x = k.layers.Conv2D(base << i, 3, padding="same", use_bias=False)(x)
            x = k.layers.BatchNormalization()(x)
            x = k.layers.LeakyReLU(0.1)(x)
            skips.append(x)
            x = k.layers.MaxPool2D()(x)
        x = k.layers.Conv2D(base << 3, 3, padding="same", activation="elu")(x)
        for i in reversed(range(3)):
            if i == 0:
                x = k.layers.UpSampling2D(interpolation="bilinear")(x)
            else:
                x = k.layers.Conv2DTranspose(base << i, 3, strides=2, padding="same")(x)
            x = k.layers.Concatenate()([x, skips[i]])
            x = k.layers.Conv2D(base << i, 3, padding="same", activation="relu")(x)
        return k.Model(x_in, k.layers.Conv2D(2, 1, activation="sigmoid")(x))
    return make


def dilated_tcn(length, features, filters, dilations):
    """A WaveNet / TCN stack: causal dilated Conv1D, separable Conv1D, gated (tanh x
    sigmoid) activations and residual adds."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((length, features))
        x = k.layers.Conv1D(filters, 1)(x_in)
        for d in dilations:
            t = k.layers.Conv1D(filters, 3, dilation_rate=d, padding="causal",
                                activation="tanh")(x)
            s = k.layers.Conv1D(filters, 3, dilation_rate=d, padding="causal",
                                activation="sigmoid")(x)
            h = k.layers.SeparableConv1D(filters, 5, padding="same")(t * s)
            x = x + h
        x = k.layers.GlobalMaxPool1D()(x)
        return k.Model(x_in, k.layers.Dense(6)(x))
    return make


def detector(size):
    """A single-shot detector head: a small backbone, two feature maps, per-anchor class
    scores (sigmoid) and boxes reshaped and concatenated into two outputs."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((size, size, 3))
        x = k.layers.Conv2D(16, 3, strides=2, padding="same", activation="relu6")(x_in)
        maps = []
        for c in (32, 64, 96):
            x = k.layers.DepthwiseConv2D(3, strides=2, padding="same", activation="relu6")(x)
            x = k.layers.Conv2D(c, 1, activation="relu6")(x)
            maps.append(x)
        scores, boxes = [], []
        for m in maps[1:]:
            n = m.shape[1] * m.shape[2] * 3
            scores.append(k.layers.Reshape((n, 5))(k.layers.Conv2D(15, 3, padding="same")(m)))
            boxes.append(k.layers.Reshape((n, 4))(k.layers.Conv2D(12, 3, padding="same")(m)))
        s = k.layers.Activation("sigmoid")(k.layers.Concatenate(axis=1)(scores))
        return k.Model(x_in, [s, k.layers.Concatenate(axis=1)(boxes)])
    return make


def resnext(size, width, groups, blocks):
    """A ResNeXt stage stack: grouped 3x3 convolutions (Conv2D groups > 1, converted to
    CONV_2D whose filter has fewer input channels than its input) between 1x1 layers."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((size, size, 3))
        x = k.layers.Conv2D(width, 3, strides=2, padding="same", activation="relu")(x_in)
        for i in range(blocks):
            h = k.layers.Conv2D(width, 1, activation="relu")(x)
            h = k.layers.Conv2D(width, 3, padding="same", groups=groups, activation="relu",
                                strides=2 if i == 1 else 1)(h)
            h = k.layers.Conv2D(width, 1)(h)
            if i == 1:
                x = k.layers.Conv2D(width, 1, strides=2)(x)
            x = k.layers.ReLU()(x + h)
        x = k.layers.GlobalAveragePooling2D()(x)
        return k.Model(x_in, k.layers.Dense(10)(x))
    return make


def video_conv3d(frames, size):
    """A small video classifier: Conv3D stacks (CONV_3D), a (2+1)-D block and a global
    average over time and space."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((frames, size, size, 3))
        x = k.layers.Conv3D(16, 3, strides=(1, 2, 2), padding="same", activation="relu")(x_in)
        x = k.layers.Conv3D(24, (1, 3, 3), padding="same", activation="relu")(x)
        x = k.layers.Conv3D(24, (3, 1, 1), padding="valid", activation="relu")(x)
        x = k.layers.Conv3D(32, 3, strides=2, padding="same", activation="relu")(x)
        x = k.layers.GlobalAveragePooling3D()(x)
        return k.Model(x_in, k.layers.Dense(5)(x))
    return make


def unet3d(frames, size):
    """A volumetric segmentation net (3-D U-Net style): Conv3D, a strided Conv3D down (TFLite
    has no MaxPool3D builtin), Conv3DTranspose (CONV_3D_TRANSPOSE) up, a skip concatenation."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((frames, size, size, 1))
        s = k.layers.Conv3D(8, 3, padding="same", activation="relu")(x_in)
        x = k.layers.Conv3D(16, 3, strides=2, padding="same", activation="relu")(s)
        x = k.layers.Conv3DTranspose(8, 3, strides=2, padding="same")(x)
        x = k.layers.Concatenate()([x, s])
        x = k.layers.Conv3D(8, 3, padding="same", activation="relu")(x)
        return k.Model(x_in, k.layers.Conv3D(2, 1, activation="sigmoid")(x))
    return make

def espcn(size, scale):
    """A super-resolution net (ESPCN): convolutions then depth_to_space (DEPTH_TO_SPACE)."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((size, size, 1))
        x = k.layers.Conv2D(32, 5, padding="same", activation="tanh")(x_in)
        x = k.layers.Conv2D(16, 3, padding="same", activation="tanh")(x)
        x = k.layers.Conv2D(scale * scale, 3, padding="same")(x)
        x = k.layers.Lambda(lambda t: tf.nn.depth_to_space(t, scale))(x)
        return k.Model(x_in, k.layers.Activation("sigmoid")(x))
    return make


def mlp_mixer(size, patch, dim, tokens_mlp, layers):
    """An MLP-Mixer: patches by a strided convolution, token mixing by Dense over the
    transposed sequence, channel mixing, layer norm, GELU."""
    def make(tf):
        k = tf.keras
        n = (size // patch) ** 2
        x_in = k.Input((size, size, 3))
        x = k.layers.Conv2D(dim, patch, strides=patch)(x_in)
        x = k.layers.Reshape((n, dim))(x)
        for _ in range(layers):
            h = k.layers.LayerNormalization(epsilon=1e-6)(x)
            h = k.layers.Permute((2, 1))(h)
            h = k.layers.Dense(tokens_mlp, activation="gelu")(h)
            h = k.layers.Dense(n)(h)
            x = x + k.layers.Permute((2, 1))(h)
            h = k.layers.LayerNormalization(epsilon=1e-6)(x)
            h = k.layers.Dense(dim * 2, activation="gelu")(h)
            x = x + k.layers.Dense(dim)(h)
        x = k.layers.GlobalAveragePooling1D()(k.layers.LayerNormalization(epsilon=1e-6)(x))
        return k.Model(x_in, k.layers.Dense(10)(x))
    return make


def text_cnn(seq, vocab, dim):
    """A text classifier: an embedding, parallel Conv1D widths, global max pooling."""
    def make(tf):
        k = tf.keras
        ids = k.Input((seq,), dtype="int32")
        x = k.layers.Embedding(vocab, dim)(ids)
        pooled = [k.layers.GlobalMaxPool1D()(k.layers.Conv1D(32, w, activation="relu")(x))
                  for w in (2, 3, 5)]
        x = k.layers.Concatenate()(pooled)
        return k.Model(ids, k.layers.Dense(3, activation="softmax")(x))
    return make


def simple_rnn(steps, features, units):
    """Keras SimpleRNN (not fused by the converter as LSTM is): what it lowers to."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((steps, features), batch_size=1)
        x = k.layers.SimpleRNN(units, return_sequences=True)(x_in)
        x = k.layers.SimpleRNN(units)(x)
        return k.Model(x_in, k.layers.Dense(4)(x))
    return make


def causal_decoder(seq, dim, heads, layers, vocab=1000):
    """A GPT-style decoder block stack: token and position embeddings, causal self-attention
    (Keras' use_causal_mask), pre-norm, GELU MLP, next-token logits for every position."""
    def make(tf):
        k = tf.keras
        ids = k.Input((seq,), dtype="int32")
        x = k.layers.Embedding(vocab, dim)(ids)
        x = x + k.layers.Embedding(seq, dim)(tf.range(seq)[tf.newaxis, :])
        for _ in range(layers):
            h = k.layers.LayerNormalization(epsilon=1e-5)(x)
            x = x + k.layers.MultiHeadAttention(heads, dim // heads)(h, h, use_causal_mask=True)
            h = k.layers.LayerNormalization(epsilon=1e-5)(x)
            x = x + k.layers.Dense(dim)(k.layers.Dense(dim * 4, activation="gelu")(h))
        x = k.layers.LayerNormalization(epsilon=1e-5)(x)
        return k.Model(ids, k.layers.Dense(vocab)(x))
    return make


def segment_pooling(tf):
    """Graph-network style pooling: node features summed / maxed per graph id
    (tf.math.unsorted_segment_sum / _max), then a dense layer."""
    class M(tf.Module):
        def __init__(self):
            rng = np.random.default_rng(11)
            self.w = tf.constant(rng.standard_normal((32, 8)).astype(np.float32) * 0.1)
            self.ids = tf.constant(rng.integers(0, 6, 40).astype(np.int32))

        @tf.function(input_signature=[tf.TensorSpec([40, 16], tf.float32)])
        def __call__(self, x):
            s = tf.math.unsorted_segment_sum(x, self.ids, 6)
            m = tf.math.unsorted_segment_max(x, self.ids, 6)
            return tf.matmul(tf.concat([s, m], axis=1), self.w)
    return M()

def yolo_tiny(size):
    """A YOLOv5-style detector: a space-to-depth "focus" stem, SiLU (x * sigmoid(x))
    convolutions, CSP blocks with concatenations, an SPP block of stride-1 5 / 9 / 13 max
    pools, nearest upsampling, two heads."""
    def make(tf):
        k = tf.keras

        def conv(x, c, kernel=1, stride=1):
            x = k.layers.Conv2D(c, kernel, strides=stride, padding="same", use_bias=False)(x)
            x = k.layers.BatchNormalization()(x)
            return k.layers.Activation("swish")(x)

        def csp(x, c):
            a = conv(conv(conv(x, c // 2), c // 2, 3), c // 2)
            return conv(k.layers.Concatenate()([a, conv(x, c // 2)]), c)

        x_in = k.Input((size, size, 3))
        x = k.layers.Lambda(lambda t: tf.nn.space_to_depth(t, 2))(x_in)
        x = conv(x, 16, 3)
        x = csp(conv(x, 32, 3, 2), 32)
        p3 = csp(conv(x, 64, 3, 2), 64)
        x = conv(p3, 128, 3, 2)
        x = conv(x, 64)
        x = k.layers.Concatenate()([x] + [k.layers.MaxPool2D(p, strides=1, padding="same")(x)
                                          for p in (5, 9, 13)])
        p4 = csp(conv(x, 128), 128)
        up = k.layers.UpSampling2D()(conv(p4, 64))
        p3 = csp(k.layers.Concatenate()([up, p3]), 64)
        return k.Model(x_in, [k.layers.Conv2D(18, 1)(p3), k.layers.Conv2D(18, 1)(p4)])
    return make


def groupnorm_net(size, groups):
    """A diffusion-style residual convnet with GroupNormalization (reshapes to 5-D, moments
    over three axes) and SiLU."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((size, size, 3))
        x = k.layers.Conv2D(32, 3, padding="same")(x_in)
        for c in (32, 64):
            h = k.layers.GroupNormalization(groups)(x)
            h = k.layers.Conv2D(c, 3, padding="same", activation="swish")(h)
            h = k.layers.GroupNormalization(groups)(h)
            h = k.layers.Conv2D(c, 3, padding="same")(h)
            x = (x if x.shape[-1] == c else k.layers.Conv2D(c, 1)(x)) + h
            x = k.layers.AveragePooling2D(2)(x)
        return k.Model(x_in, k.layers.Conv2D(3, 1)(x))
    return make

def conv_lstm(steps, size, filters):
    """Precipitation-nowcasting style: Keras ConvLSTM2D over a short image sequence (the
    converter lowers it to a WHILE loop with convolutions in its body)."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((steps, size, size, 1), batch_size=1)
        x = k.layers.ConvLSTM2D(filters, 3, padding="same")(x_in)
        return k.Model(x_in, k.layers.Conv2D(1, 1, activation="sigmoid")(x))
    return make


def conformer_block(length, dim):
    """A Conformer block (speech): feed-forward halves, self-attention, a convolution module
    of a pointwise Conv1D with a GLU (split, sigmoid, multiply), a depthwise Conv1D, batch
    norm and swish."""
    def make(tf):
        k = tf.keras
        x_in = k.Input((length, dim))

        def ffn(x):
            h = k.layers.LayerNormalization()(x)
            h = k.layers.Dense(dim * 4, activation="swish")(h)
            return x + 0.5 * k.layers.Dense(dim)(h)

        x = ffn(x_in)
        h = k.layers.LayerNormalization()(x)
        x = x + k.layers.MultiHeadAttention(4, dim // 4)(h, h)
        h = k.layers.LayerNormalization()(x)
        h = k.layers.Conv1D(2 * dim, 1)(h)
        a, b = k.layers.Lambda(lambda t: tf.split(t, 2, axis=-1))(h)
        h = a * k.layers.Activation("sigmoid")(b)
        h = k.layers.DepthwiseConv1D(15, padding="same")(h)
        h = k.layers.Activation("swish")(k.layers.BatchNormalization()(h))
        x = x + k.layers.Conv1D(dim, 1)(h)
        x = k.layers.LayerNormalization()(ffn(x))
        return k.Model(x_in, k.layers.Dense(10)(k.layers.GlobalAveragePooling1D()(x)))
    return make

def while_loop_graph(tf):
    class M(tf.Module):
        def __init__(self):
            rng = np.random.default_rng(3)
            self.w = tf.constant(rng.standard_normal((16, 16)).astype(np.float32) * 0.2)

        @tf.function(input_signature=[tf.TensorSpec([1, 16], tf.float32)])
        def __call__(self, x):
            i = tf.constant(0)
            def body(i, h):
                return i + 1, tf.tanh(tf.matmul(h, self.w) + x)
            _, h = tf.while_loop(lambda i, h: i < 6, body, (i, x))
            return h
    return M()


def cond_graph(tf):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([1, 32], tf.float32)])
        def __call__(self, x):
            return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.nn.relu(x) * 2.0,
                           lambda: tf.sigmoid(x) - 1.0)
    return M()


def strided_gather(tf):
    class M(tf.Module):
        def __init__(self):
            rng = np.random.default_rng(7)
            self.k = tf.constant(rng.standard_normal((3, 3, 8, 8)).astype(np.float32) * 0.2)
            self.w = tf.constant(rng.standard_normal((16 * 16 * 8, 16)).astype(np.float32) * 0.05)

        @tf.function(input_signature=[tf.TensorSpec([1, 32, 32, 8], tf.float32)])
        def __call__(self, x):
            a = x[:, ::2, 1::2, :]
            b = tf.gather(x, [7, 3, 1, 0], axis=3)[:, 4:20, 4:20, :]
            c = tf.nn.relu(tf.nn.conv2d(a, self.k, 1, "SAME"))
            e = tf.reduce_max(tf.reshape(b, (1, 16 * 16, 4)), axis=1)
            f = tf.matmul(tf.reshape(c, (1, -1)), self.w)
            return tf.concat([f, e], axis=1)
    return M()


def resize_variants(tf):
    class M(tf.Module):
        def __init__(self):
            rng = np.random.default_rng(9)
            self.k = tf.constant(rng.standard_normal((1, 1, 4, 4)).astype(np.float32))

        @tf.function(input_signature=[tf.TensorSpec([1, 17, 23, 4], tf.float32)])
        def __call__(self, x):
            outs = [tf.image.resize(x, (34, 46), method="bilinear"),
                    tf.image.resize(x, (34, 46), method="nearest"),
                    tf.compat.v1.image.resize_bilinear(x, (34, 46), align_corners=True),
                    tf.compat.v1.image.resize_nearest_neighbor(x, (34, 46), align_corners=True),
                    tf.compat.v1.image.resize_bilinear(x, (34, 46), half_pixel_centers=True)]
            return tf.concat([tf.nn.conv2d(o, self.k, 1, "SAME") for o in outs], axis=3)
    return M()


def two_signatures(tf):
    class M(tf.Module):
        def __init__(self):
            rng = np.random.default_rng(5)
            self.w = tf.Variable(rng.standard_normal((8, 4)).astype(np.float32))

        @tf.function(input_signature=[tf.TensorSpec([2, 8], tf.float32)])
        def encode(self, x):
            return {"code": tf.nn.relu(tf.matmul(x, self.w))}

        @tf.function(input_signature=[tf.TensorSpec([2, 4], tf.float32)])
        def decode(self, z):
            return {"recon": tf.matmul(z, self.w, transpose_b=True)}
    return M()


FAMILIES = {
    "mobilenet_v1_0.5_160": keras_app("MobileNet", 160, alpha=0.5),
    "mobilenet_v2_0.35_96": keras_app("MobileNetV2", 96, alpha=0.35),
    "mobilenet_v3_small_224": keras_app("MobileNetV3Small", 224),
    "efficientnet_b0_224": keras_app("EfficientNetB0", 224),
    "efficientnet_b1_240": keras_app("EfficientNetB1", 240),
    "efficientnet_b2_260": keras_app("EfficientNetB2", 260),
    "efficientnet_b3_300": keras_app("EfficientNetB3", 300),
    "efficientnet_v2_b0_224": keras_app("EfficientNetV2B0", 224),
    "resnet50_v2_224": keras_app("ResNet50V2", 224),
    "resnet101_224": keras_app("ResNet101", 224),
    "densenet121_224": keras_app("DenseNet121", 224),
    "inception_v3_299": keras_app("InceptionV3", 299),
    "xception_299": keras_app("Xception", 299),
    "nasnet_mobile_224": keras_app("NASNetMobile", 224),
    "convnext_tiny_224": keras_app("ConvNeXtTiny", 224),
    "inception_resnet_v2_299": keras_app("InceptionResNetV2", 299),
    "mobilenet_v3_large_224": keras_app("MobileNetV3Large", 224),
    "efficientnet_v2_s_224": keras_app("EfficientNetV2S", 224),
    "densenet169_224": keras_app("DenseNet169", 224),
    "transformer_128x256": transformer_encoder(128, 256, 4, 2),
    "transformer_32x64": transformer_encoder(32, 64, 2, 1),
    "gru_20x16": recurrent("gru", 20, 16, 32),
    "bilstm_20x16": recurrent("bilstm", 20, 16, 24),
    "lstm_30x12": recurrent("lstm", 30, 12, 20),
    "conv1d_ecg_2048": conv1d_net(2048, [1, 32, 64, 64, 128], 7, "same", 2),
    "conv1d_tcn_1000x40": conv1d_net(1000, [40, 64, 128, 128], 3, "valid", 2),
    "conv1d_wide_8000x2": conv1d_net(8000, [2, 16, 32], 31, "same", 1),
    "vit_64_p8": vit(64, 8, 96, 3, 2),
    "unet_transpose_64": unet_transpose(64, 16),
    "tcn_dilated_512x8": dilated_tcn(512, 8, 32, [1, 2, 4, 8]),
    "detector_128": detector(128),
    "resnext_grouped_64": resnext(64, 64, 8, 3),
    "video_conv3d_8x32": video_conv3d(8, 32),
    "unet3d_8x24": unet3d(8, 24),
    "espcn_x3_64": espcn(64, 3),
    "mlp_mixer_32_p4": mlp_mixer(32, 4, 64, 32, 2),
    "text_cnn_64": text_cnn(64, 1000, 32),
    "simple_rnn_16x8": simple_rnn(16, 8, 24),
    "causal_decoder_32x64": causal_decoder(32, 64, 4, 2),
    "yolo_tiny_128": yolo_tiny(128),
    "groupnorm_net_64": groupnorm_net(64, 8),
    "conv_lstm_6x32": conv_lstm(6, 32, 8),
    "conformer_100x64": conformer_block(100, 64),
    "while_loop": while_loop_graph,
    "segment_pooling": segment_pooling,
    "cond": cond_graph,
    "strided_gather": strided_gather,
    "resize_variants": resize_variants,
    "two_signatures": two_signatures,
}


# --- Conversion ------------------------------------------------------------------------

def converter_for(tf, obj):
    if isinstance(obj, tf.keras.Model):
        return tf.lite.TFLiteConverter.from_keras_model(obj)
    if hasattr(obj, "encode"):
        return tf.lite.TFLiteConverter.from_concrete_functions(
            [obj.encode.get_concrete_function(), obj.decode.get_concrete_function()], obj)
    return tf.lite.TFLiteConverter.from_concrete_functions([obj.__call__.get_concrete_function()],
                                                           obj)


def input_specs(tf, obj):
    if isinstance(obj, tf.keras.Model):
        return [(tuple(1 if d is None else d for d in t.shape), t.dtype) for t in obj.inputs]
    if hasattr(obj, "encode"):
        return [((2, 8), "float32"), ((2, 4), "float32")]
    args, _ = obj.__call__.get_concrete_function().structured_input_signature
    return [(tuple(t.shape), t.dtype.name) for t in args]


def representative(tf, specs, seed):
    def gen():
        rng = np.random.default_rng(seed)
        for _ in range(8):
            sample = []
            for shape, dtype in specs:
                dt = np.dtype(getattr(dtype, "name", dtype))
                if dt.kind == "i":
                    sample.append(rng.integers(0, 1000, shape).astype(dt))
                else:
                    sample.append(rng.standard_normal(shape).astype(dt))
            yield sample
    return gen


def convert(tf, obj, mode, seed):
    c = converter_for(tf, obj)
    ops = tf.lite.OpsSet
    if mode == "fp16":
        c.optimizations = [tf.lite.Optimize.DEFAULT]
        c.target_spec.supported_types = [tf.float16]
    elif mode == "dynamic":
        c.optimizations = [tf.lite.Optimize.DEFAULT]
    elif mode != "float":
        c.optimizations = [tf.lite.Optimize.DEFAULT]
        c.representative_dataset = representative(tf, input_specs(tf, obj), seed)
        if mode == "16x8":
            c.target_spec.supported_ops = [
                ops.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
        else:
            c.target_spec.supported_ops = [ops.TFLITE_BUILTINS_INT8]
        if mode == "int8":
            c.inference_input_type = c.inference_output_type = tf.int8
        elif mode == "int8_uint8io":
            c.inference_input_type = c.inference_output_type = tf.uint8
    return c.convert()


# --- Goldens ---------------------------------------------------------------------------

def generated_input(d, seed, stream, vocab_hint):
    rng = np.random.default_rng([seed, stream])
    dt = np.dtype(d["dtype"])
    shape = d["shape"]
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    if dt in (np.int32, np.int64):
        return rng.integers(0, vocab_hint, shape).astype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max + 1, shape).astype(dt)


def _run_child(path, kind, inputs, q):
    from ai_edge_litert import interpreter as litert
    it = litert.Interpreter(model_path=path, num_threads=1,
                            experimental_op_resolver_type=getattr(litert.OpResolverType, kind))
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], x)
    it.invoke()
    q.put([it.get_tensor(d["index"]) for d in it.get_output_details()])


def receive(p, q, limit_s):
    """What child `p` puts on `q`, or None once it has exited without (or after limit_s)."""
    import queue
    import time
    end = time.time() + limit_s
    while time.time() < end:
        try:
            return q.get(timeout=1)
        except queue.Empty:
            if not p.is_alive():
                try:
                    return q.get(timeout=1)
                except queue.Empty:
                    return None
    return None


def run_isolated(path, kind, inputs):
    """Outputs of one TFLite run in a child process, or None if it failed or aborted."""
    ctx = multiprocessing.get_context("spawn")  # a fork of a threaded parent can hang
    q = ctx.Queue()
    p = ctx.Process(target=_run_child, args=(path, kind, inputs, q))
    p.start()
    # Read before joining: a child blocks on exit until its queued outputs are read.
    outputs = receive(p, q, 1800)  # None: died (an abort in TFLite's reference kernel)
    p.join(60)
    if p.is_alive():
        p.kill()
    return outputs if p.exitcode == 0 else None


def describe(d):
    q = d.get("quantization_parameters", {})
    quant = None
    if len(q.get("scales", [])) > 0:
        quant = {"scale": [float(s) for s in q["scales"]],
                 "zero_point": [int(z) for z in q["zero_points"]]}
    return {"name": d["name"], "dtype": np.dtype(d["dtype"]).name,
            "shape": [int(s) for s in d["shape"]], "quantization": quant}


def write_golden(path, out_dir, seed, integer_model):
    from ai_edge_litert import __version__ as litert_version
    from ai_edge_litert import interpreter as litert
    it = litert.Interpreter(model_path=path)
    ins = it.get_input_details()
    outs = it.get_output_details()
    inputs = [generated_input(d, seed, i, 1000) for i, d in enumerate(ins)]
    builtin = run_isolated(path, "BUILTIN_WITHOUT_DEFAULT_DELEGATES", inputs)
    if builtin is None:
        raise RuntimeError("TFLite's builtin kernels cannot run it")
    # Integer arithmetic inside (full-integer and 16x8 models, float I/O included) is
    # compared with TFLite's reference kernels.
    needs_ref = integer_model or any(np.dtype(d["dtype"]).kind in "iu" for d in outs)
    ref = run_isolated(path, "BUILTIN_REF", inputs) if needs_ref else None
    os.makedirs(out_dir, exist_ok=True)
    data = open(path, "rb").read()
    report = {"ok": True, "model": os.path.basename(path),
              "runtime": {"name": "ai-edge-litert (TFLite)", "version": litert_version,
                          "threads": 1},
              "seed": seed, "model_bytes": len(data),
              "model_sha256": hashlib.sha256(data).hexdigest(), "inputs": [], "outputs": []}
    for i, (d, x) in enumerate(zip(ins, inputs)):
        x.tofile(os.path.join(out_dir, f"input_{i}.bin"))
        report["inputs"].append(describe(d))
    for i, d in enumerate(outs):
        use_ref = ref is not None
        y = ref[i] if use_ref else builtin[i]
        y.tofile(os.path.join(out_dir, f"output_{i}.bin"))
        entry = describe(d)
        entry["kernels"] = "BUILTIN_REF" if use_ref else "BUILTIN_WITHOUT_DEFAULT_DELEGATES"
        report["outputs"].append(entry)
    with open(os.path.join(out_dir, "report.json"), "w") as f:
        json.dump(report, f, indent=1)


def first_error_line(e):
    """The converter's message: its first line that says "error", else its last line."""
    lines = [l.strip() for l in str(e).splitlines() if l.strip() and l.strip() != "```"]
    for l in lines:
        if "error" in l.lower():
            return l[:400]
    return (lines[-1] if lines else repr(e))[:400]


def _convert_child(name, mode, seed, path, q):
    try:
        import tensorflow as tf
        tf.keras.utils.set_random_seed(seed)
        data = convert(tf, FAMILIES[name](tf), mode, seed)
        with open(path, "wb") as f:
            f.write(data)
        q.put("")
    except Exception as e:  # the converter's refusal, recorded by the parent
        q.put(first_error_line(e))


def convert_isolated(name, mode, seed, path):
    """Converts in a child process: the converter can crash (the calibrator segfaults on
    some recurrent graphs); that is recorded like a refusal. Returns "" or the error."""
    ctx = multiprocessing.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_convert_child, args=(name, mode, seed, path, q))
    p.start()
    error = receive(p, q, 3600)
    p.join(60)
    if p.is_alive():
        p.kill()
    if error is None or p.exitcode != 0:
        return f"the converter died (exit {p.exitcode})"
    return error


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="comma-separated substrings of family names")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    names = [n for n in FAMILIES
             if not args.only or any(s in n for s in args.only.split(","))]
    modes = [m for m in args.modes.split(",") if m]
    if args.list:
        print("\n".join(f"{n}_{m}" for n in names for m in modes))
        return 0
    os.makedirs(os.path.join(CACHE, "goldens"), exist_ok=True)
    failures_path = os.path.join(CACHE, "goldens", "conversion_failures.json")
    failures = json.load(open(failures_path)) if os.path.exists(failures_path) else {}
    for name in names:
        for mode in modes:
            key = f"{name}_{mode}"
            path = os.path.join(CACHE, key + ".tflite")
            try:
                if not os.path.exists(path):
                    error = convert_isolated(name, mode, args.seed, path)
                    if error:
                        raise RuntimeError(error)
                write_golden(path, os.path.join(CACHE, "goldens", key), args.seed,
                             mode in ("int8", "int8_floatio", "int8_uint8io", "16x8"))
                failures.pop(key, None)
                print(f"ok   {key}", flush=True)
            except Exception as e:  # the converter's or TFLite's refusal, recorded
                failures[key] = first_error_line(e)
                if os.path.exists(path) and "cannot run" not in str(e):
                    os.remove(path)
                print(f"FAIL {key}: {failures[key]}", flush=True)
            with open(failures_path, "w") as f:
                json.dump(failures, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
