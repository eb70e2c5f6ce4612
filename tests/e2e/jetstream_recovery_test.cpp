// JetStream end to end through the `cwf` binary and a real `nats-server -js` on loopback: a
// workflow reads a stream through a durable consumer and publishes windows of it into another
// stream. While the test publishes the input, the engine is killed (SIGKILL) at random moments
// and resumed from its checkpoints, and the server is killed and restarted once; at the end the
// output stream must hold every window exactly once.
#include <gtest/gtest.h>
#include <nats/nats.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "actors/pubsub/nats_server_process.hpp"
#include "process.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;
using pubsub::NatsServerProcess;

constexpr int kRecords = 6000;  // windows of 10: 600 output messages
constexpr int kWindow = 10;
constexpr int kMaxRuns = 60;

// A JetStream client of the test's own: makes the streams, publishes the input, reads the output.
class TestClient {
 public:
  explicit TestClient(const std::string& url) {
    natsOptions* options = nullptr;
    natsOptions_Create(&options);
    natsOptions_SetURL(options, url.c_str());
    natsOptions_SetMaxReconnect(options, -1);
    natsOptions_SetReconnectWait(options, 50);
    natsOptions_SetReconnectBufSize(options, 0);  // fail fast while the server is away: retried
    natsStatus status = natsConnection_Connect(&connection_, options);
    natsOptions_Destroy(options);
    if (status != NATS_OK) throw std::runtime_error("cannot connect the test client");
    natsConnection_JetStream(&js_, connection_, nullptr);
  }
  ~TestClient() {
    jsCtx_Destroy(js_);
    natsConnection_Destroy(connection_);
  }

  void add_stream(const char* name, const char* subject) {
    jsStreamConfig config;
    jsStreamConfig_Init(&config);
    config.Name = name;
    const char* subjects[] = {subject};
    config.Subjects = subjects;
    config.SubjectsLen = 1;
    config.Storage = js_FileStorage;
    jsErrCode code{};
    jsStreamInfo* info = nullptr;
    ASSERT_EQ(js_AddStream(&info, js_, &config, nullptr, &code), NATS_OK) << code;
    jsStreamInfo_Destroy(info);
  }

