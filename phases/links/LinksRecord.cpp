#include "phases/links/LinksRecord.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

const CopyFigure* largest_copy(const LinksRecord& r, const std::string& direction, const std::string& memory,
                               const std::string& mode) {
  const CopyFigure* best = nullptr;
  for (const auto& c : r.copies)
    if (c.direction == direction && c.memory == memory && c.mode == mode && (!best || c.bytes > best->bytes)) best = &c;
  return best;
}

const HbmFigure* find_hbm(const LinksRecord& r, const std::string& kernel) {
  for (const auto& h : r.hbm)
    if (h.kernel == kernel) return &h;
  return nullptr;
}

GPUSCALE_JSON_FROM_FIELDS(CopyFigure)
GPUSCALE_JSON_FROM_FIELDS(HbmFigure)
GPUSCALE_JSON_FROM_FIELDS(PcieUnderLoad)
GPUSCALE_JSON_FROM_FIELDS(NvLinkCounters)
GPUSCALE_JSON_FROM_FIELDS(NvLinkStatus)
GPUSCALE_JSON_FROM_FIELDS(LinksRecord)

}  // namespace gpuscale::results
