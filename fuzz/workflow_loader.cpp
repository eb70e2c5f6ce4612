// Fuzzes the workflow loader: the input is a workflow file's text, loaded into a validated
// Workflow with the actor types and scheduling policies of the `cwf` command, and its director
// built, as `cwf validate` does. Loading only constructs actors: files are opened for writing,
// servers connected to and threads started when a run starts, so a fuzzed workflow writes
// nothing. Relative paths (sub-workflows, data files an actor reads at load time) resolve against
// the shipped examples.
// LoadError (and any std::exception) for a bad workflow is expected; a crash, undefined
// behaviour, a leak or a hang is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "cli/registries.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/loading/workflow_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const cwf::LoadContext context{cwf::cli::actor_registry(), cwf::cli::scheduler_registry()};
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto workflow = cwf::load_workflow_text(text, "workflow.yaml",
                                            CWF_SOURCE_DIR "/workflows/examples", context);
    cwf::make_director(workflow->director(), context.schedulers);
  } catch (const std::exception&) {
  }
  return 0;
}
