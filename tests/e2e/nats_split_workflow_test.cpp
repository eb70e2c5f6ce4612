// The workflow of workflows/examples/nats split across two `cwf run` processes connected through
// a nats-server on a loopback port: the consumer's output file must be exactly the expected one,
// under every director. The dispatcher and its replicas run under their own directors only: a
// replica cannot know when its input ends and runs for a fixed 10 s.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <thread>

#include "actors/pubsub/nats_server_process.hpp"
#include "process.hpp"
#include "runtime/values/value_json.hpp"
#include "tests/required_dependency.hpp"

namespace cwf::testing {
namespace {

const std::string kExample = std::string(CWF_SOURCE_DIR) + "/workflows/examples/nats/";

// Both processes under each director (on the wall clock: the NATS sources poll their inbox on it).
class NatsProducerConsumer : public ::testing::TestWithParam<std::string> {};

TEST_P(NatsProducerConsumer, TwoProcessesThroughNatsWriteExactlyTheExpectedFile) {
  CWF_REQUIRE_DEPENDENCY("nats-server", "nats-server",
                         !pubsub::NatsServerProcess::find_binary().empty());
  pubsub::NatsServerProcess server;
  std::string output =
      ::testing::TempDir() + "cwf_nats_big_orders_" + director_label(GetParam()) + ".jsonl";
  std::remove(output.c_str());
  const std::vector<std::string> director = director_args(GetParam());

  ProcessResult consumer;
  std::thread consumer_thread([&] {
    std::vector<std::string> args = {"run",   kExample + "consumer.yaml",
                                     "--set", "orders.servers=" + server.url(),
                                     "--set", "out.path=" + output};
    args.insert(args.end(), director.begin(), director.end());
    consumer = run_cwf(args);
  });
  // NATS keeps nothing for absent subscribers: publish only once the consumer is subscribed.
  bool subscribed = server.wait_for_subscriptions("orders.>", 1, std::chrono::seconds(60));
  ProcessResult producer;
  if (subscribed) {
    std::vector<std::string> args = {"run", kExample + "producer.yaml", "--set",
                                     "publish.servers=" + server.url(), "--stats"};
    args.insert(args.end(), director.begin(), director.end());
    producer = run_cwf(args);
  } else {
    server.kill();  // the consumer cannot get its end marker; let it fail instead of hanging
  }
  consumer_thread.join();
  ASSERT_TRUE(subscribed) << "the consumer never subscribed: " << consumer.err;
  ASSERT_EQ(producer.status, 0) << producer.err;
  ASSERT_EQ(consumer.status, 0) << consumer.err;
  EXPECT_EQ(read_file(output), read_file(kExample + "expected_big_orders.jsonl"));
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, NatsProducerConsumer, ::testing::ValuesIn(kEveryDirector),
                         [](const auto& info) { return director_label(info.param); });

// dispatcher.yaml hands each order of order_steps.jsonl to one of two replica.yaml processes.
TEST(NatsSplitWorkflow, TwoReplicaProcessesEachGetWholeOrdersInOrder) {
  CWF_REQUIRE_DEPENDENCY("nats-server", "nats-server",
                         !pubsub::NatsServerProcess::find_binary().empty());
  pubsub::NatsServerProcess server;
  std::vector<std::string> outputs;
  std::vector<ProcessResult> replicas(2);
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    std::string name = "r" + std::to_string(r + 1);
    outputs.push_back(::testing::TempDir() + "cwf_nats_replica_" + name + ".jsonl");
    std::remove(outputs.back().c_str());
    threads.emplace_back([&, r, name, output = outputs.back()] {
      // A replica cannot know when the instances end: it runs for a while, long enough for a
      // slow machine to dispatch 23 events.
      replicas[r] = run_cwf({"run", kExample + "replica.yaml", "--set", "orders.replica=" + name,
                             "--set", "orders.servers=" + server.url(), "--set",
                             "out.path=" + output, "--for", "10s"});
    });
  }
  bool ready =
      server.wait_for_subscriptions("cwf.dispatch.orders.claim", 2, std::chrono::seconds(8));
  ProcessResult dispatcher;
  if (ready)
    dispatcher =
        run_cwf({"run", kExample + "dispatcher.yaml", "--set", "dispatch.servers=" + server.url()});
  for (auto& t : threads)
    t.join();
  ASSERT_TRUE(ready) << replicas[0].err << replicas[1].err;
  ASSERT_EQ(dispatcher.status, 0) << dispatcher.err;
  // Every order's steps, from the input file and from the replicas' outputs.
  auto steps_by_order = [](const std::string& text, std::set<std::int64_t>* orders) {
    std::map<std::int64_t, std::vector<std::int64_t>> steps;
    for (const std::string& line : lines_of(text)) {
      Value record = parse_json(line);
      std::int64_t order = record.field("order")->as_int();
      steps[order].push_back(record.field("step")->as_int());
      if (orders) orders->insert(order);
    }
    return steps;
  };
  auto expected = steps_by_order(read_file(kExample + "order_steps.jsonl"), nullptr);
  std::map<std::int64_t, std::vector<std::int64_t>> seen;
  std::set<std::int64_t> owners[2];
  for (int r = 0; r < 2; ++r) {
    ASSERT_EQ(replicas[r].status, 0) << replicas[r].err;
    for (auto& [order, steps] : steps_by_order(read_file(outputs[r]), &owners[r]))
      seen[order] = steps;
  }
  for (std::int64_t order : owners[0])
    EXPECT_EQ(owners[1].count(order), 0u) << order << " reached both replicas";
  EXPECT_EQ(seen, expected);  // every order whole, its steps in order
}

TEST(NatsSplitWorkflow, ABadSubjectIsReportedWithFileAndLine) {
  ProcessResult result =
      run_cwf({"run", kExample + "consumer.yaml", "--set", "orders.subject=a..b"});
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.err.find("consumer.yaml:9:3: invalid 'subject'"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("not a subject"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace cwf::testing
