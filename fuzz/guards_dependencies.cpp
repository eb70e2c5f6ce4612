// Fuzzes the guards dependency parser: the input is a dependency file's text (dependencies in the
// event language, event attributes), and the guard of every literal is then computed, as
// `cwf guards` and the guard actors do. LoadError (and any std::exception) for a bad file is
// expected; a crash, undefined behaviour, a leak or a hang is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "actors/guards/dependency_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    cwf::guards::DependencySet set = cwf::guards::parse_dependency_text(text, "deps.yaml");
    for (const std::string& event : set.events)
      for (bool complement : {false, true})
        (void)set.guard(cwf::guards::Literal{event, complement}).text();
  } catch (const std::exception&) {
  }
  return 0;
}
