#include "results/Table.hpp"

#include <algorithm>

#include "results/SvgCanvas.hpp"

namespace gpuscale::results {

Table::Table(std::vector<std::string> header) : header_(std::move(header)) {}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

void Table::write(std::ostream& out, const std::string& indent) const {
  std::vector<std::size_t> width(header_.size(), 0);
  auto widen = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  };
  widen(header_);
  for (const auto& row : rows_) widen(row);
  auto line = [&](const std::vector<std::string>& row) {
    std::string text = indent;
    for (std::size_t c = 0; c < row.size(); ++c) {
      text += row[c];
      if (c + 1 < row.size()) text += std::string(width[c] - row[c].size() + 2, ' ');
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << '\n';
  };
  line(header_);
  for (const auto& row : rows_) line(row);
}

void Table::write_html(std::ostream& out, const std::string& css_class) const {
  out << "<table" << (css_class.empty() ? "" : " class=\"" + svg::escape(css_class) + "\"") << "><tr>";
  for (const auto& h : header_) out << "<th>" << svg::escape(h) << "</th>";
  out << "</tr>\n";
  for (const auto& row : rows_) {
    out << "<tr>";
    for (const auto& cell : row) out << "<td>" << svg::escape(cell) << "</td>";
    out << "</tr>\n";
  }
  out << "</table>\n";
}

}  // namespace gpuscale::results
