// File sources in follow mode (tail -f), on the real clock: lines appended later are read, a
// last line waits for its newline, a truncated or replaced (rotated) file is read again from its
// start, a CSV file that starts empty gets its header when it comes; under several directors.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "actor_test_util.hpp"
#include "tests/eventually.hpp"

namespace cwf::actors {
namespace {

using cwf::testing::eventually;
using testing::param_error;
using testing::write_file;
using Lines = std::vector<std::string>;

// The records reaching it as JSON, readable from another thread while the run goes on.
class Gather final : public Actor {
 public:
  Gather() { add_input("in"); }
  void fire(FiringContext& context) override {
    std::lock_guard lock(mutex_);
    for (const Event& e : context.window())
      json_.push_back(e.token.to_json());
  }
  Lines json() const {
    std::lock_guard lock(mutex_);
    return json_;
  }
  std::size_t size() const { return json().size(); }

 private:
  mutable std::mutex mutex_;
  Lines json_;
};

// A followed file source (`type`, ending at `limit` records) run on its own thread.
class FollowRun {
 public:
  FollowRun(const std::string& type, const std::string& path, std::int64_t limit,
            const std::string& director = "fifo/1") {
    workflow_.add("src", testing::make(type, {{"path", Value(path)},
                                              {"follow", Value(true)},
                                              {"poll", Value(std::int64_t{5 * kMillisecond})},
                                              {"limit", Value(limit)}}));
    auto gather = std::make_unique<Gather>();
    out = gather.get();
    workflow_.add("out", std::move(gather));
    workflow_.connect("src", "out");
    DirectorConfig config;
    if (director == "threaded") {
      config.type = "threaded";
    } else {
      config.scheduler = director.substr(0, director.find('/'));
      config.workers = static_cast<unsigned>(std::stoul(director.substr(director.find('/') + 1)));
    }
    director_ = make_director(config, testing::scheduler_registry());
    thread_ = std::thread([this] { summary = run_workflow(workflow_, *director_, clock_); });
  }
  ~FollowRun() {
    if (thread_.joinable()) thread_.join();
  }
  void join() { thread_.join(); }

  Gather* out = nullptr;
  RunSummary summary;

 private:
  Workflow workflow_;
  std::unique_ptr<Director> director_;
  RealClock clock_;
  std::thread thread_;
};

void append(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::app) << text;
}

class FollowedFile : public ::testing::TestWithParam<std::string> {};

TEST_P(FollowedFile, LinesAppendedLaterAreReadAndALastLineWaitsForItsNewline) {
  const std::string path = write_file("grows.jsonl", "{\"n\": 0}\n{\"n\": 1}\n");
  FollowRun run("jsonl_source", path, 5, GetParam());
  ASSERT_TRUE(eventually([&] { return run.out->size() == 2; }));
  append(path, "{\"n\": 2}\n{\"n\": ");  // the second line is not whole yet
  ASSERT_TRUE(eventually([&] { return run.out->size() == 3; }));
  append(path, "3}\n{\"n\": 4}\n");
  run.join();
  // Read at its end as a line, the half line would have been malformed and n 3 missing.
  EXPECT_EQ(run.out->json(),
            (Lines{R"({"n":0})", R"({"n":1})", R"({"n":2})", R"({"n":3})", R"({"n":4})"}));
  EXPECT_EQ(run.summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Directors, FollowedFile, ::testing::Values("fifo/1", "qbs/2", "threaded"),
                         [](const auto& info) { return testing::director_label(info.param); });

// Truncated to less than was read (as `copytruncate` log rotation does): read from the start.
TEST(FollowedFile, ATruncatedFileIsReadAgainFromItsStart) {
  const std::string pad(40, 'x');
  const std::string path =
      write_file("truncated.jsonl",
                 "{\"n\": 0, \"pad\": \"" + pad + "\"}\n{\"n\": 1, \"pad\": \"" + pad + "\"}\n");
  FollowRun run("jsonl_source", path, 4);
  ASSERT_TRUE(eventually([&] { return run.out->size() == 2; }));
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "{\"n\": 2}\n{\"n\": 3}\n";
  run.join();
  const Lines got = run.out->json();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[2], R"({"n":2})");
  EXPECT_EQ(got[3], R"({"n":3})");
  EXPECT_EQ(run.summary.warnings(), 1u);  // "truncated; reading it again from its start"
}

// Renamed away and a new file put in its place (log rotation): the new file from its start.
TEST(FollowedFile, AReplacedFileIsReadFromItsStart) {
  const std::string path = write_file("rotated.jsonl", "{\"n\": 0}\n");
  FollowRun run("jsonl_source", path, 3);
  ASSERT_TRUE(eventually([&] { return run.out->size() == 1; }));
  std::filesystem::rename(path, path + ".1");
  write_file("rotated.jsonl", "{\"n\": 1}\n{\"n\": 2}\n");
  run.join();
  EXPECT_EQ(run.out->json(), (Lines{R"({"n":0})", R"({"n":1})", R"({"n":2})"}));
  EXPECT_EQ(run.summary.warnings(), 1u);  // "replaced; reading the new file from its start"
  std::filesystem::remove(path + ".1");
}

// A CSV file that is empty when the run starts: its first line, when it comes, is the header.
TEST(FollowedFile, ACsvFileThatStartsEmptyGetsItsHeaderWhenItComes) {
  const std::string path = write_file("empty.csv", "");
  FollowRun run("csv_source", path, 2);
  append(path, "id,name\n1,apple\n");
  ASSERT_TRUE(eventually([&] { return run.out->size() == 1; }));
  append(path, "2,pear\n");
  run.join();
  EXPECT_EQ(run.out->json(), (Lines{R"({"id":1,"name":"apple"})", R"({"id":2,"name":"pear"})"}));
}

TEST(FollowedFile, ParametersSayWhatIsWrong) {
  const std::string path = write_file("p.jsonl", "{\"ts\": 1}\n");
  EXPECT_EQ(param_error("jsonl_source", {{"path", Value(path)},
                                         {"follow", Value(true)},
                                         {"time", Value("/ts")},
                                         {"pace", Value("real")}}),
            "follow: a followed file is read as it grows: leave `pace` at fast");
  EXPECT_EQ(param_error("jsonl_source", {{"path", Value(path)}, {"poll", Value(std::int64_t{0})}}),
            "poll: poll must be positive");
}

}  // namespace
}  // namespace cwf::actors
