#include "results/base/Format.hpp"

#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "results/base/Markup.hpp"
#include "results/base/ReadableNumber.hpp"

namespace gpuscale::results {
namespace {

TEST(Format, PciBusIdsOfNvmlAndCudaAgree) {
  EXPECT_EQ(normalize_pci_bus_id("00000000:19:00.0"), "0000:19:00.0");
  EXPECT_EQ(normalize_pci_bus_id("0000:3B:00.0"), "0000:3b:00.0");
}

// The cpu backend's small figures keep three significant digits; a GPU's keep one decimal.
TEST(Format, TflopsCellsKeepThreeDigitsBelowTen) {
  EXPECT_EQ(tflops_cell(0.012345), "0.0123");
  EXPECT_EQ(tflops_cell(9.876), "9.88");
  EXPECT_EQ(tflops_cell(812.34), "812.3");
  EXPECT_EQ(tflops_cell(std::nan("")), "-");
}

TEST(Format, PluralUnlessOne) {
  EXPECT_EQ(plural(1, "rank"), "1 rank");
  EXPECT_EQ(plural(0, "rank"), "0 ranks");
  EXPECT_EQ(plural(8, "GPU"), "8 GPUs");
  EXPECT_EQ(plural(1, "check pass", "check passes"), "1 check pass");
  EXPECT_EQ(plural(2, "check pass", "check passes"), "2 check passes");
}

TEST(Format, FixedAndGiB) {
  EXPECT_EQ(fixed(1.23456, 2), "1.23");
  EXPECT_EQ(fixed(std::nan(""), 2), "-");
  EXPECT_EQ(gib(3ull << 30), "3.0");
}

// Numbers as a person writes them in the HTML's tables, not as SI prefixes ("891m" for 89.1%).
TEST(Format, ReadableWritesRatiosAsPercentAndTimesInTheirUnit) {
  EXPECT_EQ(readable(0.891, "ratio"), "89.1%");
  EXPECT_EQ(readable(0.008, "ratio"), "0.8%");
  EXPECT_EQ(readable(1.25, "ratio"), "125%");
  EXPECT_EQ(readable(0.0224, "s"), "22.4 ms");
  EXPECT_EQ(readable(20.2e-6, "s"), "20.2 \u00b5s");
  EXPECT_EQ(readable(3.5, "s"), "3.5 s");
  EXPECT_EQ(readable(4.2e-9, "s"), "4.2 ns");
  EXPECT_EQ(readable(55.21, "GB/s"), "55.2");
  EXPECT_EQ(readable(891.4, "TFLOP/s"), "891");
  EXPECT_EQ(readable(4270.4, "GB/s"), "4270");
  EXPECT_EQ(readable(0.52, "GB/s"), "0.52");
  EXPECT_EQ(readable(64.0 * 1024 * 1024, "B"), "64 MiB");
  EXPECT_EQ(readable(512, "B"), "512 B");
  EXPECT_EQ(readable(std::nan(""), "s"), "-");
  EXPECT_EQ(readable_unit("ratio"), "%");
  EXPECT_EQ(readable_unit("s"), "");
  EXPECT_EQ(readable_unit("GB/s"), "GB/s");
}

TEST(Format, ReadableWithUnitSaysTheUnitWhereNoHeaderDoes) {
  EXPECT_EQ(readable_with_unit(4220, "GB/s"), "4220 GB/s");
  EXPECT_EQ(readable_with_unit(500e-6, "s"), "500 \u00b5s");
  EXPECT_EQ(readable_with_unit(0.0015, "s"), "1.5 ms");
  EXPECT_EQ(readable_with_unit(0.8, "ratio"), "80%");
  EXPECT_EQ(readable_with_unit(64.0 * 1024 * 1024, "B"), "64 MiB");
  EXPECT_EQ(readable_with_unit(8, "count"), "8");
  EXPECT_EQ(readable_with_unit(std::nan(""), "GB/s"), "-");
}

TEST(Markup, EscapesWhatXmlAndHtmlReserve) {
  EXPECT_EQ(markup::escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  EXPECT_EQ(markup::escape("GB/s"), "GB/s");
}

}  // namespace
}  // namespace gpuscale::results
