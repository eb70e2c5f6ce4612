// The workflow of workflows/examples/nats split across two `cwf run` processes connected through
// a nats-server on a loopback port: the consumer's output file must be exactly the expected one.
#include <gtest/gtest.h>

#include <memory>
#include <thread>

#include "actors/pubsub/nats_server_process.hpp"
#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kExample = std::string(CWF_SOURCE_DIR) + "/workflows/examples/nats/";

TEST(NatsSplitWorkflow, TwoProcessesThroughNatsWriteExactlyTheExpectedFile) {
  if (pubsub::NatsServerProcess::find_binary().empty())
    GTEST_SKIP() << "nats-server is not installed (apt-get install nats-server)";
  pubsub::NatsServerProcess server;
  std::string output = ::testing::TempDir() + "cwf_nats_big_orders.jsonl";
  std::remove(output.c_str());

  ProcessResult consumer;
  std::thread consumer_thread([&] {
    consumer = run_cwf({"run", kExample + "consumer.yaml", "--set",
                        "orders.servers=" + server.url(), "--set", "out.path=" + output});
  });
  // NATS keeps nothing for absent subscribers: publish only once the consumer is subscribed.
  bool subscribed = server.wait_for_subscriptions("orders.>", 1, std::chrono::seconds(60));
  ProcessResult producer;
  if (subscribed)
    producer = run_cwf(
        {"run", kExample + "producer.yaml", "--set", "publish.servers=" + server.url(), "--stats"});
  else
    server.kill();  // the consumer cannot get its end marker; let it fail instead of hanging
  consumer_thread.join();
  ASSERT_TRUE(subscribed) << "the consumer never subscribed: " << consumer.err;
  ASSERT_EQ(producer.status, 0) << producer.err;
  ASSERT_EQ(consumer.status, 0) << consumer.err;
  EXPECT_EQ(read_file(output), read_file(kExample + "expected_big_orders.jsonl"));
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
