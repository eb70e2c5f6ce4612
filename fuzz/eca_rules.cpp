// Fuzzes the ECA rules loader: the input is a rules file's text (site, brokers, rules with their
// event expressions, conditions and actions). LoadError (and any std::exception) for bad rules
// is expected; a crash, undefined behaviour, a leak or a hang is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "actors/eca/rule_set.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    cwf::eca::parse_rule_set(text, "rules.yaml");
  } catch (const std::exception&) {
  }
  return 0;
}
