#pragma once
// The report files (and folders of files) a run (and `gpuscale report`) can write, one line each: the option that names
// the file, its help, where the parsed path is kept and the reporter that writes it. The CLI, the path checks and the
// writer read this one table, so an output is added here and nowhere else.
#include <memory>
#include <span>
#include <string>

#include "launch/base/Invocation.hpp"
#include "results/render/Reporter.hpp"
#include "results/report/Expectations.hpp"

namespace gpuscale::launch {

struct Output {
  const char* option;  // "json": --json FILE
  const char* help;
  std::string CommonOptions::*path;
  std::unique_ptr<results::Reporter> (*reporter)(const results::Expectations& expectations);
  // An output that is a folder of files (--prom-dir DIR) writes them itself; reporter is then null.
  void (*write_folder)(const results::RunReport& report, const std::string& folder);
};

// In the order of --help and of the writes.
std::span<const Output> outputs();

}  // namespace gpuscale::launch
