// The two ends of a process link (actors/pubsub/process_link.hpp): the messages keep events
// whole (token, time, wave, punctuation) and refuse bytes that are not one; an inlet emits
// each sender's events in order, finishes once every sender ended the link, and reports as
// lost the events a sender numbered but that never came.
#include <gtest/gtest.h>

#include "actors/pubsub/process_link.hpp"
#include "nats_test_engine.hpp"
#include "runtime/snapshot/snapshot_error.hpp"

namespace cwf::pubsub::testing {
namespace {

Event event(std::int64_t n, Timestamp time, WaveTag wave) {
  return Event{Value::record({{"n", Value(n)}, {"name", Value("car " + std::to_string(n))}}), time,
               std::move(wave)};
}

TEST(ProcessLinkMessage, ABatchComesBackWithEveryEventWhole) {
  ProcessLinkMessage batch;
  batch.sender = 3;
  batch.sequence = 1000;
  const WaveTag root(7 * kSecond, 42);
  batch.events = {event(1, 7 * kSecond, root.child(0, false)),
                  event(2, 8 * kSecond, root.child(1, true).as_punctuation()),
                  event(3, -5, WaveTag{})};
  ProcessLinkMessage back = decode_process_link_message(encode(batch));
  EXPECT_EQ(back.kind, ProcessLinkMessage::Kind::batch);
  EXPECT_EQ(back.sender, 3u);
  EXPECT_EQ(back.sequence, 1000u);
  ASSERT_EQ(back.events.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back.events[i].token, batch.events[i].token) << i;
    EXPECT_EQ(back.events[i].time, batch.events[i].time) << i;
    EXPECT_EQ(back.events[i].wave, batch.events[i].wave) << i;
  }
  EXPECT_TRUE(back.events[1].wave.is_punctuation());
}

TEST(ProcessLinkMessage, AnEndSaysHowManyEventsWereSent) {
  ProcessLinkMessage end;
  end.kind = ProcessLinkMessage::Kind::end;
  end.sender = 1;
  end.sequence = 123456789;
  ProcessLinkMessage back = decode_process_link_message(encode(end));
  EXPECT_EQ(back.kind, ProcessLinkMessage::Kind::end);
  EXPECT_EQ(back.sender, 1u);
  EXPECT_EQ(back.sequence, 123456789u);
  EXPECT_TRUE(back.events.empty());
}

std::string decode_error(std::vector<std::uint8_t> bytes) {
  try {
    decode_process_link_message(bytes);
  } catch (const SnapshotError& e) {
    return e.what();
  }
  return "";
}

TEST(ProcessLinkMessage, BytesThatAreNotAMessageAreRefusedSayingWhy) {
  ProcessLinkMessage batch;
  batch.events = {event(1, 0, {}), event(2, 0, {})};
  std::vector<std::uint8_t> bytes = encode(batch);
  EXPECT_NE(decode_error({7, 0, 0}).find("the message kind"), std::string::npos);
  std::vector<std::uint8_t> cut(bytes.begin(), bytes.end() - 3);
  EXPECT_NE(decode_error(cut), "");
  bytes.push_back(0);
  EXPECT_NE(decode_error(bytes).find("bytes left after its end"), std::string::npos);
  // A count larger than what follows is refused before anything is allocated for it.
  EXPECT_NE(decode_error({0, 0, 0, 0xff, 0xff, 0xff, 0x7f}).find("the event count"),
            std::string::npos);
}

// Publishes what a sending process would, once the inlet answered on the ready subject.
class FakeSender {
 public:
  FakeSender(const std::string& url, std::string subject) : subject_(std::move(subject)) {
    NatsConnectionOptions options;
    options.servers = {url};
    connection_ = std::make_unique<NatsConnection>(options);
  }
  bool await_inlet() {
    return eventually([&] {
      natsMsg* reply = nullptr;
      natsStatus status = natsConnection_RequestString(&reply, connection_->get(),
                                                       ready_subject(subject_).c_str(), "", 200);
      natsMsg_Destroy(reply);
      return status == NATS_OK;
    });
  }
  void send(const ProcessLinkMessage& message) {
    std::vector<std::uint8_t> bytes = encode(message);
    ASSERT_EQ(natsConnection_Publish(connection_->get(), subject_.c_str(), bytes.data(),
                                     static_cast<int>(bytes.size())),
              NATS_OK);
  }
  void batch(std::uint32_t sender, std::uint64_t sequence, std::int64_t from, std::int64_t to) {
    ProcessLinkMessage message;
    message.sender = sender;
    message.sequence = sequence;
    for (std::int64_t n = from; n < to; ++n)
      message.events.push_back(event(n, n * kSecond, WaveTag(n * kSecond, 1)));
    send(message);
  }
  void end(std::uint32_t sender, std::uint64_t sent) {
    ProcessLinkMessage message;
    message.kind = ProcessLinkMessage::Kind::end;
    message.sender = sender;
    message.sequence = sent;
    send(message);
  }

