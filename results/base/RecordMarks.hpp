#pragma once
// The judge's marks on the records: its output of one record (slow, a straggler, measured beside
// another process, under the floor it set), kept beside the records and not in them, so that the
// records hold measurements only and a file read back is judged afresh. Below the phases: it names no
// phase. Each phase with marks declares them beside its records (phases/NAME/<Name>Record.hpp): an
// enum of its kinds, `phase_of` for it, and the MarkKey of each, which says where the JSON writes it
// in its record's object (MarkJson.hpp), so that readers of the file find the marks where they were.
#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

namespace gpuscale::results {

// One mark on one record, keyed by the record's place in its phase's list (`list` of its MarkKey).
struct RecordMark {
  std::string_view phase;      // the phase's name: the static text its `phase_of` returns
  int kind = 0;                // one of the phase's own marks
  std::size_t index = 0;       // the record's place in its list
  std::size_t rank_index = 0;  // its entry's place, where a record holds one per rank (train's ranks[])
  double value = 0;            // a mark that sets a figure (a floor)

  template <class Kind>
  bool is(Kind k) const {
    return phase == phase_of(k) && kind == static_cast<int>(k);
  }
};

// The mark `kind` (a phase's own enum) on the record at `index` of its list.
template <class Kind>
RecordMark record_mark(Kind kind, std::size_t index, std::size_t rank_index = 0, double value = 0) {
  return {phase_of(kind), static_cast<int>(kind), index, rank_index, value};
}

// How a record without the mark is written: without the key, or with false (a flag) or null (a value).
enum class Unmarked { omitted, written };

// Where a phase's mark of one kind is written in the JSON of its records: the key in the object of
// the record it marks (a flag: true; a valued mark: its value), in the list `list` of the phase's JSON
// ("": the phase's JSON is the list; "pairs/pairs": the array under "pairs" of the object "pairs"), or
// in the entry `entries` of that record (train's "ranks": the record's ranks[rank_index]).
struct MarkKey {
  std::string_view phase;
  int kind = 0;
  std::string_view key;
  bool valued = false;
  Unmarked unmarked = Unmarked::omitted;
  std::string_view list;
  std::string_view entries;
};

template <class Kind>
constexpr MarkKey flag_mark(Kind kind, std::string_view key, Unmarked unmarked, std::string_view list = "",
                            std::string_view entries = "") {
  return {phase_of(kind), static_cast<int>(kind), key, false, unmarked, list, entries};
}
template <class Kind>
constexpr MarkKey value_mark(Kind kind, std::string_view key, std::string_view list = "") {
  return {phase_of(kind), static_cast<int>(kind), key, true, Unmarked::written, list, ""};
}

// Records without marks (env's): no keys. A phase's records with marks declare their own overload.
template <class Records>
constexpr std::span<const MarkKey> mark_keys(const Records*) {
  return {};
}

// A run's marks: every record's, any phase's, looked up by the kind (a phase's enum) and the record.
class RecordMarks {
 public:
  RecordMarks() = default;
  explicit RecordMarks(std::span<const RecordMark> marks);

  // A second mark of the same kind on the same record replaces the first (a floor set anew).
  void add(const RecordMark& mark);

  template <class Kind>
  bool has(Kind kind, std::size_t index, std::size_t rank_index = 0) const {
    return find(phase_of(kind), static_cast<int>(kind), index, rank_index) != nullptr;
  }
  // A valued mark's value; nullopt where the record has none.
  template <class Kind>
  std::optional<double> value(Kind kind, std::size_t index) const {
    const auto* m = find(phase_of(kind), static_cast<int>(kind), index, 0);
    return m ? std::optional<double>(m->value) : std::nullopt;
  }

  // Every mark, in the order of (phase name, kind, index, rank_index).
  std::vector<RecordMark> all() const;
  bool empty() const { return marks_.empty(); }
  std::size_t size() const { return marks_.size(); }

  const RecordMark* find(std::string_view phase, int kind, std::size_t index, std::size_t rank_index) const;

 private:
  using Key = std::tuple<std::string_view, int, std::size_t, std::size_t>;
  std::map<Key, RecordMark> marks_;
};

}  // namespace gpuscale::results
