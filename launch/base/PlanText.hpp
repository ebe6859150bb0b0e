#pragma once
// Pieces of the start-up line that several phases' parts share (PhaseSpec::describe).
#include <string>
#include <vector>

#include "workloads/layers/Precision.hpp"

namespace gpuscale::launch {

// "2+5 calls": warm-up + timed counts.
inline std::string counts_text(int warmup, int timed, const char* what) {
  return std::to_string(warmup) + "+" + std::to_string(timed) + " " + what;
}

// "tf32,bf16".
inline std::string precision_list_text(const std::vector<workloads::Precision>& precisions) {
  std::string text;
  for (const auto p : precisions) text += (text.empty() ? "" : ",") + std::string(workloads::to_string(p));
  return text;
}

}  // namespace gpuscale::launch
