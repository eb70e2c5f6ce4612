// What the `cwf lr` commands that run an implementation share: where the historical tolls are by
// default, and how malformed input lines and reports kept in part are reported.
#pragma once

#include <ostream>
#include <string>

#include "linear_road/input_parser.hpp"

namespace cwf::cli {

// historical-tolls.dat or historical-tolls.dat.xz in the input's directory, or empty.
std::string default_tolls_path(const std::string& input);

// "malformed lines: N" and, per reason, the count and the first line numbers.
void print_rejects(const lr::InputRejectTally& rejects, std::ostream& out);

// "position reports kept without their speed ...: N" when N > 0 (warnings, not errors).
void print_speeds_left_out(std::uint64_t count, std::ostream& out);

}  // namespace cwf::cli
