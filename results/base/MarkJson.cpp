#include "results/base/MarkJson.hpp"

#include <stdexcept>
#include <string>

namespace gpuscale::results {
namespace {

using json = nlohmann::json;

// The array at `path` ("a/b": the array under "b" of the object under "a") in `root`; nullptr where
// there is none.
template <class Json>
Json* list_at(Json& root, std::string_view path) {
  Json* node = &root;
  while (!path.empty()) {
    const auto slash = path.find('/');
    const std::string key(path.substr(0, slash));
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  return node->is_array() ? node : nullptr;
}

void write_one(json& object, const MarkKey& k, const RecordMark* mark) {
  if (!object.is_object()) return;
  const std::string key(k.key);
  if (mark)
    object[key] = k.valued ? json(mark->value) : json(true);
  else if (k.unmarked == Unmarked::written)
    object[key] = k.valued ? json(nullptr) : json(false);
}

// Writes `k`'s mark of the record `record`, the index-th of its list (and of each of its entries).
void write_key(json& record, std::size_t index, const MarkKey& k, const RecordMarks& marks) {
  if (k.entries.empty()) {
    write_one(record, k, marks.find(k.phase, k.kind, index, 0));
    return;
  }
  auto* entries = list_at(record, k.entries);
  if (!entries) return;
  for (std::size_t e = 0; e < entries->size(); ++e) write_one((*entries)[e], k, marks.find(k.phase, k.kind, index, e));
}

void read_one(const json& object, const MarkKey& k, std::size_t index, std::size_t rank_index, RecordMarks& out) {
  if (!object.is_object()) return;
  const auto it = object.find(std::string(k.key));
  if (it == object.end() || it->is_null()) return;
  if (k.valued ? !it->is_number() : !it->is_boolean())
    throw std::invalid_argument("the mark \"" + std::string(k.key) + "\" of " + std::string(k.phase) + " holds " +
                                it->dump() + ", not a " + (k.valued ? "number" : "bool"));
  if (k.valued)
    out.add({k.phase, k.kind, index, rank_index, it->get<double>()});
  else if (it->get<bool>())
    out.add({k.phase, k.kind, index, rank_index, 0});
}

void read_key(const json& record, std::size_t index, const MarkKey& k, RecordMarks& out) {
  if (k.entries.empty()) {
    read_one(record, k, index, 0, out);
    return;
  }
  if (const auto* entries = list_at(record, k.entries))
    for (std::size_t e = 0; e < entries->size(); ++e) read_one((*entries)[e], k, index, e, out);
}

}  // namespace

void write_marks(json& phase, std::span<const MarkKey> keys, const RecordMarks& marks) {
  for (const auto& k : keys)
    if (auto* list = list_at(phase, k.list))
      for (std::size_t i = 0; i < list->size(); ++i) write_key((*list)[i], i, k, marks);
}

void write_record_marks(json& record, std::size_t index, std::span<const MarkKey> keys, const RecordMarks& marks) {
  for (const auto& k : keys)
    if (k.list.empty()) write_key(record, index, k, marks);
}

void read_marks(const json& phase, std::span<const MarkKey> keys, RecordMarks& out) {
  for (const auto& k : keys)
    if (const auto* list = list_at(phase, k.list))
      for (std::size_t i = 0; i < list->size(); ++i) read_key((*list)[i], i, k, out);
}

void read_record_marks(const json& record, std::size_t index, std::span<const MarkKey> keys, RecordMarks& out) {
  for (const auto& k : keys)
    if (k.list.empty()) read_key(record, index, k, out);
}

}  // namespace gpuscale::results
