#include "tools/record_docs/RecordDocs.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "results/schema/RunReport.hpp"

namespace gpuscale::record_docs {
namespace {

using namespace results;

const std::string kTopSection = "## JSON (schema_version 2)";

template <class T>
std::vector<std::string> keys_of() {
  std::vector<std::string> keys;
  for (const auto key : field_keys<T>()) keys.emplace_back(key);
  return keys;
}

// The keys of a per-rank list's records: their fields, then the judge's marks the JSON writes beside them
// (results/base/RecordMarks.hpp).
template <class T>
std::vector<std::string> record_keys() {
  auto keys = keys_of<T>();
  for (const auto& k : mark_keys(static_cast<const std::vector<T>*>(nullptr)))
    if (k.list.empty()) keys.emplace_back(k.key);
  return keys;
}

// A record with a table of its own, under the heading `section`.
struct TableSpec {
  std::string section;
  std::vector<std::string> keys;  // in list order
};

// A nested record whose keys the meaning of row `row_key` of `section` names.
struct RowSpec {
  std::string section, row_key;
  std::vector<std::string> keys;
};

std::vector<TableSpec> table_specs() {
  auto top = keys_of<RunReport>();
  for_each_per_rank_array([&](const char* key, auto) { top.emplace_back(key); });
  return {{"ranks[]", keys_of<RankEnv>()},
          {"ranks[].gpu", keys_of<GpuInfo>()},
          {"compute[]", record_keys<ComputeRecord>()},
          {"burn[]", record_keys<BurnRecord>()},
          {"links[]", record_keys<LinksRecord>()},
          {kTopSection, top}};
}

std::vector<RowSpec> row_specs() {
  const std::string& top = kTopSection;
  return {{"ranks[]", "versions", keys_of<Versions>()},
          {"ranks[]", "tenancy", keys_of<Tenancy>()},
          {"ranks[]", "tenancy", keys_of<GpuProcess>()},
          {"ranks[]", "nccl_libraries", keys_of<LibraryFile>()},
          {"ranks[]", "network", keys_of<NetworkAdapters>()},
          {"ranks[]", "network", keys_of<RdmaAdapter>()},
          {"ranks[]", "network", keys_of<AdapterPort>()},
          {"ranks[]", "smoke_allreduce", keys_of<SmokeAllreduce>()},
          {"ranks[]", "smoke_allreduce", keys_of<NcclPaths>()},
          {"ranks[]", "slurm", keys_of<SlurmInfo>()},
          {"ranks[].gpu", "nvlinks", keys_of<NvLinkGroup>()},
          {"ranks[].gpu", "peers", keys_of<PeerAccess>()},
          {"compute[]", "check", keys_of<ComputeVerification>()},
          {"burn[]", "windows", keys_of<BurnWindow>()},
          {"burn[]", "samples", keys_of<BurnSample>()},
          {"burn[]", "counters", keys_of<BurnCounters>()},
          {"links[]", "copies", keys_of<CopyFigure>()},
          {"links[]", "hbm", keys_of<HbmFigure>()},
          {"links[]", "pcie", keys_of<PcieUnderLoad>()},
          {"links[]", "nvlinks", keys_of<NvLinkStatus>()},
          {"links[]", "nvlinks", keys_of<NvLinkCounters>()},
          {top, "phases_skipped", keys_of<SkippedPhase>()},
          {top, "checks", keys_of<Check>()},
          {top, "outliers", keys_of<Outlier>()},
          {top, "world.emulated", keys_of<Emulation>()},
          {top, "trace_spans", keys_of<TraceSpan>()},
          {top, "tenancy_looks", keys_of<TenancyLook>()},
          {top, "tenants", keys_of<MidRunTenant>()},
          {top, "budget", keys_of<BudgetRecord>()},
          {top, "budget", keys_of<PhaseBudget>()},
          {top, "verdict.rules", keys_of<RuleOutcome>()},
          {top, "verdict.coverage", keys_of<CoverageItem>()},
          {top, "plan", keys_of<RunPlanRecord>()},
          {top, "plan", keys_of<PlannedItem>()},
          {top, "failure", keys_of<RunFailure>()},
          {top, "train", keys_of<TrainResults>()},
          {top, "train", keys_of<TrainRecord>()},
          {top, "train", keys_of<TrainRankFigures>()},
          {top, "train", keys_of<TrainVerification>()},
          {top, "projection", keys_of<Projection>()},
          {top, "projection", keys_of<TierFit>()},
          {top, "projection", keys_of<AlphaBetaFit>()},
          {top, "projection", keys_of<NcclModelPoint>()},
          {top, "projection", keys_of<ProjectedCollective>()},
          {top, "projection", keys_of<ProjectedDdpStep>()}};
}

// The backticked words of `text`, "[]" dropped from their end ("nvlinks[]" -> "nvlinks").
std::vector<std::string> backticked(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t open = text.find('`'); open != std::string::npos; open = text.find('`', open + 1)) {
    const auto close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    auto key = text.substr(open + 1, close - open - 1);
    if (key.size() > 2 && key.ends_with("[]")) key.resize(key.size() - 2);
    out.push_back(key);
    open = close;
  }
  return out;
}

// A key as the list has it: `world.size` stands for `world`.
std::string base_of(const std::string& key) { return key.substr(0, key.find('.')); }

bool is_heading(const std::string& line) { return line.starts_with("#"); }
bool is_key_row(const std::string& line) { return line.starts_with("| `"); }

std::string section_of(const std::string& heading) {
  const auto open = heading.find('`'), close = heading.rfind('`');
  return open == close ? heading : heading.substr(open + 1, close - open - 1);
}

std::size_t first_cell_end(const std::string& row) { return row.find(" | ", 2); }

// The first cell's keys as written (`phases_skipped[]`, `world.size`).
std::vector<std::string> written_keys(const std::string& row) {
  std::vector<std::string> out;
  const auto cell = row.substr(0, first_cell_end(row));
  for (std::size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open + 1)) {
    const auto close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(cell.substr(open + 1, close - open - 1));
    open = close;
  }
  return out;
}

