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
  EXPECT_EQ(ran.summary.incomplete(), 0u);
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

std::string load_error(const std::string& yaml) {
  try {
    load_workflow_text(yaml, "bad.yaml", "", testing::load_context());
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

TEST(PubsubYaml, ABrokerStartsWithTheSubscriptionsAndAdvertisementsWrittenInTheFile) {
  auto workflow = load_workflow_text(
      "actors:\n"
      "  prices: {type: generator, count: 4, value: '{price: i * 6}'}\n"
      "  broker:\n"
      "    type: broker\n"
      "    advertisements: {prices: [[price, '>=', 0]]}\n"
      "    subscriptions:\n"
      "      alice: [[price, '<', 10]]\n"
      "      bob: [[price, between, 6, 12]]\n"
      "  out: {type: stdout}\n"
      "connections:\n"
      "  - prices -> broker.publish\n"
      "  - broker.deliveries -> out\n",
      "static.yaml", "", testing::load_context());
  ::testing::internal::CaptureStdout();
  testing::run_on_virtual_clock(*workflow, 1);
  EXPECT_EQ(lines(::testing::internal::GetCapturedStdout()),
            (std::vector<std::string>{R"({"subscriber":"alice","publication":{"price":0}})",
                                      R"({"subscriber":"alice","publication":{"price":6}})",
                                      R"({"subscriber":"bob","publication":{"price":6}})",
                                      R"({"subscriber":"bob","publication":{"price":12}})"}));
}

TEST(PubsubYaml, FilterMistakesAreReportedAtTheirParameterWithWhatWasExpected) {
  EXPECT_EQ(load_error("actors:\n"
                       "  b:\n"
                       "    type: broker\n"
                       "    subscriptions:\n"
                       "      alice: [[price, like, 10]]\n"),
            "bad.yaml:5:7: invalid 'subscriptions' for actor 'b': alice: predicate 1 "
            "[\"price\",\"like\",10]: unknown operator 'like'; expected one of =, !=, <, <=, >, "
            ">=, prefix, exists, between");
  EXPECT_EQ(load_error("actors:\n"
                       "  b: {type: broker, advertisements: {p: [[x, between, 1]]}}\n"),
            "bad.yaml:2:37: invalid 'advertisements' for actor 'b': p: predicate 1 "
            "[\"x\",\"between\",1]: 'between' expects two bounds: [attribute, between, low, high]");
  EXPECT_EQ(
      load_error("actors:\n"
                 "  b: {type: broker, subscriptions: [[x, '<', 1]]}\n"),
      "bad.yaml:2:36: invalid 'subscriptions' for actor 'b': expected a map from client names "
      "to filters, e.g. {alice: [[price, \"<\", 10]]}, got [[\"x\",\"<\",1]]");
  EXPECT_EQ(load_error("actors:\n"
                       "  b: {type: broker, neighbours: [c], subscriptions: {a: []}}\n"
                       "  c: {type: broker, neighbours: [b]}\n"),
            "bad.yaml:2:53: invalid 'subscriptions' for actor 'b': only a broker without "
            "neighbours starts with subscriptions; in an overlay, send them to its ports");
}

}  // namespace
}  // namespace cwf::pubsub
