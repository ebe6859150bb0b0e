#include "judge/base/Judged.hpp"

#include <utility>

namespace gpuscale::judge {

void append(std::vector<Check>& out, std::vector<Check>&& checks) {
  for (auto& c : checks) out.push_back(std::move(c));
}

void append(Judged& out, Judged&& more) {
  append(out.checks, std::move(more.checks));
  for (auto& m : more.marks) out.marks.push_back(m);
  for (auto& o : more.outliers) out.outliers.push_back(std::move(o));
}

}  // namespace gpuscale::judge