  // Stored in the stream once, however often it has to be sent (the server may be away).
  void publish(const char* subject, const std::string& payload, const std::string& id) {
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MsgId = id.c_str();
    options.MaxWait = 500;
    for (;;) {
      jsPubAck* ack = nullptr;
      jsErrCode code{};
      if (js_Publish(&ack, js_, subject, payload.data(), static_cast<int>(payload.size()), &options,
                     &code) == NATS_OK) {
        jsPubAck_Destroy(ack);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  // Every message of `stream`, in order.
  std::vector<std::string> messages(const char* stream) {
    std::vector<std::string> out;
    jsStreamInfo* info = nullptr;
    jsErrCode code{};
    EXPECT_EQ(js_GetStreamInfo(&info, js_, stream, nullptr, &code), NATS_OK);
    if (!info) return out;
    std::uint64_t last = info->State.LastSeq;
    jsStreamInfo_Destroy(info);
    for (std::uint64_t seq = 1; seq <= last; ++seq) {
      natsMsg* message = nullptr;
      if (js_GetMsg(&message, js_, stream, seq, nullptr, &code) != NATS_OK) continue;
      out.emplace_back(natsMsg_GetData(message),
                       static_cast<std::size_t>(natsMsg_GetDataLength(message)));
      natsMsg_Destroy(message);
    }
    return out;
  }

 private:
  natsConnection* connection_ = nullptr;
  jsCtx* js_ = nullptr;
};

class JetStreamRecovery : public ::testing::Test {
 protected:
  void SetUp() override {
    if (NatsServerProcess::find_binary().empty()) GTEST_SKIP() << "nats-server is not installed";
    dir_ = fs::temp_directory_path() /
           ("cwf-jetstream-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    server_ = std::make_unique<NatsServerProcess>(std::chrono::seconds(20),
                                                  (dir_ / "jetstream").string());
  }
  void TearDown() override {
    server_.reset();
    if (!HasFailure()) fs::remove_all(dir_);
  }

  std::string write_workflow() {
    const std::string url = server_->url();
    std::string path = (dir_ / "windows.yaml").string();
    std::ofstream(path) << "name: jetstream-windows\n"
                           "actors:\n"
                           "  read: {type: nats_subscribe, servers: ["
                        << url
                        << "], subject: cwf.in, stream: IN, durable: windows-reader, "
                           "until: exists(/eos), batch: 8}\n"
                           "  windows:\n"
                           "    type: expression\n"
                           "    emit: '{first: window[0]/i, last: /i, n: len(window)}'\n"
                           "  write: {type: nats_publish, servers: ["
                        << url
                        << "], subject: cwf.out, jetstream: true}\n"
                           "connections:\n"
                           "  - {from: read, to: windows, window: {size: "
                        << kWindow << " tokens, step: " << kWindow
                        << " tokens}}\n"
                           "  - windows -> write\n";
    return path;
  }

  static std::vector<std::string> expected_windows() {
    std::vector<std::string> out;
    for (int first = 0; first + kWindow <= kRecords; first += kWindow)
      out.push_back("{\"first\":" + std::to_string(first) +
                    ",\"last\":" + std::to_string(first + kWindow - 1) +
                    ",\"n\":" + std::to_string(kWindow) + "}");
    return out;
  }

  fs::path dir_;
  std::unique_ptr<NatsServerProcess> server_;
};

TEST_F(JetStreamRecovery, EveryWindowReachesTheOutputStreamOnceThroughEngineAndServerCrashes) {
  TestClient client(server_->url());
  client.add_stream("IN", "cwf.in");
  client.add_stream("OUT", "cwf.out");
  const std::string workflow = write_workflow();

  // The input arrives while the engine runs: a record every half millisecond, the end marker
  // last.
  std::atomic<int> published{0};
  std::jthread input([&] {
    for (int i = 0; i < kRecords; ++i) {
      client.publish("cwf.in", "{\"i\":" + std::to_string(i) + "}", "in-" + std::to_string(i));
      published.store(i + 1);
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    client.publish("cwf.in", "{\"eos\":true}", "in-eos");
  });

  std::mt19937 random(20261126);
  std::uniform_int_distribution<int> delay_ms(50, 500);
  const std::string checkpoints = (dir_ / "checkpoints").string();
  int kills = 0, resumed = 0, runs = 0;
  bool server_restarted = false;
  for (bool first = true;; first = false) {
    ASSERT_LT(++runs, kMaxRuns) << "the run never finished";
    ProcessOptions options;
    options.interrupt_signal = SIGKILL;
    if (runs < kMaxRuns - 5) options.interrupt_after = std::chrono::milliseconds(delay_ms(random));
    // Once, mid-stream: the server goes down for a moment while the engine runs.
    std::jthread server_crash;
    if (!server_restarted && kills == 2) {
      server_restarted = true;
      server_crash = std::jthread([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        server_->kill();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        server_->start();
      });
      options.interrupt_after = std::chrono::milliseconds(1500);
    }
    ProcessResult result = run_cwf({"run", workflow, first ? "--checkpoint-dir" : "--resume",
                                    checkpoints, "--checkpoint-every", "20ms"},
                                   options);
    if (server_crash.joinable()) server_crash.join();
    if (result.err.find("cwf run: resuming from checkpoint") != std::string::npos) ++resumed;
    if (result.status == 0) break;
    ASSERT_EQ(result.status, 128 + SIGKILL) << result.err;
    ++kills;
  }
  input.join();
  std::printf("%d kills, %d runs resumed from a checkpoint, the server restarted once\n", kills,
              resumed);
  EXPECT_GT(kills, 0);
  EXPECT_GT(resumed, 0);
  EXPECT_TRUE(server_restarted);
  // Each window once. (A publication the restarted server lost is sent again after later ones:
  // the stream's order is not the windows' then.)
  std::vector<std::string> got = client.messages("OUT"), want = expected_windows();
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got.size(), want.size());
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace cwf::testing

namespace cwf::testing {
namespace {

TEST(JetStreamParameters, AStreamWithoutADurableIsRefusedWithWhereItIsWritten) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("cwf-jetstream-params-" + std::to_string(::getpid()) + ".yaml"))
                               .string();
  std::ofstream(path) << "name: p\n"
                         "actors:\n"
                         "  read: {type: nats_subscribe, subject: a, stream: A}\n"
                         "  out: {type: stdout}\n"
                         "connections:\n"
                         "  - read -> out\n";
  ProcessResult result = run_cwf({"validate", path});
  std::filesystem::remove(path);
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find(":3:"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("needs both `stream` and `durable`"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace cwf::testing
