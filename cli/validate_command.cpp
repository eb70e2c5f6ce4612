#include <ostream>

#include "cli/commands.hpp"
#include "cli/load.hpp"
#include "cli/registries.hpp"
#include "runtime/director_factory.hpp"

namespace cwf::cli {

int validate_command(const Words& words, std::ostream& out, std::ostream& err) {
  std::string path;
  auto workflow = load_file_argument(words, "validate", err, path);
  if (!workflow) return 2;
  try {
    make_director(workflow->director(), scheduler_registry());
  } catch (const std::exception& e) {
    err << "cwf: " << path << ": " << e.what() << "\n";
    return 2;
  }
  std::size_t sources = 0;
  for (const auto& a : workflow->actors())
    sources += a.actor->is_source();
  out << path << ": ok (workflow '" << workflow->name() << "', " << workflow->size() << " actors, "
      << sources << " sources, " << workflow->connections().size() << " connections, "
      << workflow->director().type << " director)\n";
  return 0;
}

}  // namespace cwf::cli
