#pragma once
// The subcommands, in one explicit table: what each is called, what it says in --help, which
// options it adds.
#include <span>
#include <string_view>

#include <cxxopts.hpp>

namespace gpuscale::launch {

struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  std::string_view usage;     // after "gpuscale "
  std::string_view examples;  // lines, each a full command
  bool needs_world;           // runs under MPI on every rank
  void (*add_options)(cxxopts::Options&);
};

std::span<const CommandSpec> commands();
const CommandSpec* find_command(std::string_view name);

}  // namespace gpuscale::launch
