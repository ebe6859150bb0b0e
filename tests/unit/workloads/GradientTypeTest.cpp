#include <gtest/gtest.h>

#include "workloads/train/DdpTrainer.hpp"

namespace gpuscale::workloads {
namespace {

using harness::DataType;

DdpOptions wire(DataType type, int accum = 1) {
  DdpOptions o;
  o.grad_type = type;
  o.accum = accum;
  return o;
}

// The GEMMs write the wire type only where nothing is lost by it: bf16 compute (its gradients are
// rounded to bf16 anyway), one micro-step, and a communicator to send them on.
TEST(GradientType, Bf16WireWithBf16ComputeComesStraightOutOfTheGemms) {
  EXPECT_EQ(gradient_type(wire(DataType::bfloat16), Precision::bf16, true), DataType::bfloat16);
  EXPECT_EQ(gradient_type(wire(DataType::float16), Precision::fp16, true), DataType::float16);
}

TEST(GradientType, EverythingElseKeepsFp32Gradients) {
  EXPECT_EQ(gradient_type(DdpOptions{}, Precision::bf16, true), DataType::float32);
  EXPECT_EQ(gradient_type(wire(DataType::bfloat16), Precision::fp32, true), DataType::float32);
  EXPECT_EQ(gradient_type(wire(DataType::bfloat16), Precision::tf32, true), DataType::float32);
  EXPECT_EQ(gradient_type(wire(DataType::float16), Precision::bf16, true), DataType::float32);
  // Accumulation over micro-steps adds in fp32; the single-device baseline sends nothing.
  EXPECT_EQ(gradient_type(wire(DataType::bfloat16, 2), Precision::bf16, true), DataType::float32);
  EXPECT_EQ(gradient_type(wire(DataType::bfloat16), Precision::bf16, false), DataType::float32);
}

}  // namespace
}  // namespace gpuscale::workloads
