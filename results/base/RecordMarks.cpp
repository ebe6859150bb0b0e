#include "results/base/RecordMarks.hpp"

namespace gpuscale::results {

RecordMarks::RecordMarks(std::span<const RecordMark> marks) {
  for (const auto& m : marks) add(m);
}

void RecordMarks::add(const RecordMark& mark) {
  marks_.insert_or_assign(Key{mark.phase, mark.kind, mark.index, mark.rank_index}, mark);
}

std::vector<RecordMark> RecordMarks::all() const {
  std::vector<RecordMark> out;
  out.reserve(marks_.size());
  for (const auto& [key, m] : marks_) out.push_back(m);
  return out;
}

const RecordMark* RecordMarks::find(std::string_view phase, int kind, std::size_t index, std::size_t rank_index) const {
  const auto it = marks_.find(Key{phase, kind, index, rank_index});
  return it == marks_.end() ? nullptr : &it->second;
}

}  // namespace gpuscale::results
