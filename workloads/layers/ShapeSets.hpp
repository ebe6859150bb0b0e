#pragma once
// Named sets of layer shapes: the defaults users know from the seed benchmark, and the shapes of the
// training presets (DESIGN.md), so compute figures predict training figures.
//   default      matmul 4096^3, conv N1 C256 64x64 K256 3x3 pad 1
//   cpu          the defaults of the cpu backend, small enough for the double-precision reference
//   mlp          Linear 4096 -> 4096, batch 256
//   cnn          Conv2d 256 -> 256, 3x3 pad 1, 56x56, batch 32
//   resnet50     the 53 convolutions (torchvision v1.5: stride on the 3x3) + fc, batch 64, 224x224;
//                identical shapes appear once, named after the first layer with a count
//   transformer  the GEMMs of one GPT-style block: d_model 4096, 4096 tokens (2 x 2048), MLP 4x
//                (qkv, attention output, MLP up, MLP down); attention's batched GEMMs are not layers
#include <string>
#include <string_view>
#include <vector>

#include "workloads/layers/Shapes.hpp"

namespace gpuscale::workloads {

struct NamedShape {
  std::string set;   // "default", "mlp", ..., "user"
  std::string name;  // "matmul", "layer1.0.conv2 (x3)", ...
  LayerShape shape;
};

// Convolutions get `conv_layout`. UsageError for an unknown name.
std::vector<NamedShape> shape_set(std::string_view set, Layout conv_layout);
// ResNet-50's 53 convolutions and fc in torchvision order (batch 64, 224x224), every layer listed.
std::vector<NamedShape> resnet50_shapes(Layout conv_layout);
// Comma-separated names, or "all" (every set but default). Duplicated names are kept once.
std::vector<NamedShape> shape_sets(std::string_view list, Layout conv_layout);

// The shape the cpu reference checks for `shape`: the same one when it costs at most max_flops per
// pass, else fewer rows (linear M) or images (conv N), then a smaller image, keeping the channels,
// the filter and the reduction sizes that drive the error.
LayerShape verification_shape(const LayerShape& shape, double max_flops);

}  // namespace gpuscale::workloads
