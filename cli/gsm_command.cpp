#include <ostream>

#include "cli/commands.hpp"

namespace cwf::cli {

int gsm_command(const Words&, std::ostream&, std::ostream& err) {
  err << "cwf gsm: not available in this build\n";
  return 2;
}

}  // namespace cwf::cli
