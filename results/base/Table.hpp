#pragma once
// A table with aligned columns for the console reporter, or as an HTML <table> for the HTML report.
#include <ostream>
#include <string>
#include <vector>

namespace gpuscale::results {

class Table {
 public:
  explicit Table(std::vector<std::string> header);
  // Shorter rows are padded with empty cells; `html_class` is the HTML row's class (the console has none).
  void add_row(std::vector<std::string> cells, std::string html_class = "");
  // Columns are separated by two spaces; cells are left-aligned, numbers too (they are preformatted).
  void write(std::ostream& out, const std::string& indent = "  ") const;
  // <table id="ID" class="CSS_CLASS"> (each left out when empty) with a header row; every cell escaped.
  void write_html(std::ostream& out, const std::string& css_class = "", const std::string& id = "") const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::string> row_classes_;  // one per row
};

}  // namespace gpuscale::results
