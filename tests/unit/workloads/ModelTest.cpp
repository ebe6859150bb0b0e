#include "workloads/train/Model.hpp"

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "workloads/train/Network.hpp"

namespace gpuscale::workloads {
namespace {

TEST(Model, MlpPresetCountsMatchDesign) {
  const Model m = make_model("mlp", {});
  EXPECT_EQ(m.layers.size(), 8u);
  EXPECT_EQ(m.default_batch, 256);
  EXPECT_EQ(parameter_count(m), 8LL * 4096 * 4096);  // 134M parameters, 537 MB of fp32 gradients
  // forward + backward weight on 8 layers, backward data on 7: 23 GEMMs of 2 * 256 * 4096^2.
  EXPECT_DOUBLE_EQ(step_flops(m, 256), 23 * 2.0 * 256 * 4096 * 4096);
}

TEST(Model, CnnPresetShapes) {
  const Model m = make_model("cnn", {});
  const auto shapes = shapes_at(m, 32);
  ASSERT_EQ(shapes.size(), 8u);
  const auto& c = std::get<Conv2dShape>(shapes[3]);
  EXPECT_EQ(c.n, 32);
  EXPECT_EQ(c.c, 256);
  EXPECT_EQ(c.p(), 56);
  EXPECT_EQ(parameter_count(m), 8LL * 256 * 256 * 9);
}

TEST(Model, Resnet50HasItsRealLayers) {
  const Model m = make_model("resnet50", {});
  EXPECT_EQ(m.layers.size(), 54u);  // 53 convolutions + fc
  EXPECT_EQ(parameter_count(m), 25502912LL);  // torchvision's 25,557,032 minus biases and batch norm
  EXPECT_EQ(input_elements(m.layers.front().shape), 3 * 224 * 224);
  EXPECT_EQ(output_elements(m.layers.back().shape), 1000);
}

TEST(Model, TransformerBlockGemms) {
  const Model m = make_model("transformer", {1, 64, Layout::nchw});
  ASSERT_EQ(m.layers.size(), 4u);
  EXPECT_EQ(std::get<LinearShape>(m.layers[0].shape), (LinearShape{2048, 192, 64}));
  EXPECT_EQ(std::get<LinearShape>(m.layers[3].shape), (LinearShape{2048, 64, 256}));
  EXPECT_EQ(parameter_count(m), 12LL * 64 * 64);
}

TEST(Model, DepthWidthAndBadNames) {
  const Model m = make_model("mlp", {3, 16, Layout::nchw});
  EXPECT_EQ(m.layers.size(), 3u);
  EXPECT_EQ(parameter_count(m), 3 * 16 * 16);
  EXPECT_THROW(make_model("vgg", {}), harness::UsageError);
  EXPECT_THROW(make_model("mlp", {-1, 0, Layout::nchw}), harness::UsageError);
  EXPECT_EQ(parse_model_list("all").size(), 4u);
  EXPECT_THROW(parse_model_list("mlp,bogus"), harness::UsageError);
}

TEST(Model, PaddedParametersKeepSixteenByteAlignment) {
  const Model m = make_model("resnet50", {});
  for (auto n : padded_layer_elements(m)) EXPECT_EQ(n % 8, 0u);
  const auto padded = padded_layer_elements(make_model("mlp", {1, 3, Layout::nchw}));
  EXPECT_EQ(padded, (std::vector<std::size_t>{16}));  // 9 parameters padded to 16
}

}  // namespace
}  // namespace gpuscale::workloads
