#include "cli/director_options.hpp"

namespace cwf::cli {

void apply_director_options(const Arguments& args, DirectorConfig& config) {
  auto director = args.value("director");
  if (director && *director == "threaded") {
    if (args.value("scheduler"))
      throw UsageError(
          "--scheduler chooses the policy of the scheduled director; the threaded director runs "
          "one thread per actor and has none (drop --scheduler or --director threaded)");
    if (args.value("workers"))
      throw UsageError(
          "--workers sets the threads of the scheduled director; the threaded director runs one "
          "thread per actor (drop --workers or --director threaded)");
  }
  if (director) config.type = *director;
  if (auto s = args.value("scheduler")) {
    config.scheduler = *s;
    config.type = "scheduled";
  }
  if (!director && config.type == "threaded" && args.value("workers"))
    throw UsageError(
        "--workers sets the threads of the scheduled director, but the workflow asks for the "
        "threaded director, one thread per actor (add --director scheduled, or drop --workers)");
  if (auto w = args.value("workers")) {
    double number = parse_number(*w, "--workers");
    if (number != static_cast<int>(number) || number > 4096)
      throw UsageError("--workers must be a whole number up to 4096 (got '" + *w + "')");
    int workers = static_cast<int>(number);
    if (workers < 1) throw UsageError("--workers must be at least 1");
    config.workers = static_cast<unsigned>(workers);
  }
}

}  // namespace cwf::cli
