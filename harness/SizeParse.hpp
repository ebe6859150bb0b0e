#pragma once
// Byte sizes on the command line, as nccl-tests writes them: digits with an optional binary suffix
// K, M, G or T (1024-based, either case, optionally followed by "B" or "iB"): "8", "64K", "1G",
// "512MiB". The one size syntax: every option that takes a byte size reads it here. Pure functions;
// bad input throws harness::UsageError with one line naming the option.
#include <cstdint>
#include <string_view>
#include <vector>

namespace gpuscale::harness {

// Bytes that `text` names. Rejects empty text, signs, spaces, fractions, unknown suffixes, zero
// (unless allow_zero) and values above 2^63 - 1. `option` names the flag in the message ("-b").
std::uint64_t parse_size_bytes(std::string_view text, std::string_view option, bool allow_zero = false);

// A comma list of sizes ("8,64K,1G"), each parsed as above; an empty list or an empty item is refused.
std::vector<std::uint64_t> parse_size_list(std::string_view text, std::string_view option, bool allow_zero = false);

}  // namespace gpuscale::harness
