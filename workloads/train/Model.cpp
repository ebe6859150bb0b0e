#include "workloads/train/Model.hpp"

#include "harness/Error.hpp"
#include "workloads/layers/ShapeSets.hpp"

namespace gpuscale::workloads {
namespace {

using harness::UsageError;

Model mlp(int depth, int width) {
  Model m{"mlp", {}, 256};
  for (int i = 0; i < depth; ++i) m.layers.push_back({"fc" + std::to_string(i), LinearShape{1, width, width}});
  return m;
}

Model cnn(int depth, int width, Layout layout) {
  Model m{"cnn", {}, 32};
  for (int i = 0; i < depth; ++i)
    m.layers.push_back({"conv" + std::to_string(i), Conv2dShape{1, width, 56, 56, width, 3, 3, 1, 1, 1, layout}});
  return m;
}

// torchvision v1.5 (ShapeSets' list): each stage's first block has a downsample conv, here after the
// block's conv3 (it reads that output cyclically: a join). Shapes at batch 1.
Model resnet50(Layout layout) {
  Model m{"resnet50", {}, 64};
  for (auto& s : resnet50_shapes(layout)) {
    std::visit(Overloaded{[](LinearShape& l) { l.m = 1; }, [](Conv2dShape& c) { c.n = 1; }}, s.shape);
    m.layers.push_back({std::move(s.name), s.shape});
  }
  return m;
}

Model transformer(int depth, int width) {
  Model m{"transformer", {}, 8};
  constexpr std::int64_t tokens = 2048;
  const std::int64_t d = width;
  for (int i = 0; i < depth; ++i) {
    const std::string p = "block" + std::to_string(i) + ".";
    m.layers.push_back({p + "qkv", LinearShape{tokens, 3 * d, d}});
    m.layers.push_back({p + "attn_out", LinearShape{tokens, d, d}});
    m.layers.push_back({p + "mlp_up", LinearShape{tokens, 4 * d, d}});
    m.layers.push_back({p + "mlp_down", LinearShape{tokens, d, 4 * d}});
  }
  return m;
}

LayerShape with_batch(LayerShape shape, std::int64_t batch) {
  std::visit(Overloaded{[batch](LinearShape& l) { l.m *= batch; }, [batch](Conv2dShape& c) { c.n = batch; }}, shape);
  return shape;
}

}  // namespace

Model make_model(std::string_view preset, const ModelOptions& o) {
  if ((o.depth && (*o.depth < 1 || *o.depth > kMaxDepth)) || (o.width && (*o.width < 1 || *o.width > kMaxWidth)))
    throw UsageError("--depth must be in 1.." + std::to_string(kMaxDepth) + " and --width in 1.." +
                     std::to_string(kMaxWidth));
  if (preset == "mlp") return mlp(o.depth.value_or(8), o.width.value_or(4096));
  if (preset == "cnn") return cnn(o.depth.value_or(8), o.width.value_or(256), o.layout);
  if (preset == "resnet50") return resnet50(o.layout);
  if (preset == "transformer") return transformer(o.depth.value_or(2), o.width.value_or(1024));
  throw UsageError("unknown model '" + std::string(preset) + "' (use mlp, cnn, resnet50, transformer or all)");
}

std::vector<std::string> parse_model_list(std::string_view text) {
  if (text == "all") return {"mlp", "cnn", "resnet50", "transformer"};
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    const std::string name(text.substr(start, comma - start));
    make_model(name, {});  // validates the name
    out.push_back(name);
    start = comma + 1;
  }
  return out;
}

std::vector<LayerShape> shapes_at(const Model& model, std::int64_t batch) {
  std::vector<LayerShape> out;
  for (const auto& l : model.layers) out.push_back(with_batch(l.shape, batch));
  return out;
}

std::int64_t parameter_count(const Model& model) {
  std::int64_t n = 0;
  for (const auto& l : model.layers) n += weight_elements(l.shape);
  return n;
}

double step_flops(const Model& model, std::int64_t batch) {
  double total = 0;
  const auto shapes = shapes_at(model, batch);
  for (std::size_t i = 0; i < shapes.size(); ++i) total += flops_per_pass(shapes[i]) * (i == 0 ? 2 : 3);
  return total;
}

}  // namespace gpuscale::workloads
