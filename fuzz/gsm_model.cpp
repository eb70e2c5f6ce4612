// Fuzzes the GSM model loader: the input is a model file's text, loaded and compiled into the
// form the `gsm` actors run (rules, dependency graph, ePDGs). LoadError (and any std::exception)
// for a bad model is expected; a crash, undefined behaviour, a leak or a hang is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "actors/gsm/compiled_model.hpp"
#include "actors/gsm/model_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    cwf::gsm::CompiledModel::compile(cwf::gsm::load_model_text(text, "model.yaml"));
  } catch (const std::exception&) {
  }
  return 0;
}
