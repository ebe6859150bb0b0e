#pragma once
// Text from outside the program (environment variables, host, CPU and GPU names, library version
// strings, file paths, the command line) as it enters the RunReport: JSON holds only valid UTF-8, and
// one foreign byte must not end the job. Pure functions.
#include <string>
#include <string_view>

namespace gpuscale::results {

// `text` with every byte that does not belong to a well-formed UTF-8 sequence (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF, no truncated sequence) written as the four characters
// \xHH (lower-case hex). Valid text, multibyte characters included, comes back unchanged. Escaping
// rather than U+FFFD keeps two values that differ in a foreign byte different, so the cross-rank
// consistency checks still see the difference.
std::string valid_utf8(std::string_view text);

}  // namespace gpuscale::results
