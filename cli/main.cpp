#include <iostream>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  cwf::cli::Words words(argv + 1, argv + argc);
  return cwf::cli::main_command(words, std::cout, std::cerr);
}
