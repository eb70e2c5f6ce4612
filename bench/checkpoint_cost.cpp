// What checkpoints cost Linear Road: `cwf run workflows/linear_road.yaml` as fast as possible,
// without checkpoints and with one every --every (default 1s), alternately in each round (the
// order swapped every round), as child processes. Per round: both wall times, their ratio, and
// the checkpoints' count, size and write time as the run reports them; then the median ratio.
// Exits 1 when a run fails or a checkpointed run wrote none.
//
// usage: checkpoint_cost [--input FILE --tolls FILE] [--rounds N] [--every DURATION]
// Without --input, a dataset is generated once into $TMPDIR (`cwf lr generate --xways 1
// --minutes 60 --seed 1`).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "child_process.hpp"

namespace {

namespace fs = std::filesystem;
using cwf::bench::ChildOutcome;
using cwf::bench::run_child;

std::string read_all(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The run's "checkpoints: ..." line, or "" when it printed none.
std::string checkpoint_line(const std::string& err) {
  std::size_t at = err.find("checkpoints: ");
  if (at == std::string::npos) return "";
  return err.substr(at, err.find('\n', at) - at);
}

}  // namespace

int main(int argc, char** argv) {
  std::string input, tolls, every = "1s";
  int rounds = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string option = argv[i];
    if (option == "--input")
      input = argv[i + 1];
    else if (option == "--tolls")
      tolls = argv[i + 1];
    else if (option == "--rounds")
      rounds = std::max(1, std::atoi(argv[i + 1]));
    else if (option == "--every")
      every = argv[i + 1];
  }
  const fs::path scratch = fs::temp_directory_path() / "cwf-checkpoint-cost";
  fs::create_directories(scratch);
  if (input.empty()) {
    const fs::path data = scratch / "lr-60min";
    if (!fs::exists(data / "input.dat")) {
      ChildOutcome made = run_child({CWF_EXE, "lr", "generate", "--xways", "1", "--minutes", "60",
                                     "--seed", "1", "--out", data.string()});
      if (made.status != 0) return 1;
    }
    input = (data / "input.dat").string();
    tolls = (data / "historical-tolls.dat").string();
  }
  const std::string workflow = std::string(CWF_SOURCE_DIR) + "/workflows/linear_road.yaml";
  const fs::path checkpoints = scratch / "checkpoints";
  const fs::path err = scratch / "stderr.txt";

  std::printf("%-6s %10s %10s %8s   %s\n", "round", "none s", "every s", "ratio",
              "checkpoints (as the checkpointed run reports them)");
  std::vector<double> ratios;
  bool ok = true;
  for (int round = 0; round < rounds; ++round) {
    double seconds[2] = {0, 0};
    std::string reported;
    for (int k = 0; k < 2; ++k) {
      const bool checkpointed = (k + round) % 2 == 1;  // swapped every round
      std::vector<std::string> args = {CWF_EXE,
                                       "run",
                                       workflow,
                                       "--set",
                                       "input.path=" + input,
                                       "--set",
                                       "expenditures.tolls=" + tolls,
                                       "--set",
                                       "answers.path=" + (scratch / "answers.out").string()};
      if (checkpointed) {
        fs::remove_all(checkpoints);
        args.insert(args.end(), {"--checkpoint-dir", checkpoints.string(), "--checkpoint-every",
                                 every, "--checkpoint-keep", "1"});
      }
      ChildOutcome outcome = run_child(args, err.string());
      if (outcome.status != 0) {
        std::fprintf(stderr, "run failed (status %d):\n%s", outcome.status, read_all(err).c_str());
        ok = false;
      }
      seconds[checkpointed ? 1 : 0] = outcome.seconds;
      if (checkpointed) reported = checkpoint_line(read_all(err));
    }
    if (reported.empty() || reported.starts_with("checkpoints: 0 ")) ok = false;
    ratios.push_back(seconds[1] / seconds[0]);
    std::printf("%-6d %10.2f %10.2f %8.3f   %s\n", round + 1, seconds[0], seconds[1], ratios.back(),
                reported.c_str());
    std::fflush(stdout);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("median every/none: %.3f\n", ratios[ratios.size() / 2]);
  if (!ok) std::printf("FAILED: a run failed, or a checkpointed run wrote no checkpoint\n");
  return ok ? 0 : 1;
}
