// libFuzzer target: the one byte-size syntax every option reads (-b, -e, --scaling-sizes, ...).
// Rejections are UsageError; an accepted size is at most 2^63-1 bytes and its decimal form parses
// back to the same value; a list holds no zero.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "harness/Error.hpp"
#include "harness/SizeParse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuscale::harness;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const std::uint64_t bytes = parse_size_bytes(text, "-b", size % 2 == 0);
    if (bytes > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) __builtin_trap();
    if (parse_size_bytes(std::to_string(bytes), "-b", true) != bytes) __builtin_trap();
  } catch (const UsageError&) {
  }
  try {
    for (const std::uint64_t item : parse_size_list(text, "--scaling-sizes"))
      if (item == 0 || item > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) __builtin_trap();
  } catch (const UsageError&) {
  }
  return 0;
}