 private:
  std::string subject_;
  std::unique_ptr<NatsConnection> connection_;
};

ProcessLinkOptions inlet_options(const NatsServerProcess& server, const std::string& subject) {
  ProcessLinkOptions options;
  options.connection.servers = {server.url()};
  options.subject = subject;
  options.port = "sink.in";
  return options;
}

// An inlet on `subject` feeding a gatherer, run by an engine, and a sender playing the processes
// on the other end once the inlet answered.
struct InletRun {
  InletRun(const NatsServerProcess& server, const std::string& subject,
           std::set<std::uint32_t> senders)
      : engine("inlet") {
    engine.add("link",
               std::make_unique<ProcessInlet>(inlet_options(server, subject), std::move(senders)));
    gather = &engine.add("sink", std::make_unique<Gather>());
    engine.connect("link", "sink");
    engine.start();
    sender = std::make_unique<FakeSender>(server.url(), subject);
  }
  Engine engine;
  Gather* gather = nullptr;
  std::unique_ptr<FakeSender> sender;
};

TEST(ProcessInlet, EmitsEachSendersEventsInOrderAndEndsWhenEverySenderEnded) {
  CWF_START_NATS(server);
  InletRun run(*server, "cwf.test.a", {1, 2});
  FakeSender& sender = *run.sender;
  ASSERT_TRUE(sender.await_inlet());
  sender.batch(1, 0, 0, 3);
  sender.batch(2, 0, 100, 102);
  sender.batch(1, 3, 3, 5);
  sender.end(1, 5);
  EXPECT_FALSE(eventually([&] { return run.engine.finished(); }, std::chrono::milliseconds(200)))
      << "the inlet ended before sender 2 did";
  sender.end(2, 2);
  ASSERT_TRUE(run.engine.wait());
  std::vector<std::int64_t> from_1, from_2;
  for (std::int64_t n : run.gather->ints("n"))
    (n >= 100 ? from_2 : from_1).push_back(n);
  EXPECT_EQ(from_1, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(from_2, (std::vector<std::int64_t>{100, 101}));
  EXPECT_EQ(run.engine.errors("link"), 0u);
  EXPECT_EQ(run.engine.lost("link"), 0u);
}

TEST(ProcessInlet, EventsNumberedButNeverReceivedAreCountedAsLost) {
  CWF_START_NATS(server);
  InletRun run(*server, "cwf.test.b", {0});
  FakeSender& sender = *run.sender;
  ASSERT_TRUE(sender.await_inlet());
  sender.batch(0, 0, 0, 3);
  sender.batch(0, 5, 5, 7);  // events 3 and 4 never came
  sender.end(0, 10);         // nor 7, 8 and 9
  ASSERT_TRUE(run.engine.wait());
  EXPECT_EQ(run.gather->ints("n"), (std::vector<std::int64_t>{0, 1, 2, 5, 6}));
  EXPECT_EQ(run.engine.lost("link"), 5u);
}

TEST(ProcessInlet, AMessageFromAProcessThatDoesNotSendOnTheLinkIsAnError) {
  CWF_START_NATS(server);
  InletRun run(*server, "cwf.test.c", {0});
  FakeSender& sender = *run.sender;
  ASSERT_TRUE(sender.await_inlet());
  sender.batch(4, 0, 0, 2);
  sender.batch(0, 0, 10, 11);
  sender.end(0, 1);
  ASSERT_TRUE(run.engine.wait());
  EXPECT_EQ(run.gather->ints("n"), (std::vector<std::int64_t>{10}));
  EXPECT_EQ(run.engine.errors("link"), 1u);
}

// A source of `count` numbered records.
class Numbers final : public Actor {
 public:
  explicit Numbers(std::int64_t count) : count_(count) { add_output("out"); }
  void fire(FiringContext& context) override {
    for (int i = 0; i < 256 && next_ < count_; ++i)
      context.emit(Value::record({{"n", Value(next_++)}}));
  }
  bool postfire(FiringContext&) override { return next_ < count_; }

 private:
  std::int64_t count_, next_ = 0;
};

// The receiving end of a link as a test plays it: answers the outlet, counts what arrives, and
// grants credit only when told.
class CountingReceiver {
 public:
  CountingReceiver(const std::string& url, std::string subject) : subject_(std::move(subject)) {
    NatsConnectionOptions options;
    options.servers = {url};
    connection_ = std::make_unique<NatsConnection>(options);
    natsConnection_Subscribe(&data_, connection_->get(), subject_.c_str(), &on_data, this);
    natsConnection_Subscribe(&ready_, connection_->get(), ready_subject(subject_).c_str(),
                             &on_ready, nullptr);
    std::string error;
    connection_->flush(5 * kSecond, error);
  }
  ~CountingReceiver() {
    for (natsSubscription* sub : {data_, ready_}) {
      natsSubscription_Unsubscribe(sub);
      natsSubscription_Destroy(sub);
    }
  }
  std::uint64_t events() const { return events_.load(); }
  bool ended() const { return ended_.load(); }
  void grant(std::uint64_t taken) {
    const std::string text = std::to_string(taken);
    natsConnection_PublishString(connection_->get(), credit_subject(subject_, 0).c_str(),
                                 text.c_str());
  }

 private:
  static void on_data(natsConnection*, natsSubscription*, natsMsg* message, void* closure) {
    auto* self = static_cast<CountingReceiver*>(closure);
    const auto* data = reinterpret_cast<const std::uint8_t*>(natsMsg_GetData(message));
    ProcessLinkMessage decoded = decode_process_link_message(
        {data, static_cast<std::size_t>(natsMsg_GetDataLength(message))});
    if (decoded.kind == ProcessLinkMessage::Kind::end)
      self->ended_.store(true);
    else
      self->events_.fetch_add(decoded.events.size());
    natsMsg_Destroy(message);
  }
  static void on_ready(natsConnection* connection, natsSubscription*, natsMsg* message, void*) {
    if (const char* reply = natsMsg_GetReply(message))
      natsConnection_PublishString(connection, reply, "ready");
    natsMsg_Destroy(message);
  }

  std::string subject_;
  std::unique_ptr<NatsConnection> connection_;
  natsSubscription* data_ = nullptr;
  natsSubscription* ready_ = nullptr;
  std::atomic<std::uint64_t> events_{0};
  std::atomic<bool> ended_{false};
};

TEST(ProcessOutlet, SendsNoMoreThanItsWindowBeyondWhatTheInletTookIn) {
  CWF_START_NATS(server);
  CountingReceiver receiver(server->url(), "cwf.test.flow");
  ProcessLinkOptions options;
  options.connection.servers = {server->url()};
  options.subject = "cwf.test.flow";
  options.port = "far.in";
  options.batch = 100;
  options.window = 1000;
  Engine engine("outlet");
  engine.add("numbers", std::make_unique<Numbers>(100000));
  engine.add("link", std::make_unique<ProcessOutlet>(options));
  engine.connect("numbers", "link");
  // However the test ends, the run can end too (an assertion failed before the credits came).
  struct GrantAll {
    CountingReceiver& receiver;
    ~GrantAll() { receiver.grant(100000); }
  } grant_all{receiver};
  engine.start();
  // Without credit the outlet stops at its window (give or take the batch it was filling when it
  // got there, which its 2 ms timer sends), and the run waits with it.
  ASSERT_TRUE(eventually([&] { return receiver.events() >= 1000; })) << receiver.events();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const std::uint64_t held_at = receiver.events();
  EXPECT_LE(held_at, 1100u);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(receiver.events(), held_at);
  EXPECT_FALSE(engine.finished());
  // A credit lets one more window through beyond what it says was taken in.
  receiver.grant(2000);
  ASSERT_TRUE(eventually([&] { return receiver.events() >= 3000; })) << receiver.events();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_LE(receiver.events(), 3100u);
  receiver.grant(100000);
  ASSERT_TRUE(engine.wait());
  EXPECT_TRUE(eventually([&] { return receiver.ended(); }));
  EXPECT_EQ(receiver.events(), 100000u);
  EXPECT_EQ(engine.lost("link"), 0u);
  EXPECT_EQ(engine.errors("link"), 0u);
}

}  // namespace
}  // namespace cwf::pubsub::testing
