#include "results/base/Utf8.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpuscale::results {
namespace {

TEST(Utf8, ValidTextIsUnchanged) {
  const std::vector<std::string> texts = {"",         "plain ascii",  "r\xc3\xa9sultat", "\xe2\x82\xac 5",
                                          "\xf0\x9f\x9a\x80", "\xed\x9f\xbf", "\xee\x80\x80",     "\xf4\x8f\xbf\xbf",
                                          std::string("a\0b", 3)};
  for (const auto& text : texts)
    EXPECT_EQ(valid_utf8(text), text) << text;
}

TEST(Utf8, InvalidBytesAreEscapedAsHex) {
  EXPECT_EQ(valid_utf8("r\xe9sultat"), "r\\xe9sultat");  // Latin-1
  EXPECT_EQ(valid_utf8("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(valid_utf8("\x80 lone continuation"), "\\x80 lone continuation");
  EXPECT_EQ(valid_utf8("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");  // past F4: no such lead byte
}

TEST(Utf8, TruncatedSequencesAreEscapedByteByByte) {
  EXPECT_EQ(valid_utf8("\xc3"), "\\xc3");                    // at the end
  EXPECT_EQ(valid_utf8("\xe2\x82"), "\\xe2\\x82");           // two of three
  EXPECT_EQ(valid_utf8("\xf0\x9f\x9a!"), "\\xf0\\x9f\\x9a!");  // cut by ASCII
  EXPECT_EQ(valid_utf8("\xe2\x82\xc3\xa9"), "\\xe2\\x82\xc3\xa9");  // the next character survives
}

TEST(Utf8, OverlongsSurrogatesAndOutOfRangeAreEscaped) {
  EXPECT_EQ(valid_utf8("\xc0\xaf"), "\\xc0\\xaf");              // '/' in two bytes
  EXPECT_EQ(valid_utf8("\xc1\xbf"), "\\xc1\\xbf");
  EXPECT_EQ(valid_utf8("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");      // '/' in three
  EXPECT_EQ(valid_utf8("\xf0\x80\x80\xaf"), "\\xf0\\x80\\x80\\xaf");  // '/' in four
  EXPECT_EQ(valid_utf8("\xed\xa0\x80"), "\\xed\\xa0\\x80");      // U+D800, a surrogate
  EXPECT_EQ(valid_utf8("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // U+110000
}

// What the escaping is for: the result is always something nlohmann can write, and distinct inputs
// stay distinct.
TEST(Utf8, ResultAlwaysSerialises) {
  std::string every_byte;
  for (int b = 0; b < 256; ++b) every_byte += static_cast<char>(b);
  EXPECT_NO_THROW(nlohmann::json(valid_utf8(every_byte)).dump());
  EXPECT_THROW(nlohmann::json(every_byte).dump(), nlohmann::json::type_error);
  EXPECT_NE(valid_utf8("r\xe9sultat"), valid_utf8("r\xe8sultat"));
}

// A cut never splits a character: "é" is two bytes, so a cut inside it moves back to its start.
TEST(Utf8, CutMovesBackToAWholeCharacter) {
  const std::string text = "ab\xc3\xa9" "cd";  // "abécd"
  EXPECT_EQ(utf8_cut(text, 2), 2u);
  EXPECT_EQ(utf8_cut(text, 3), 2u);
  EXPECT_EQ(utf8_cut(text, 4), 4u);
  EXPECT_EQ(utf8_cut(text, 99), text.size());
}

}  // namespace
}  // namespace gpuscale::results
