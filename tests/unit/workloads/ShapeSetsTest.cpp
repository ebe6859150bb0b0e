#include "workloads/layers/ShapeSets.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "workloads/layers/ReferenceVerification.hpp"

namespace gpuscale::workloads {
namespace {

TEST(ShapeSets, ResNet50HasFiftyThreeConvolutionsAndFc) {
  // Every layer appears once in the set, identical shapes folded: the counts add up to 53 + fc.
  int layers = 0;
  bool fc = false;
  for (const auto& s : shape_set("resnet50", Layout::nhwc)) {
    const auto x = s.name.find("(x");
    layers += x == std::string::npos ? 1 : std::stoi(s.name.substr(x + 2));
    if (std::holds_alternative<LinearShape>(s.shape)) {
      fc = true;
      EXPECT_EQ(std::get<LinearShape>(s.shape), (LinearShape{64, 1000, 2048}));
    } else {
      EXPECT_EQ(std::get<Conv2dShape>(s.shape).layout, Layout::nhwc);
      EXPECT_NO_THROW(validate(s.shape)) << s.name;
    }
  }
  EXPECT_TRUE(fc);
  EXPECT_EQ(layers, 54);
  const auto first = shape_set("resnet50", Layout::nchw).front();
  EXPECT_EQ(first.name, "conv1");
  EXPECT_EQ(std::get<Conv2dShape>(first.shape).p(), 112);
}

TEST(ShapeSets, PresetsMatchTheTrainingDesign) {
  EXPECT_EQ(shape_set("mlp", Layout::nchw).front().shape, (LayerShape{LinearShape{256, 4096, 4096}}));
  EXPECT_EQ(shape_set("cnn", Layout::nchw).front().shape,
            (LayerShape{Conv2dShape{32, 256, 56, 56, 256, 3, 3, 1, 1, 1, Layout::nchw}}));
  EXPECT_EQ(shape_set("default", Layout::nchw).size(), 2u);
  EXPECT_EQ(shape_set("transformer", Layout::nchw).size(), 4u);
  EXPECT_EQ(shape_sets("mlp,mlp,cnn", Layout::nchw).size(), 2u);
  EXPECT_THROW(shape_sets("mlp,vgg", Layout::nchw), harness::UsageError);
}

TEST(ShapeSets, CheckShapeShrinksToTheBudget) {
  const LayerShape big = LinearShape{4096, 4096, 4096};
  const auto small = std::get<LinearShape>(verification_shape(big, 4e9));
  EXPECT_EQ(small.n, 4096);
  EXPECT_EQ(small.k, 4096);
  EXPECT_LE(flops_per_pass(LayerShape{small}), 4e9);
  EXPECT_GT(small.m, 50);
  const LayerShape conv = Conv2dShape{32, 256, 56, 56, 256, 3, 3, 1, 1, 1};
  const auto c = std::get<Conv2dShape>(verification_shape(conv, 1e9));
  EXPECT_EQ(c.n, 1);
  EXPECT_EQ(c.c, 256);
  EXPECT_LE(flops_per_pass(LayerShape{c}), 1e9);
  EXPECT_EQ(verification_shape(LayerShape{LinearShape{8, 8, 8}}, 4e9), (LayerShape{LinearShape{8, 8, 8}}));
}

TEST(ReferenceVerification, RelativeErrorAndLimits) {
  const std::vector<double> ref = {3, 4}, same = {3, 4}, off = {3, 4.05};
  EXPECT_EQ(relative_error(same, ref), 0.0);
  EXPECT_NEAR(relative_error(off, ref), 0.01, 1e-12);
  const std::vector<double> nan = {3, std::nan("")};
  EXPECT_TRUE(std::isnan(relative_error(nan, ref)));
  EXPECT_FALSE(within_limit(std::nan(""), 1.0));
  // Every precision's limit: an error just inside passes, just outside fails.
  for (Precision p : kAllPrecisions) {
    const double limit = relative_error_limit(p);
    EXPECT_TRUE(within_limit(limit * 0.99, limit)) << to_string(p);
    EXPECT_FALSE(within_limit(limit * 1.01, limit)) << to_string(p);
  }
  // bf16 rounding of a result (about 2^-9 relative) passes bf16 but would fail fp32 and tf32.
  EXPECT_TRUE(within_limit(2e-3, relative_error_limit(Precision::bf16)));
  EXPECT_FALSE(within_limit(2e-3 * 1.5, relative_error_limit(Precision::tf32)));
  EXPECT_FALSE(within_limit(1e-4, relative_error_limit(Precision::fp32)));
}

}  // namespace
}  // namespace gpuscale::workloads
