// record_docs: prints docs/REPORT.md's field tables as the records' field lists make them, or with
// --write brings the file's tables in line (tools/record_docs/RecordDocs.hpp). Exit 0 when the file
// needs no change (or was written and needs no prose), 1 when it differs or a key awaits its words,
// 2 on bad usage.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "tools/record_docs/RecordDocs.hpp"

int main(int argc, char** argv) {
  using namespace gpuscale::record_docs;
  const bool write = argc == 3 && std::string(argv[1]) == "--write";
  if (argc != 2 + (write ? 1 : 0)) {
    std::cerr << "usage: record_docs [--write] docs/REPORT.md\n";
    return 2;
  }
  const std::string path = argv[argc - 1];
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "record_docs: cannot read " << path << '\n';
    return 2;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const auto doc = regenerate(text.str());
  for (const auto& change : doc.changes) std::cerr << change << '\n';
  for (const auto& missing : unnamed_nested_keys(doc.text)) std::cerr << missing << " (describe it by hand)\n";
  if (!write) {
    std::cout << doc.tables;
    return doc.changes.empty() && unnamed_nested_keys(doc.text).empty() ? 0 : 1;
  }
  if (!doc.changes.empty()) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << doc.text;
    if (!out) {
      std::cerr << "record_docs: cannot write " << path << '\n';
      return 2;
    }
  }
  const bool described = doc.text.find(kToDescribe) == std::string::npos && unnamed_nested_keys(doc.text).empty();
  return described ? 0 : 1;
}
