// libFuzzer target: the run-report reader (what `gpuscale report` and `compare` read). Any input may
// be rejected with std::runtime_error; nothing may crash, and what is accepted must survive a write
// and a read unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

#include "results/report/JsonReporter.hpp"
#include "results/schema/RunReport.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuscale::results;
  const std::string text(reinterpret_cast<const char*>(data), size);
  RunReport report;
  try {
    report = parse_report_text(text, "input");
  } catch (const std::runtime_error&) {
    return 0;
  }
  const std::string once = report_text(report);
  const std::string again = report_text(parse_report_text(once, "round trip"));
  if (once != again) __builtin_trap();
  return 0;
}
