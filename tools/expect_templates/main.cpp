// expect_templates: prints every expect template (launch/ExpectTemplates.hpp), or with --write DIR
// writes each to DIR/NAME (launch/expect/ in the source tree). Exit 0, or 2 on bad usage or a file
// that cannot be written.
#include <fstream>
#include <iostream>
#include <string>

#include "launch/ExpectTemplates.hpp"

int main(int argc, char** argv) {
  using namespace gpuscale::launch;
  const bool write = argc == 3 && std::string(argv[1]) == "--write";
  if (argc != 1 && !write) {
    std::cerr << "usage: expect_templates [--write DIR]\n";
    return 2;
  }
  for (const auto& model : template_models()) {
    for (const bool quick : {true, false}) {
      const auto name = template_file_name(model, quick);
      const auto text = template_text(expect_template(model, quick));
      if (!write) {
        std::cout << "== " << name << " ==\n" << text;
        continue;
      }
      std::ofstream out(std::string(argv[2]) + "/" + name, std::ios::binary);
      out << text;
      if (!out) {
        std::cerr << "expect_templates: cannot write " << argv[2] << "/" << name << '\n';
        return 2;
      }
      std::cout << "wrote " << argv[2] << "/" << name << '\n';
    }
  }
  return 0;
}
