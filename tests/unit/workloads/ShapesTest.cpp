#include "workloads/layers/Shapes.hpp"

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "workloads/layers/Layer.hpp"
#include "workloads/layers/Precision.hpp"

namespace gpuscale::workloads {
namespace {

using harness::UsageError;

TEST(Shapes, LinearFlopsAndSizes) {
  const LayerShape s = LinearShape{256, 4096, 1024};
  EXPECT_DOUBLE_EQ(flops_per_pass(s), 2.0 * 256 * 4096 * 1024);
  EXPECT_EQ(input_elements(s), 256 * 1024);
  EXPECT_EQ(weight_elements(s), 4096 * 1024);
  EXPECT_EQ(output_elements(s), 256 * 4096);
}

TEST(Shapes, ConvOutputSizeAndFlops) {
  // ResNet-50's stem: 7x7 stride 2 pad 3 on 224x224 gives 112x112.
  Conv2dShape stem{64, 3, 224, 224, 64, 7, 7, 2, 3, 1};
  EXPECT_EQ(stem.p(), 112);
  EXPECT_EQ(stem.q(), 112);
  EXPECT_DOUBLE_EQ(flops_per_pass(stem), 2.0 * 64 * 64 * 112 * 112 * 3 * 7 * 7);
  // Dilation 2 widens a 3x3 filter to 5x5: 10 - 5 + 1 = 6 without padding.
  Conv2dShape dilated{1, 1, 10, 10, 1, 3, 3, 1, 0, 2};
  EXPECT_EQ(dilated.p(), 6);
  EXPECT_EQ(output_elements(LayerShape{dilated}), 36);
}

TEST(Shapes, ParsesMnkAndConv) {
  EXPECT_EQ(parse_mnk("4096,8192,1024"), (LinearShape{4096, 8192, 1024}));
  const auto c = parse_conv("32,256,56,56,256,3,3,1,1,1", Layout::nhwc);
  EXPECT_EQ(c, (Conv2dShape{32, 256, 56, 56, 256, 3, 3, 1, 1, 1, Layout::nhwc}));
  const auto d = parse_conv("1,256,64,64,256,3,3");
  EXPECT_EQ(d.stride, 1);
  EXPECT_EQ(d.pad, 0);
  EXPECT_EQ(d.p(), 62);
}

TEST(Shapes, BadShapesAreUsageErrors) {
  for (const char* bad : {"", "1,2", "1,2,3,4", "0,1,1", "-4,4,4", "a,b,c", "4,4,4x", "4,,4"})
    EXPECT_THROW(parse_mnk(bad), UsageError) << bad;
  for (const char* bad : {"1,2,3", "1,1,4,4,1,5,5", "1,1,4,4,1,3,3,0,0,1", "1,1,4,4,1,3,3,1,-1,1", "1,1,4,4,1,3,3,1,1",
                          "100000,100000,100,100,1,1,1"})
    EXPECT_THROW(parse_conv(bad), UsageError) << bad;
}

// Dimensions whose products overflow 64 bits are refused as too large, not wrapped past the check.
TEST(Shapes, OverflowingDimensionsAreRefused) {
  for (const char* bad : {"9223372036854775807,2,2", "4294967296,4294967296,1", "2147483648,1,1",
                          "3037000500,3037000500,1"})
    EXPECT_THROW(parse_mnk(bad), UsageError) << bad;
  for (const char* bad : {"65536,65536,65536,65536,1,1,1", "1,1,4,4,1,3,3,1,9223372036854775807,1",
                          "1,1,4,4,1,3,3,1,0,9223372036854775807", "1,1,4,4,1,9223372036854775807,3"})
    EXPECT_THROW(parse_conv(bad), UsageError) << bad;
  EXPECT_NO_THROW(parse_mnk("2147483647,1,1"));
}

TEST(Shapes, Describe) {
  EXPECT_EQ(describe(LinearShape{1, 2, 3}), "M1 N2 K3");
  EXPECT_EQ(describe(Conv2dShape{32, 256, 56, 56, 256, 3, 3, 1, 1, 1, Layout::nhwc}),
            "N32 C256 H56 W56 K256 R3 S3 s1 p1 d1 nhwc");
  EXPECT_EQ(layer_kind(LinearShape{1, 1, 1}), "linear");
}

TEST(Precision, ParsesListsAndLimits) {
  EXPECT_EQ(parse_precision_list("fp32,bf16,fp32"), (std::vector<Precision>{Precision::fp32, Precision::bf16}));
  EXPECT_EQ(parse_precision_list("all").size(), 4u);
  EXPECT_THROW(parse_precision_list("fp32,"), UsageError);
  EXPECT_THROW(parse_precision("fp8"), UsageError);
  EXPECT_EQ(storage_type(Precision::tf32), harness::DataType::float32);
  EXPECT_EQ(storage_type(Precision::bf16), harness::DataType::bfloat16);
  EXPECT_LT(relative_error_limit(Precision::fp32), relative_error_limit(Precision::tf32));
  EXPECT_LT(relative_error_limit(Precision::tf32), relative_error_limit(Precision::bf16));
  EXPECT_DOUBLE_EQ(relative_error_limit(Precision::fp16), 1e-2);
}

TEST(LayerSpec, OutputTypesAndBytes) {
  LayerSpec spec{LinearShape{2, 3, 4}, Precision::bf16, std::nullopt, harness::DataType::float32};
  EXPECT_EQ(x_bytes(spec), 2u * 4 * 2);
  EXPECT_EQ(y_bytes(spec), 2u * 3 * 2);
  EXPECT_EQ(dw_bytes(spec), 3u * 4 * 4);
  EXPECT_NO_THROW(validate(spec));
  spec.output_type = harness::DataType::float16;
  EXPECT_THROW(validate(spec), UsageError);
  EXPECT_THROW(parse_algo_search("fastest"), UsageError);
  EXPECT_EQ(parse_algo_search("find"), AlgoSearch::find);
  EXPECT_EQ(parse_algo_search("graph"), AlgoSearch::graph);
  EXPECT_EQ(parse_algo_search("exhaustive"), AlgoSearch::exhaustive);
}

TEST(MatmulPath, ParsesItsOwnNamesOnly) {
  for (MatmulPath p : {MatmulPath::fastest, MatmulPath::lt, MatmulPath::gemmex})
    EXPECT_EQ(parse_matmul_path(to_string(p)), p);
  EXPECT_EQ(to_string(MatmulPath::gemmex), "gemmex");
  EXPECT_THROW(parse_matmul_path("auto"), UsageError);
  EXPECT_THROW(parse_matmul_path(""), UsageError);
}

}  // namespace
}  // namespace gpuscale::workloads
