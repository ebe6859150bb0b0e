#include "harness/SizeParse.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/Error.hpp"

namespace gpuscale::harness {
namespace {

std::uint64_t parse(const std::string& text) { return parse_size_bytes(text, "-b"); }

// The message of the UsageError that `text` raises; fails the test if none.
std::string rejection(const std::string& text) {
  try {
    parse(text);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "'" << text << "' was accepted";
  return {};
}

TEST(SizeParse, PlainNumbersAreBytes) {
  EXPECT_EQ(parse("1"), 1u);
  EXPECT_EQ(parse("8"), 8u);
  EXPECT_EQ(parse("1000"), 1000u);
  EXPECT_EQ(parse("007"), 7u);
  EXPECT_EQ(parse("8B"), 8u);
  EXPECT_EQ(parse("8b"), 8u);
}

TEST(SizeParse, SuffixesAreBinaryInEitherCase) {
  EXPECT_EQ(parse("1K"), 1024u);
  EXPECT_EQ(parse("1k"), 1024u);
  EXPECT_EQ(parse("64K"), 64u * 1024);
  EXPECT_EQ(parse("16M"), 16ull << 20);
  EXPECT_EQ(parse("16m"), 16ull << 20);
  EXPECT_EQ(parse("1G"), 1ull << 30);
  EXPECT_EQ(parse("8g"), 8ull << 30);
  EXPECT_EQ(parse("2T"), 2ull << 40);
  EXPECT_EQ(parse("1KB"), 1024u);
  EXPECT_EQ(parse("1kb"), 1024u);
  EXPECT_EQ(parse("512MiB"), 512ull << 20);
  EXPECT_EQ(parse("1GIB"), 1ull << 30);
}

TEST(SizeParse, LargestValueFitsAndOneMoreDoesNot) {
  EXPECT_EQ(parse("9223372036854775807"), 9223372036854775807ull);
  EXPECT_NE(rejection("9223372036854775808").find("too large"), std::string::npos);
  EXPECT_EQ(parse("8388607T"), 8388607ull << 40);
  EXPECT_NE(rejection("8388608T").find("too large"), std::string::npos);
  EXPECT_NE(rejection("18446744073709551616").find("too large"), std::string::npos);
  EXPECT_NE(rejection("99999999999999999999999999999").find("too large"), std::string::npos);
  EXPECT_NE(rejection("17179869184G").find("too large"), std::string::npos);
}

TEST(SizeParse, ZeroIsRejectedUnlessAllowed) {
  EXPECT_NE(rejection("0").find("more than zero"), std::string::npos);
  EXPECT_NE(rejection("0K").find("more than zero"), std::string::npos);
  EXPECT_EQ(parse_size_bytes("0", "-b", true), 0u);
  EXPECT_EQ(parse_size_bytes("0G", "-b", true), 0u);
}

TEST(SizeParse, NegativeAndSignedAreRejected) {
  EXPECT_NE(rejection("-1").find("negative"), std::string::npos);
  EXPECT_NE(rejection("-0").find("negative"), std::string::npos);
  EXPECT_NE(rejection("+1").find("not a number"), std::string::npos);
}

TEST(SizeParse, GarbageIsRejected) {
  for (const char* text : {"", " ", " 8", "8 ", "abc", "K", "1.5M", "1e6", "0x10", "8KK", "8Ki", "8iB", "8X",
                           "8KBB", "8 K", "1,024", "8\n", "nan", "inf", "1KiBB", "1Kb2"}) {
    EXPECT_THROW(parse(text), UsageError) << "'" << text << "'";
  }
  EXPECT_THROW(parse(std::string("8\0K", 3)), UsageError);
}

TEST(SizeParse, MessageIsOneLineNamingOptionAndInput) {
  const std::string message = rejection("12Q");
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_EQ(message.rfind("-b '12Q': unknown suffix", 0), 0u) << message;
  const std::string control = rejection("1\n2");
  EXPECT_EQ(control.find('\n'), std::string::npos) << control;
  const std::string longer = rejection(std::string(200, 'x'));
  EXPECT_LT(longer.size(), 120u);
}

// --scaling-sizes: every item in the one syntax; zero, empty items and an empty list refused.
TEST(SizeParse, ListsParseEveryItem) {
  EXPECT_EQ(parse_size_list("8,1M,512MiB", "--scaling-sizes"),
            (std::vector<std::uint64_t>{8, 1u << 20, 512ull << 20}));
  EXPECT_EQ(parse_size_list("64K", "--scaling-sizes"), std::vector<std::uint64_t>{65536});
  for (const char* bad : {"", "0", "8,0", "8,", ",8", "8,,1M", "8,x", "8;16", "8,9223372036854775808"})
    EXPECT_THROW(parse_size_list(bad, "--scaling-sizes"), UsageError) << "'" << bad << "'";
  EXPECT_EQ(parse_size_list("0,8", "--x", true), (std::vector<std::uint64_t>{0, 8}));
  try {
    parse_size_list("8,0", "--scaling-sizes");
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--scaling-sizes '0': must be more than zero", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace gpuscale::harness
