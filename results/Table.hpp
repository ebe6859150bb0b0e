#pragma once
// A table with aligned columns for the console reporter, or as an HTML <table> for the HTML report.
#include <ostream>
#include <string>
#include <vector>

namespace gpuscale::results {

class Table {
 public:
  explicit Table(std::vector<std::string> header);
  void add_row(std::vector<std::string> cells);  // shorter rows are padded with empty cells
  // Columns are separated by two spaces; cells are left-aligned, numbers too (they are preformatted).
  void write(std::ostream& out, const std::string& indent = "  ") const;
  // <table class="CSS_CLASS"> with a header row; every cell escaped.
  void write_html(std::ostream& out, const std::string& css_class = "") const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace gpuscale::results
