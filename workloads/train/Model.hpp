#pragma once
// Training models: a chain of Linear or Conv2d layers (no bias) with ReLU between them, loss = mean
// of the last layer's output. Presets follow DESIGN.md ("Training workloads"):
//   mlp          depth x Linear(width -> width), batch 256              (depth 8, width 4096)
//   cnn          depth x Conv2d(width -> width, 3x3, pad 1) on 56x56, batch 32 (depth 8, width 256)
//   resnet50     ResNet-50's 53 convolutions + fc with their real shapes, batch 64; no batch norm,
//                no pooling and no residual adds (see below)
//   transformer  depth x the GEMMs of one GPT-style block (qkv, attention out, MLP up, MLP down),
//                2048 tokens per sample, d_model = width (1024), batch 8
// Where a layer's input has another size than the previous output (ResNet's pooling and downsample
// branch, attention between qkv and its output projection), a "join" stands in for the omitted op:
// each sample's input is that sample's previous output read cyclically (x[j] = y[j mod |y|]); its
// gradient sums back. Per sample, so any split of a batch over devices computes the same.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/layers/Shapes.hpp"

namespace gpuscale::workloads {

struct ModelLayer {
  std::string name;
  LayerShape shape;  // at batch 1 (Linear m = rows per sample, Conv2d n = 1)
};

struct Model {
  std::string name;            // the preset
  std::vector<ModelLayer> layers;
  std::int64_t default_batch;  // per GPU
};

// The bounds of --depth and --width.
constexpr int kMaxDepth = 1000;
constexpr int kMaxWidth = 65536;

struct ModelOptions {
  std::optional<int> depth;  // unset: the preset's
  std::optional<int> width;  // unset: the preset's
  Layout layout = Layout::nchw;
};

// UsageError for an unknown name or a bad depth/width.
Model make_model(std::string_view preset, const ModelOptions& options);
// "mlp,cnn" -> the names; "all" -> every preset. UsageError on an unknown one.
std::vector<std::string> parse_model_list(std::string_view text);

// The layer shapes at `batch` samples per device.
std::vector<LayerShape> shapes_at(const Model& model, std::int64_t batch);

std::int64_t parameter_count(const Model& model);
// FLOPs of one training step at `batch`: every layer's forward, backward weight and (all but the
// first layer's) backward data, 2 FLOPs per multiply-add. Elementwise work is not counted.
double step_flops(const Model& model, std::int64_t batch);

}  // namespace gpuscale::workloads
