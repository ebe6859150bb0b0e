#pragma once
// How long any single wait may take, per phase: `--timeout S` (every phase) or
// `--timeout PHASE=S,...` (those phases; items apply left to right, so "60,train=600" works).
// The phases and their defaults are the phase table's (PhaseSpec::timeout_s, each with its reason in
// the phase's folder). Pure parsing; bad input is a harness::UsageError with one line.
#include <string>

#include "launch/base/PhaseTimeouts.hpp"

namespace gpuscale::launch {

// "S" or "PHASE=S" items, comma-separated, over the defaults. Throws UsageError naming the item.
PhaseTimeouts parse_timeouts(const std::string& text);
// "env 120, links 120, compute 300, burn 120, collectives 180, train 300", in the table's order: for
// --help and messages.
std::string describe(const PhaseTimeouts& timeouts);

}  // namespace gpuscale::launch
