#include "results/base/Table.hpp"

#include <algorithm>

#include "results/base/Markup.hpp"

namespace gpuscale::results {

Table::Table(std::vector<std::string> header) : header_(std::move(header)) {}

void Table::add_row(std::vector<std::string> cells, std::string html_class) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
  row_classes_.push_back(std::move(html_class));
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

void Table::write_html(std::ostream& out, const std::string& css_class, const std::string& id) const {
  const auto attribute = [](const char* name, const std::string& value) {
    return value.empty() ? std::string() : std::string(" ") + name + "=\"" + markup::escape(value) + "\"";
  };
  out << "<table" << attribute("id", id) << attribute("class", css_class) << "><tr>";
  for (const auto& h : header_) out << "<th>" << markup::escape(h) << "</th>";
  out << "</tr>\n";
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    out << "<tr" << attribute("class", row_classes_[r]) << ">";
    for (const auto& cell : rows_[r]) out << "<td>" << markup::escape(cell) << "</td>";
    out << "</tr>\n";
  }
  out << "</table>\n";
}

}  // namespace gpuscale::results
