#include "actors/gsm/synthetic_models.hpp"

namespace cwf::gsm {

namespace {

std::string stage_yaml(const std::string& name, const std::string& guard) {
  return "  " + name + ":\n    guards: [\"" + guard +
         "\"]\n    milestones:\n      done: on T:" + name + "\n";
}

}  // namespace

std::string sequence_model_yaml(int stages) {
  std::string yaml = "# " + std::to_string(stages) +
                     "-Stg-Seq (Jergler, Distributed Workflow Coordination in Publish/Subscribe "
                     "Environments, Table 5.5.1): a sequence of stages, each opened by the "
                     "previous one's milestone.\nartifact: seq" +
                     std::to_string(stages) + "\nstages:\n";
  for (int i = 1; i <= stages; ++i)
    yaml += stage_yaml("S" + std::to_string(i),
                       i == 1 ? "on R:Start" : "on +S" + std::to_string(i - 1) + ":done");
  return yaml;
}

std::string split_model_yaml(int branches) {
  std::string yaml = "# 1-in-" + std::to_string(branches) +
                     "-Split (Jergler, Distributed Workflow Coordination in Publish/Subscribe "
                     "Environments, Table 5.5.1): closing S0 opens every other stage.\n"
                     "artifact: split" +
                     std::to_string(branches) + "\nstages:\n";
  yaml += stage_yaml("S0", "on R:Start");
  for (int i = 1; i <= branches; ++i)
    yaml += stage_yaml("S" + std::to_string(i), "on -S0");
  return yaml;
}

}  // namespace cwf::gsm
