// Where workflows/linear_road.yaml is when no path is given: the current directory, else the
// source tree the program was built in (build directories sit inside it).
#pragma once

#include <string>

namespace cwf::lr {

// An absolute path, or "" when neither place has it.
std::string find_linear_road_workflow();

}  // namespace cwf::lr
