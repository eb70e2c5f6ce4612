#include "actors/gsm/invariants.hpp"

namespace cwf::gsm {

std::string check_invariants(const Model& model, const std::vector<bool>& snapshot) {
  for (std::size_t s = 0; s < model.stages.size(); ++s) {
    const Stage& stage = model.stages[s];
    if (!snapshot[s]) continue;
    for (int m : stage.milestones)
      if (snapshot[static_cast<std::size_t>(model.milestone_attribute(m))])
        return "GSM-1: " + stage.name + " and " +
               model.milestones[static_cast<std::size_t>(m)].name + " are both true";
    if (stage.parent >= 0 && !snapshot[static_cast<std::size_t>(stage.parent)])
      return "GSM-2: " + stage.name + " is open in the closed stage " +
             model.stages[static_cast<std::size_t>(stage.parent)].name;
  }
  return "";
}

}  // namespace cwf::gsm
