// Draws a dot graph as SVG with Graphviz's `dot` program (the dashboard's workflow graphs).
#pragma once

#include <string>

namespace cwf::cli {

// Throws std::runtime_error when `dot` cannot be run or fails (with what it said).
std::string render_svg(const std::string& dot);

}  // namespace cwf::cli
