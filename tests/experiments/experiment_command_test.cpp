// `cwf experiment`: the quick experiment end to end, and errors in experiment files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/registries.hpp"
#include "experiments/experiment_spec.hpp"
#include "experiments/harness.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("cwf-experiment-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ','))
    fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

bool is_png(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char header[8] = {};
  in.read(header, 8);
  return in && std::string(header, 8) == std::string("\x89PNG\r\n\x1a\n", 8) &&
         fs::file_size(path) > 1000;
}

// The documented command as a user types it: the experiment named relative to where they stand,
// the results in the default --out, experiment-results/quick under the current directory (not
// beside the experiment file).
TEST(ExperimentCommandTest, TheQuickExperimentRunsEveryConfigurationAndWritesPlots) {
  fs::path here = temp_dir("quick");
  const fs::path was = fs::current_path();
  fs::current_path(here);
  std::ostringstream stdout_text, stderr_text;
  int status = cli::main_command(
      {"experiment",
       fs::relative(fs::path(CWF_SOURCE_DIR) / "workflows/experiments/quick.yaml", here).string()},
      stdout_text, stderr_text);
  fs::current_path(was);
  ASSERT_EQ(status, 0) << stderr_text.str();
  const fs::path out = here / "experiment-results" / "quick";
  EXPECT_TRUE(fs::is_regular_file(out / "data" / "input.dat"));
  // A long command says so before it starts.
  EXPECT_EQ(stderr_text.str().rfind("cwf experiment: 5 runs (5 configurations x 1 repetitions) of "
                                    "4 s each: about 20 s, plus generating the data the first "
                                    "time; one line per run follows\n",
                                    0),
            0u)
      << stderr_text.str();
  EXPECT_NE(stdout_text.str().find("results in experiment-results/quick\n"), std::string::npos)
      << stdout_text.str();
  EXPECT_NE(stdout_text.str().find("| configuration |"), std::string::npos) << stdout_text.str();

  // results.csv: the documented columns, rows for every configuration and second.
  std::ifstream csv(out / "results.csv");
  std::string header;
  ASSERT_TRUE(std::getline(csv, header));
  std::vector<std::string> actors = {"input", "statistics",   "accidents",
                                     "tolls", "expenditures", "answers"};
  EXPECT_EQ(split(header), experiments::result_columns(actors));
  EXPECT_EQ(split(header)[0], "experiment");
  std::map<std::string, std::set<int>> seconds;
  double input = 0;
  std::string line;
  while (std::getline(csv, line)) {
    auto fields = split(line);
    ASSERT_EQ(fields.size(), split(header).size()) << line;
    seconds[fields[1]].insert(std::stoi(fields[3]));
    input += std::stod(fields[4]);
  }
  for (const char* name : {"fifo", "qbs", "rr", "rb", "threaded"}) {
    ASSERT_TRUE(seconds.count(name)) << name;
    EXPECT_GE(seconds[name].size(), 3u) << name;  // seconds 0..3 of the 4 s
  }
  EXPECT_GT(input, 0);

  for (const char* png : {"response.png", "input.png"})
    EXPECT_TRUE(is_png(out / png)) << png << "\n" << stderr_text.str();
  EXPECT_TRUE(fs::file_size(out / "summary.md") > 0);
  std::ifstream summary(out / "summary.csv");
  int rows = -1;
  while (std::getline(summary, line))
    ++rows;
  EXPECT_EQ(rows, 5);
  fs::remove_all(here);
}

