#include "results/base/Utf8.hpp"

#include <cstddef>
#include <cstdint>

namespace gpuscale::results {
namespace {

bool continuation(unsigned char byte, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
  return byte >= lo && byte <= hi;
}

// The length of the well-formed sequence at text[i], or 0 when the byte there starts none (Unicode's
// table of well-formed byte sequences: the second byte's range depends on the first).
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = at(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) lo = 0xA0;  // below: overlong
    if (lead == 0xED) hi = 0x9F;  // above: UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) lo = 0x90;  // below: overlong
    if (lead == 0xF4) hi = 0x8F;  // above: past U+10FFFF
  } else {
    return 0;  // a continuation byte, C0/C1 (overlong ASCII) or F5..FF
  }
  if (text.size() - i < length || !continuation(at(1), lo, hi)) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (!continuation(at(k))) return 0;
  return length;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = sequence_length(text, i);
    if (length > 0) {
      out.append(text.substr(i, length));
      i += length;
      continue;
    }
    const auto byte = static_cast<std::uint8_t>(text[i]);
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xF];
    ++i;
  }
  return out;
}

std::size_t utf8_cut(std::string_view text, std::size_t at) {
  if (at >= text.size()) return text.size();
  while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

}  // namespace gpuscale::results
