#include <ostream>

#include "cli/commands.hpp"

namespace cwf::cli {

int guards_command(const Words&, std::ostream&, std::ostream& err) {
  err << "cwf guards: not available in this build\n";
  return 2;
}

}  // namespace cwf::cli