std::string strip_brackets(std::string key) {
  if (key.size() > 2 && key.ends_with("[]")) key.resize(key.size() - 2);
  return key;
}

// A row with only the keys its table's list still writes ("" when none is left); `changes` gets a line
// per key dropped.
std::string regenerate_row(const TableSpec& spec, const std::string& row, std::vector<std::string>& changes) {
  const auto keys = written_keys(row);
  std::vector<std::string> kept;
  for (const auto& key : keys) {
    if (std::find(spec.keys.begin(), spec.keys.end(), base_of(strip_brackets(key))) != spec.keys.end())
      kept.push_back(key);
    else
      changes.push_back(spec.section + ": `" + key + "` is no longer written: its row loses it");
  }
  if (kept.size() == keys.size()) return row;
  if (kept.empty()) return "";
  std::string cell = "|";
  for (std::size_t i = 0; i < kept.size(); ++i) cell += (i ? ", `" : " `") + kept[i] + "`";
  return cell + row.substr(first_cell_end(row));
}

const TableSpec* find_spec(const std::vector<TableSpec>& specs, const std::string& section) {
  const auto it = std::find_if(specs.begin(), specs.end(), [&](const auto& s) { return s.section == section; });
  return it == specs.end() ? nullptr : &*it;
}

// The rows that document no key yet written, one per key, for the table of `spec`.
std::vector<std::string> rows_to_add(const TableSpec& spec, const std::set<std::string>& documented,
                                     std::vector<std::string>& changes) {
  std::vector<std::string> rows;
  for (const auto& key : spec.keys) {
    if (documented.count(key)) continue;
    changes.push_back(spec.section + ": `" + key + "` is written but not documented: a row is added; describe it");
    rows.push_back("| `" + key + "` |  | " + kToDescribe + " |");
  }
  return rows;
}

}  // namespace

Regenerated regenerate(const std::string& report_md) {
  const auto specs = table_specs();
  std::vector<std::string> lines;
  std::istringstream in(report_md);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // First pass: each pinned table's rows (a stray line may split a table), its last row, and the keys
  // its rows document.
  std::vector<const TableSpec*> owner(lines.size(), nullptr);
  std::map<const TableSpec*, std::size_t> last_row;
  std::map<const TableSpec*, std::set<std::string>> documented;
  const TableSpec* spec = nullptr;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (is_heading(lines[i])) spec = find_spec(specs, section_of(lines[i]));
    if (!spec || !is_key_row(lines[i])) continue;
    owner[i] = spec;
    last_row[spec] = i;
    for (const auto& key : written_keys(lines[i])) documented[spec].insert(base_of(strip_brackets(key)));
  }
  Regenerated result;
  spec = nullptr;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    const std::string end = i + 1 < lines.size() || report_md.ends_with('\n') ? "\n" : "";
    if (is_heading(line) && (spec = find_spec(specs, section_of(line)))) result.tables += line + "\n\n";
    if (!owner[i]) {
      result.text += line + end;
      if (spec && line.starts_with("|")) result.tables += line + '\n';
      continue;
    }
    const bool last = last_row[owner[i]] == i;
    std::vector<std::string> rows{regenerate_row(*owner[i], line, result.changes)};
    if (last)
      for (auto& row : rows_to_add(*owner[i], documented[owner[i]], result.changes)) rows.push_back(std::move(row));
    for (const auto& row : rows) {
      if (row.empty()) continue;
      result.text += row + end;
      result.tables += row + '\n';
    }
    if (last) result.tables += '\n';
  }
  return result;
}

std::vector<std::string> unnamed_nested_keys(const std::string& report_md) {
  std::vector<std::string> missing;
  std::istringstream in(report_md);
  std::string section;
  std::vector<std::pair<std::string, std::string>> rows;  // (section, row)
  std::set<std::string> sections;
  for (std::string line; std::getline(in, line);) {
    if (is_heading(line)) sections.insert(section = section_of(line));
    if (is_key_row(line)) rows.emplace_back(section, line);
  }
  for (const auto& spec : table_specs())
    if (!sections.count(spec.section)) missing.push_back("docs/REPORT.md has no table under `" + spec.section + "`");
  for (const auto& spec : row_specs()) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) {
      const auto keys = backticked(r.second.substr(0, first_cell_end(r.second)));
      return r.first == spec.section && std::find(keys.begin(), keys.end(), spec.row_key) != keys.end();
    });
    if (row == rows.end()) {
      missing.push_back(spec.section + ": no row `" + spec.row_key + "`");
      continue;
    }
    const auto named = backticked(row->second.substr(row->second.rfind(" | ", row->second.size() - 3)));
    for (const auto& key : spec.keys)
      if (std::find(named.begin(), named.end(), key) == named.end())
        missing.push_back(spec.section + ": row `" + spec.row_key + "` does not name `" + key + "`");
  }
  return missing;
}

}  // namespace gpuscale::record_docs
