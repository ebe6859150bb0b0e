#include "workloads/layers/ShapeSets.hpp"

#include <algorithm>
#include <map>

#include "harness/Error.hpp"

namespace gpuscale::workloads {
namespace {

// Keeps the first of identical shapes, its name suffixed with how many layers share it.
std::vector<NamedShape> fold_identical(std::vector<NamedShape> all) {
  std::vector<NamedShape> out;
  std::vector<int> counts;
  for (auto& s : all) {
    const auto it = std::find_if(out.begin(), out.end(), [&](const NamedShape& o) { return o.shape == s.shape; });
    if (it == out.end()) {
      out.push_back(std::move(s));
      counts.push_back(1);
    } else {
      ++counts[static_cast<std::size_t>(it - out.begin())];
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (counts[i] > 1) out[i].name += " (x" + std::to_string(counts[i]) + ")";
  return out;
}

}  // namespace

// ResNet-50's convolutions in torchvision order, batch 64 on 224x224 images.
std::vector<NamedShape> resnet50_shapes(Layout layout) {
  std::vector<NamedShape> all;
  auto conv = [&](std::string name, std::int64_t c, std::int64_t hw, std::int64_t k, std::int64_t rs,
                  std::int64_t stride, std::int64_t pad) {
    all.push_back({"resnet50", std::move(name), Conv2dShape{64, c, hw, hw, k, rs, rs, stride, pad, 1, layout}});
  };
  conv("conv1", 3, 224, 64, 7, 2, 3);
  const std::int64_t widths[] = {64, 128, 256, 512}, blocks[] = {3, 4, 6, 3};
  std::int64_t in = 64, hw = 56;
  for (int stage = 0; stage < 4; ++stage) {
    const std::int64_t w = widths[stage], out = 4 * w, stride = stage == 0 ? 1 : 2;
    for (std::int64_t b = 0; b < blocks[stage]; ++b) {
      const std::string prefix = "layer" + std::to_string(stage + 1) + "." + std::to_string(b) + ".";
      const std::int64_t s = b == 0 ? stride : 1, out_hw = hw / s;
      conv(prefix + "conv1", in, hw, w, 1, 1, 0);
      conv(prefix + "conv2", w, hw, w, 3, s, 1);
      conv(prefix + "conv3", w, out_hw, out, 1, 1, 0);
      if (b == 0) conv(prefix + "downsample", in, hw, out, 1, s, 0);
      in = out;
      hw = out_hw;
    }
  }
  all.push_back({"resnet50", "fc", LinearShape{64, 1000, 2048}});
  return all;
}

std::vector<NamedShape> shape_set(std::string_view set, Layout layout) {
  if (set == "default")
    return {{"default", "matmul", LinearShape{4096, 4096, 4096}},
            {"default", "conv", Conv2dShape{1, 256, 64, 64, 256, 3, 3, 1, 1, 1, layout}}};
  if (set == "cpu")
    return {{"cpu", "matmul", LinearShape{256, 256, 256}},
            {"cpu", "conv", Conv2dShape{1, 32, 16, 16, 32, 3, 3, 1, 1, 1, layout}}};
  if (set == "mlp") return {{"mlp", "fc (x8)", LinearShape{256, 4096, 4096}}};
  if (set == "cnn") return {{"cnn", "conv (x8)", Conv2dShape{32, 256, 56, 56, 256, 3, 3, 1, 1, 1, layout}}};
  if (set == "resnet50") return fold_identical(resnet50_shapes(layout));
  if (set == "transformer") {
    constexpr std::int64_t tokens = 4096, d = 4096;
    return {{"transformer", "qkv", LinearShape{tokens, 3 * d, d}},
            {"transformer", "attn_out", LinearShape{tokens, d, d}},
            {"transformer", "mlp_up", LinearShape{tokens, 4 * d, d}},
            {"transformer", "mlp_down", LinearShape{tokens, d, 4 * d}}};
  }
  throw harness::UsageError("unknown shape set '" + std::string(set) +
                            "' (use default, cpu, mlp, cnn, resnet50, transformer or all)");
}

std::vector<NamedShape> shape_sets(std::string_view list, Layout layout) {
  if (list == "all") list = "mlp,cnn,resnet50,transformer";
  std::vector<NamedShape> out;
  std::vector<std::string> seen;
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto comma = std::min(list.find(',', start), list.size());
    const std::string name(list.substr(start, comma - start));
    if (std::find(seen.begin(), seen.end(), name) == seen.end()) {
      seen.push_back(name);
      for (auto& s : shape_set(name, layout)) out.push_back(std::move(s));
    }
    start = comma + 1;
  }
  return out;
}

LayerShape verification_shape(const LayerShape& shape, double max_flops) {
  LayerShape s = shape;
  const double ratio = flops_per_pass(s) / max_flops;
  if (ratio <= 1) return s;
  auto shrink = [ratio](std::int64_t rows) {
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(rows) / ratio));
  };
  std::visit(Overloaded{[&](LinearShape& l) { l.m = shrink(l.m); },
                        [&](Conv2dShape& c) {
                          c.n = shrink(c.n);
                          // Still too large with one image: shrink the image, keeping at least the
                          // dilated filter's extent.
                          const std::int64_t min_h = c.dilation * (c.r - 1) + 1, min_w = c.dilation * (c.s - 1) + 1;
                          while (flops_per_pass(c) > max_flops && (c.h > min_h || c.w > min_w)) {
                            c.h = std::max(min_h, c.h / 2);
                            c.w = std::max(min_w, c.w / 2);
                          }
                        }},
             s);
  return s;
}

}  // namespace gpuscale::workloads
