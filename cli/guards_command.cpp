#include <ostream>
#include <string>

#include "actors/guards/dependency_file.hpp"
#include "actors/guards/guard_work_limit.hpp"
#include "cli/commands.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::cli {

namespace {

void usage(std::ostream& out) {
  out << "usage: cwf guards FILE.yaml [--ascii]\n"
         "  prints the guard of every event of a dependency workflow and of its complement,\n"
         "  one per line (Singh's Definition 2, conjoined over the dependencies mentioning it).\n"
         "  --ascii  write []e, <>e, !e, & instead of \u25a1e, \u25c7e, \u00ace, \u2227\n";
}

}  // namespace

int guards_command(const Words& args, std::ostream& out, std::ostream& err) {
  std::string path;
  auto notation = guards::Notation::unicode;
  for (const std::string& word : args) {
    if (word == "--ascii") {
      notation = guards::Notation::ascii;
    } else if (word == "-h" || word == "--help") {
      usage(out);
      return 0;
    } else if (!word.empty() && word[0] == '-') {
      err << "cwf guards: unknown option '" << word << "'\n";
      usage(err);
      return 2;
    } else if (path.empty()) {
      path = word;
    } else {
      err << "cwf guards: one file expected, got '" << path << "' and '" << word << "'\n";
      return 2;
    }
  }
  if (path.empty()) {
    usage(err);
    return 2;
  }
  try {
    guards::DependencySet set = guards::load_dependency_file(path);
    std::string lines;  // printed once every guard is computed: none when one is too large
    for (const std::string& event : set.events) {
      for (bool complement : {false, true}) {
        guards::Literal literal{event, complement};
        guards::Guard guard = set.guard(literal);
        lines += literal.text() + ": " + guard.text(notation) + "\n";
        auto attributes = set.attributes_of(event);
        if (!complement && !attributes.rejectable && !guard.is_top())
          err << "cwf guards: " << path << ": warning: event '" << event
              << "' is not rejectable but its guard is not T: it is accepted whenever it is "
                 "attempted, so the dependencies can be violated\n";
      }
    }
    out << lines;
    return 0;  // warnings do not fail the command
  } catch (const LoadError& e) {
    err << "cwf guards: " << e.what() << "\n";
    return 2;
  } catch (const guards::GuardTooComplex& e) {
    err << "cwf guards: " << path << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace cwf::cli
