#pragma once
// Records from every rank to rank 0, as JSON over World::gather_to_root: the one way a phase brings
// its plain records to the rank that reports them. Collective: every rank of the world calls it, in
// the same order; rank 0 gets every rank's record (index = rank), the other ranks an empty vector.
// Throws TimeoutError when the deadline passes first.
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/World.hpp"

namespace gpuscale::harness {

// write(const T&) -> nlohmann::json; read(const nlohmann::json&) -> T.
template <class T, class Write, class Read>
std::vector<T> gather_records(const World& world, const T& mine, const Deadline& deadline, Write&& write,
                              Read&& read) {
  const auto texts = world.gather_to_root(nlohmann::json(write(mine)).dump(), deadline);
  std::vector<T> all;
  all.reserve(texts.size());
  for (const auto& text : texts) all.push_back(read(nlohmann::json::parse(text)));
  return all;
}

// For a T with to_json/from_json (and vectors of such).
template <class T>
std::vector<T> gather_records(const World& world, const T& mine, const Deadline& deadline) {
  return gather_records(
      world, mine, deadline, [](const T& value) { return nlohmann::json(value); },
      [](const nlohmann::json& j) { return j.get<T>(); });
}

}  // namespace gpuscale::harness
