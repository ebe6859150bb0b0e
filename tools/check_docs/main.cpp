// check_docs: prints docs/CHECKS.md with its check tables generated from results/base/CheckTable.def,
// or with --write writes them into the file (tools/check_docs/CheckDocs.hpp). Exit 0 when the file
// needed no change (or was written and has every section's markers), 1 when it differs or lacks a
// section's markers, 2 on bad usage.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "tools/check_docs/CheckDocs.hpp"

int main(int argc, char** argv) {
  using namespace gpuscale::check_docs;
  const bool write = argc == 3 && std::string(argv[1]) == "--write";
  if (argc != 2 + (write ? 1 : 0)) {
    std::cerr << "usage: check_docs [--write] docs/CHECKS.md\n";
    return 2;
  }
  const std::string path = argv[argc - 1];
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "check_docs: cannot read " << path << '\n';
    return 2;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const auto doc = regenerate(text.str());
  for (const auto& change : doc.changes) std::cerr << change << '\n';
  if (!write) {
    std::cout << doc.text;
    return doc.changes.empty() ? 0 : 1;
  }
  if (doc.text != text.str()) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << doc.text;
    if (!out) {
      std::cerr << "check_docs: cannot write " << path << '\n';
      return 2;
    }
  }
  const bool marked = regenerate(doc.text).changes.empty();
  return marked ? 0 : 1;
}
