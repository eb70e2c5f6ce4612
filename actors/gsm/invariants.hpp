// The invariants every snapshot satisfies after a B-step: GSM-1 (a stage and one of its own
// milestones are never both true) and GSM-2 (a closed stage has no open substage).
#pragma once

#include <string>
#include <vector>

#include "actors/gsm/model.hpp"

namespace cwf::gsm {

// "" when both hold, else what is violated ("GSM-1: ED and ED:cp are both true").
std::string check_invariants(const Model& model, const std::vector<bool>& snapshot);

}  // namespace cwf::gsm
