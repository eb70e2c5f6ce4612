// The shipped pub/sub examples (workflows/examples/pubsub) load and print exactly the expected
// deliveries. They run on a virtual clock, where a paced source's next phase starts only once
// the rest of the workflow is idle, so the overlay example's phases are deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "pubsub_test_util.hpp"

namespace cwf::pubsub {
namespace {

const std::string kExamples = std::string(CWF_SOURCE_DIR) + "/workflows/examples/pubsub/";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Ran {
  std::vector<std::string> out;
  RunSummary summary;
};

Ran run_example(const std::string& name) {
  auto workflow = load_workflow_file(kExamples + name + ".yaml", testing::load_context());
  ::testing::internal::CaptureStdout();
  RunSummary summary = testing::run_on_virtual_clock(*workflow, 1);
  return {lines(::testing::internal::GetCapturedStdout()), summary};
}

TEST(PubsubExamples, SingleBrokerPrintsTheExpectedDeliveries) {
  Ran ran = run_example("single_broker");
  EXPECT_EQ(ran.out, lines(read(kExamples + "expected/single_broker.out")));
  EXPECT_EQ(testing::errors(ran.summary, "broker"), 1u);  // the negative price
}

TEST(PubsubExamples, OneSubscriberSelectsAlicesPublications) {
  Ran ran = run_example("one_subscriber");
  EXPECT_EQ(ran.out, lines(read(kExamples + "expected/one_subscriber.out")));
}

TEST(PubsubExamples, ThreeBrokerOverlayDeliversAcrossTheHub) {
  Ran ran = run_example("overlay");
  // Three brokers print to one sink: the order between subscribers of different brokers
  // depends on the schedule, each subscriber's own order does not.
  std::vector<std::string> expected = lines(read(kExamples + "expected/overlay.out"));
  for (const std::string subscriber : {"alice", "bob", "carol"}) {
    auto of = [&](const std::vector<std::string>& all) {
      std::vector<std::string> mine;
      for (const auto& l : all)
        if (l.find("\"subscriber\":\"" + subscriber + "\"") != std::string::npos) mine.push_back(l);
      return mine;
    };
    EXPECT_EQ(of(ran.out), of(expected)) << subscriber;
  }
  std::sort(ran.out.begin(), ran.out.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(ran.out, expected);
  EXPECT_EQ(ran.summary.total_errors(), 0u);
}

TEST(PubsubExamples, AFilterMistakeIsReportedAtItsFileAndLine) {
  std::string yaml =
      "actors:\n"
      "  b: {type: broker, neighbours: [x, x]}\n";
  try {
    load_workflow_text(yaml, "bad.yaml", "", testing::load_context());
    FAIL() << "loaded";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 9), "bad.yaml:");
    EXPECT_NE(std::string(e.what()).find("'x' is listed twice"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cwf::pubsub
