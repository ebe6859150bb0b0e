#include "harness/DataType.hpp"

#include <gtest/gtest.h>

#include "harness/Error.hpp"

namespace gpuscale::harness {
namespace {

TEST(DataType, NcclTestsNamesAndSizes) {
  EXPECT_EQ(parse_data_type("float"), DataType::float32);
  EXPECT_EQ(parse_data_type("half"), DataType::float16);
  EXPECT_EQ(parse_data_type("bfloat16"), DataType::bfloat16);
  EXPECT_EQ(parse_data_type("double"), DataType::float64);
  EXPECT_EQ(parse_data_type("int8"), DataType::int8);
  EXPECT_EQ(size_of(DataType::bfloat16), 2u);
  EXPECT_EQ(size_of(DataType::uint64), 8u);
  EXPECT_EQ(to_string(DataType::float32), "float");
}

TEST(DataType, UnknownNamesAreUsageErrors) {
  EXPECT_THROW(parse_data_type("float128"), UsageError);
  EXPECT_THROW(parse_red_op("mean"), UsageError);
  EXPECT_EQ(parse_red_op("avg"), RedOp::avg);
}

}  // namespace
}  // namespace gpuscale::harness
