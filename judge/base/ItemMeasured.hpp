#pragma once
// How much of one planned item (results/base/PlanRecord.hpp) a run's records hold: each phase's rules
// count their own items (PhaseRules::measured), and the coverage list (Coverage.hpp) judges the count.
#include <string>
#include <string_view>

#include "results/base/PlanRecord.hpp"

namespace gpuscale::judge {

// `done` of the item's `total` measurements have a record; `skipped` is a record's own reason for those
// that do not (out of memory, a strategy that cannot run here), "" when no record gives one.
struct ItemMeasured {
  int done = 0;
  int total = 1;
  std::string skipped;
};

// What the coverage says of a planned item beyond its count: its phase's (PhaseRules::item_traits).
struct ItemTraits {
  // It times links between GPUs: over one rank it has none to time, and is skipped saying `one_rank`.
  bool measures_links = false;
  std::string_view one_rank = "one rank: no link to measure";
  // Over two or more GPUs the job needs it (collectives, DDP): dropped there, it fails --require-complete.
  bool needed_over_gpus = false;
  std::string_view unit;  // what its count counts ("size", "round"); "": a bare number
};

// An item measured whole or not at all: 1 of 1 when `yes`, else 0 of 1.
ItemMeasured measured_if(bool yes);

// The item's value of label `key` ("op", "precision", ...), "" when it has none.
std::string item_label(const results::PlannedItem& item, const char* key);

// Keeps the first reason a record gives for a measurement it skipped.
void note_item_skip(ItemMeasured& m, const std::string& reason);

}  // namespace gpuscale::judge
