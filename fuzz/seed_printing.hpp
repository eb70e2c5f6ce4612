// The seeds of the binary fuzz targets (fuzz/seeds/<target>.txt) are printed by the targets
// themselves: `fuzz_<target> -print_seeds=1` prints one hex line per kind of input, its kind byte
// first, and exits (fuzz/seed_corpora.sh turns the lines back into bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace cwf::fuzz {

// Call from LLVMFuzzerInitialize. With -print_seeds=1 among the arguments, prints the line of
// every kind below `kinds` (its byte, then the bytes seed_of(kind) returns) and exits.
template <class SeedOf>
void print_seeds_if_asked(int argc, char** argv, std::size_t kinds, SeedOf seed_of) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) != "-print_seeds=1") continue;
    for (std::size_t kind = 0; kind < kinds; ++kind) {
      std::printf("%02zx", kind);
      for (std::uint8_t byte : seed_of(kind))
        std::printf("%02x", byte);
      std::printf("\n");
    }
    std::exit(0);
  }
}

}  // namespace cwf::fuzz