// The message of loading `text` as an experiment file named exp.yaml.
std::string error_of(const std::string& text) {
  try {
    experiments::load_experiment_text(text, "exp.yaml",
                                      std::string(CWF_SOURCE_DIR) + "/workflows/experiments",
                                      cli::scheduler_registry());
  } catch (const LoadError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kHead = "name: t\ndata: {generate: {minutes: 2}}\n";

TEST(ExperimentFileTest, ErrorsNameFileLineAndWhatWasExpected) {
  EXPECT_EQ(error_of(std::string(kHead) + "duraton: 5s\nconfigurations: []\n")
                .rfind("exp.yaml:3:1: unknown experiment key 'duraton'", 0),
            0u)
      << error_of(std::string(kHead) + "duraton: 5s\n");
  EXPECT_NE(error_of(std::string(kHead) + "duraton: 5s\n").find("did you mean 'duration'"),
            std::string::npos);
  EXPECT_EQ(error_of(kHead).rfind("exp.yaml:1:1: expected 'configurations'", 0), 0u)
      << error_of(kHead);
  std::string bad_scheduler = std::string(kHead) +
                              "configurations:\n"
                              "  - {name: a, director: {type: scheduled, scheduler: qbz}}\n";
  EXPECT_EQ(error_of(bad_scheduler).rfind("exp.yaml:4:54: unknown scheduler 'qbz'", 0), 0u)
      << error_of(bad_scheduler);
  std::string bad_duration = std::string(kHead) + "duration: soon\nconfigurations: []\n";
  EXPECT_EQ(error_of(bad_duration).rfind("exp.yaml:3:11: expected a positive duration", 0), 0u)
      << error_of(bad_duration);
  std::string bad_sweep = std::string(kHead) +
                          "configurations:\n"
                          "  - name: rr\n"
                          "    director: {type: scheduled, scheduler: rr}\n"
                          "    sweep: {slice_us: [5000, -3]}\n";
  EXPECT_EQ(error_of(bad_sweep).rfind("exp.yaml:6:30:", 0), 0u) << error_of(bad_sweep);
  std::string bad_parameter = std::string(kHead) +
                              "configurations:\n"
                              "  - {name: a, director: {type: scheduled, scheduler: rr, "
                              "quantum: 5}}\n";
  EXPECT_EQ(error_of(bad_parameter).rfind("exp.yaml:4:", 0), 0u) << error_of(bad_parameter);
  EXPECT_NE(error_of(bad_parameter).find("quantum"), std::string::npos) << error_of(bad_parameter);
  std::string duplicate = std::string(kHead) +
                          "configurations:\n"
                          "  - {name: a, director: {type: threaded}}\n"
                          "  - {name: a, director: {type: threaded}}\n";
  EXPECT_EQ(error_of(duplicate).rfind("exp.yaml:5:5: duplicate configuration name 'a'", 0), 0u)
      << error_of(duplicate);
  EXPECT_EQ(error_of("name: [\n").rfind("exp.yaml:", 0), 0u);
  EXPECT_EQ(error_of(std::string(kHead) + "priorities: {tolls: 50}\nconfigurations: []\n")
                .rfind("exp.yaml:3:21: expected a priority 0-39", 0),
            0u);
}

TEST(ExperimentFileTest, ActorsTheWorkflowLacksAreReportedAtTheirLine) {
  std::string text = std::string(kHead) +
                     "synthetic_cost_us: {statistcs: 200}\n"
                     "configurations:\n"
                     "  - {name: a, director: {type: threaded}}\n";
  auto spec = experiments::load_experiment_text(
      text, "exp.yaml", std::string(CWF_SOURCE_DIR) + "/workflows/experiments",
      cli::scheduler_registry());
  std::ostringstream log;
  LoadContext context{cli::actor_registry(), cli::scheduler_registry()};
  try {
    experiments::run_experiment(spec, context, temp_dir("names").string(), log);
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("exp.yaml:3:21: a synthetic cost for 'statistcs'", 0), 0u)
        << e.what();
  }
}

TEST(ExperimentFileTest, SweepsExpandToOneConfigurationPerValueAndQuickShortens) {
  std::string text = std::string(kHead) +
                     "duration: 5 min\n"
                     "repetitions: 3\n"
                     "priorities: {tolls: 5}\n"
                     "synthetic_cost_us: {statistics: 150.5}\n"
                     "configurations:\n"
                     "  - name: qbs\n"
                     "    director: {type: scheduled, scheduler: qbs, source_interval: 5}\n"
                     "    sweep: {basic_quantum_us: [500, 20000]}\n"
                     "  - {name: threaded, director: {type: threaded}, priorities: {answers: 3}}\n"
                     "quick: {duration: 7s, compression: 40}\n";
  auto dir = std::string(CWF_SOURCE_DIR) + "/workflows/experiments";
  auto spec = experiments::load_experiment_text(text, "exp.yaml", dir, cli::scheduler_registry());
  ASSERT_EQ(spec.configurations.size(), 3u);
  EXPECT_EQ(spec.configurations[0].name, "qbs-500");
  EXPECT_EQ(spec.configurations[1].name, "qbs-20000");
  EXPECT_EQ(spec.configurations[1].director.parameters.at("basic_quantum_us").as_int(), 20000);
  EXPECT_EQ(spec.configurations[1].director.parameters.at("source_interval").as_int(), 5);
  EXPECT_EQ(spec.configurations[0].director.workers, 2u);
  EXPECT_EQ(spec.configurations[2].priorities.values.at("answers"), 3);
  EXPECT_EQ(spec.priorities.values.at("tolls"), 5);
  EXPECT_EQ(spec.synthetic_cost.values.at("statistics"), 150'500);
  EXPECT_EQ(spec.duration, 300 * kSecond);
  EXPECT_EQ(spec.repetitions, 3);
  EXPECT_EQ(spec.data.minutes, 2);
  EXPECT_TRUE(spec.data.generate);
  EXPECT_EQ(spec.workflow, fs::path(dir).parent_path().string() + "/linear_road.yaml");

  auto quick =
      experiments::load_experiment_text(text, "exp.yaml", dir, cli::scheduler_registry(), true);
  EXPECT_EQ(quick.duration, 7 * kSecond);
  EXPECT_EQ(quick.repetitions, 1);
  EXPECT_DOUBLE_EQ(quick.compression, 40);
}

TEST(ExperimentFileTest, TheWorkflowDefaultsToTheLinearRoadWorkflow) {
  std::string text =
      std::string(kHead) + "configurations:\n  - {name: a, director: {type: threaded}}\n";
  // No ../linear_road.yaml beside a file in the temporary folder: the source tree's is found.
  auto spec = experiments::load_experiment_text(text, "exp.yaml", temp_dir("default").string(),
                                                cli::scheduler_registry());
  EXPECT_EQ(fs::path(spec.workflow).filename(), "linear_road.yaml");
  EXPECT_TRUE(fs::is_regular_file(spec.workflow));
  std::string missing = std::string(kHead) + "workflow: nothere.yaml\n" +
                        "configurations:\n  - {name: a, director: {type: threaded}}\n";
  EXPECT_EQ(error_of(missing).rfind("exp.yaml:3:11: workflow file '", 0), 0u) << error_of(missing);
}

TEST(ExperimentFileTest, TheShippedExperimentsLoad) {
  for (const auto& entry :
       fs::directory_iterator(std::string(CWF_SOURCE_DIR) + "/workflows/experiments")) {
    if (entry.path().extension() != ".yaml") continue;
    EXPECT_NO_THROW(
        experiments::load_experiment_file(entry.path().string(), cli::scheduler_registry()))
        << entry.path();
  }
}

}  // namespace
}  // namespace cwf
