#pragma once
// Byte sizes on the command line, as nccl-tests writes them: digits with an optional binary suffix
// K, M, G or T (1024-based, either case, optionally followed by "B" or "iB"): "8", "64K", "1G",
// "512MiB". Pure functions; bad input throws harness::UsageError with one line naming the option.
#include <cstdint>
#include <string_view>
#include <utility>

namespace gpuscale::harness {

// Bytes that `text` names. Rejects empty text, signs, spaces, fractions, unknown suffixes, zero
// (unless allow_zero) and values above 2^63 - 1. `option` names the flag in the message ("-b").
std::uint64_t parse_size_bytes(std::string_view text, std::string_view option, bool allow_zero = false);

// A min..max pair (nccl-tests' -b/-e): both parsed as above, and min <= max.
std::pair<std::uint64_t, std::uint64_t> parse_size_range(std::string_view min_text, std::string_view max_text,
                                                         std::string_view min_option,
                                                         std::string_view max_option);

}  // namespace gpuscale::harness
