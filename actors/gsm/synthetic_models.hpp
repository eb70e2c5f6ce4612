// The synthetic models of 000 Table 5.5.1, the scaling fixtures: a k-stage sequence (the
// milestone of stage i opens stage i+1) and a 1-in-n split (closing the first stage opens n
// stages in parallel). Written as model YAML so that they go through the same loader as any
// other model (and `cwf gsm generate` can write them out).
#pragma once

#include <string>

namespace cwf::gsm {

// Stages S1..Sk; S1 opens on R:Start, S(i+1) on +Si:done; Si:done is achieved on T:Si.
std::string sequence_model_yaml(int stages);
// S0 opens on R:Start, S0:done on T:S0; S1..Sn open on -S0; Si:done on T:Si.
std::string split_model_yaml(int branches);

}  // namespace cwf::gsm
