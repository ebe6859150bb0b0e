#pragma once
// The judge's marks in a run's JSON (RecordMarks.hpp): each is written in the object of the record it
// marks, under its MarkKey's key, as it was when the records held them, so that readers of the file
// (pandas, jq, the tests) find a record's marks beside its figures; reading the file takes them back
// out into the marks. Below the phases: a phase's keys come from its records' header.
#include <cstddef>
#include <span>

#include <nlohmann/json.hpp>

#include "results/base/RecordMarks.hpp"

namespace gpuscale::results {

// Writes the marks of one phase (`keys`, all of that phase) into its JSON `phase` (the list of its
// records, or the object that holds its lists; null: the phase has no records, nothing is written).
void write_marks(nlohmann::json& phase, std::span<const MarkKey> keys, const RecordMarks& marks);
// The same for one record of a phase whose JSON is its list, the index-th (written one at a time).
void write_record_marks(nlohmann::json& record, std::size_t index, std::span<const MarkKey> keys,
                        const RecordMarks& marks);

// Takes the marks of `keys` from the phase's JSON into `out`. A key that holds neither a bool (a flag)
// nor a number or null (a value) throws std::invalid_argument, naming it.
void read_marks(const nlohmann::json& phase, std::span<const MarkKey> keys, RecordMarks& out);
void read_record_marks(const nlohmann::json& record, std::size_t index, std::span<const MarkKey> keys,
                       RecordMarks& out);

}  // namespace gpuscale::results
