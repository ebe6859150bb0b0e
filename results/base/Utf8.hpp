#pragma once
// Text from outside the program (environment variables, host, CPU and GPU names, library version
// strings, file paths, the command line) as it enters the RunReport: JSON holds only valid UTF-8, and
// one foreign byte must not end the job. Pure functions.
#include <cstddef>
#include <string>
#include <string_view>

namespace gpuscale::results {

// `text` with every byte that does not belong to a well-formed UTF-8 sequence (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF, no truncated sequence) written as the four characters
// \xHH (lower-case hex). Valid text, multibyte characters included, comes back unchanged. Escaping
// rather than U+FFFD keeps two values that differ in a foreign byte different, so the cross-rank
// consistency checks still see the difference.
std::string valid_utf8(std::string_view text);

// Where `text` may be cut at or before byte `at` without splitting a UTF-8 character: `at` moved back
// past continuation bytes (at most text.size()).
std::size_t utf8_cut(std::string_view text, std::size_t at);

}  // namespace gpuscale::results
