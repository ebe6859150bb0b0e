#include "judge/base/ItemMeasured.hpp"

namespace gpuscale::judge {

ItemMeasured measured_if(bool yes) { return ItemMeasured{yes ? 1 : 0, 1, ""}; }

std::string item_label(const results::PlannedItem& item, const char* key) {
  const auto it = item.labels.find(key);
  return it == item.labels.end() ? std::string() : it->second;
}

void note_item_skip(ItemMeasured& m, const std::string& reason) {
  if (!reason.empty() && m.skipped.empty()) m.skipped = reason;
}

}  // namespace gpuscale::judge
