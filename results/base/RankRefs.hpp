#pragma once
// Where a record names a rank or a node, checked against the run's world (RunConsistency.hpp): each
// phase hands the ranks and nodes its records name to one of these (results/views/PhaseView.hpp).
#include <string>
#include <vector>

namespace gpuscale::results {

class RankRefs {
 public:
  virtual ~RankRefs() = default;
  // A world rank, or -1 where the field allows "unknown". `where` names the field ("burn[3]").
  virtual void rank(int value, const std::string& where, bool unknown_allowed = false) const = 0;
  virtual void node(int value, const std::string& where) const = 0;

  void ranks(const std::vector<int>& values, const std::string& where) const {
    for (const int v : values) rank(v, where);
  }
  void nodes(const std::vector<int>& values, const std::string& where) const {
    for (const int v : values) node(v, where);
  }
};

// "burn[3]": the element of an array as an error names it.
inline std::string element_name(const std::string& array, std::size_t i) {
  return array + "[" + std::to_string(i) + "]";
}

}  // namespace gpuscale::results
