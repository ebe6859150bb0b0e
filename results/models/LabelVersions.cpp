#include "results/models/LabelVersions.hpp"

#include <cctype>

#include "results/base/FigureNames.hpp"
#include "results/schema/InputFile.hpp"

namespace gpuscale::results {
namespace {

bool is_decimal(const std::string& text) {
  if (text.empty()) return false;
  for (const char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// A version-1 pair label, "host:cpuL" or "host:N", as its new form; "" when it is not of that form.
std::string pair_label_v2(const std::string& label) {
  const auto colon = label.rfind(':');
  if (colon == std::string::npos || colon == 0) return "";
  const std::string host = label.substr(0, colon), gpu = label.substr(colon + 1);
  if (gpu.rfind("cpu", 0) == 0 && is_decimal(gpu.substr(3))) return host + "#" + gpu.substr(3);
  if (is_decimal(gpu))
    refuse_input("pair label '" + label +
                 "' (label_version 1) names a GPU by its CUDA index, which is not its local rank where each rank "
                 "sees one GPU, so it cannot be translated; make the baseline again from runs of this gpuscale");
  return "";
}

}  // namespace

void translate_labels(const std::string& metric, Labels& labels, int from_version) {
  if (from_version == kLabelVersion) return;
  if (metric != names::kPairBusBw && metric != names::kPairLatency) return;
  for (const char* key : {names::kSrc, names::kDst}) {
    const auto it = labels.find(key);
    if (it == labels.end()) continue;
    const std::string translated = pair_label_v2(it->second);
    if (!translated.empty()) it->second = translated;
    else if (from_version == 1)
      refuse_input("pair label '" + it->second + "' is not of label_version 1 (host:cpuL or host:N)");
  }
  const auto src = labels.find(names::kSrc), dst = labels.find(names::kDst);
  if (src != labels.end() && dst != labels.end() && src->second == dst->second)
    refuse_input("pair " + src->second + " -> " + dst->second +
                 " names one GPU twice: its nodes shared a host name, which the old labels do not tell apart; "
                 "make the baseline again from runs of this gpuscale");
}

}  // namespace gpuscale::results
