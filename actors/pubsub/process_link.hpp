// The two ends of a process link (docs/architecture.md, "Processes"): when a workflow runs over
// several processes, every connection into an input port that another process runs goes into a
// process outlet here, which publishes what reaches it on the link's NATS subject; there a
// process inlet, a source, takes the messages of every sending process and emits their events
// into the port, whole (token, time, wave) and in each sender's order.
//
// Nothing is lost unseen: each sender numbers its events on the link, an inlet checks that they
// come without a gap and that each sender's end says how many it sent, and reports the missing
// ones as lost. An outlet waits, before its first message, until the inlet answers on the
// link's `.ready` subject (it subscribes to the data first, so what follows reaches it), and
// sends its end once its input has ended. An inlet finishes once every sender's end came: the
// receiving process's input ends with it (Actor::fed_by_other_processes).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "actors/pubsub/nats_connection.hpp"
#include "actors/pubsub/process_link_message.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/actor/external_wake.hpp"
#include "runtime/graph/process_placement.hpp"

namespace cwf::pubsub {

struct ProcessLinkOptions {
  NatsConnectionOptions connection;
  std::string subject;                      // the link's subject (one per receiving input port)
  std::string port;                         // "actor.port" it carries events to, for messages
  std::uint32_t process = 0;                // this process
  std::size_t batch = 512;                  // events per message at most
  Duration flush_after = 2 * kMillisecond;  // a message waits this long at most for more
  Duration ready_timeout = 60 * kSecond;    // how long an outlet waits for the inlet to answer
  // Flow control: an outlet has at most `window` events on the way that its inlet has not taken
  // in yet; an inlet tells each sender what it took every `credit_every` events.
  std::uint64_t window = 65536;
  std::uint64_t credit_every = 8192;
};

// The subject an outlet asks on, and an inlet answers on, before the first message.
std::string ready_subject(const std::string& link_subject);
// Where an inlet tells process `sender` how many of its events it has taken in (a decimal
// number): the outlet's credit.
std::string credit_subject(const std::string& link_subject, std::uint32_t sender);

class ProcessOutlet final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "the events for the other process"}}, {}};

  explicit ProcessOutlet(ProcessLinkOptions options);
  ~ProcessOutlet() override;

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  void end_of_input(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  // `window` events sent that the inlet has not taken in yet: the receiving process is behind.
  bool holds_back_input() const override;

  std::uint64_t sent() const { return sent_.load(std::memory_order_relaxed); }

  struct Credit;  // shared with cnats' delivery thread

 private:
  // Publishes the events waiting (if any); false (reported) when they could not be.
  void publish_batch(ActorContext& context);
  void publish(ActorContext& context, const ProcessLinkMessage& message, std::uint64_t events);
  // Waits once for the inlet to answer; false (reported once) when it did not in time.
  bool inlet_ready(ActorContext& context);
  void send_end(ActorContext& context);
  void close_credits();

  ProcessLinkOptions options_;
  std::unique_ptr<NatsConnection> connection_;
  std::shared_ptr<Credit> credit_;
  natsSubscription* credits_ = nullptr;
  ProcessLinkMessage batch_;
  std::atomic<std::uint64_t> sent_{0};  // events handed to the client
  bool ready_ = false, unreachable_ = false, ended_ = false;
};

class ProcessInlet final : public Actor {
 public:
  static inline const ActorPorts kPorts{{}, {{"out", "the events from the other processes"}}};

  // `senders`: the processes that send on the link (each ends it once).
  ProcessInlet(ProcessLinkOptions options, std::set<std::uint32_t> senders);
  ~ProcessInlet() override;

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  bool postfire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  bool fed_by_other_processes() const override { return true; }

  std::uint64_t received() const { return received_.load(std::memory_order_relaxed); }

  struct Inbox;  // shared with cnats' delivery thread

 private:
  void take(FiringContext& context, ProcessLinkMessage&& message);
  void close();

  ProcessLinkOptions options_;
  std::set<std::uint32_t> senders_;
  std::unique_ptr<NatsConnection> connection_;
  std::shared_ptr<Inbox> inbox_;
  natsSubscription* data_ = nullptr;
  natsSubscription* ready_ = nullptr;
  std::map<std::uint32_t, std::uint64_t> next_;      // by sender: the sequence expected next
  std::map<std::uint32_t, std::uint64_t> credited_;  // by sender: what it was told last
  std::set<std::uint32_t> ended_;
  std::atomic<std::uint64_t> received_{0};
};

// Process links over NATS, for runtime/graph/process_placement.hpp.
class NatsProcessLinks final : public ProcessLinkMaker {
 public:
  NatsProcessLinks(NatsConnectionOptions connection, std::uint32_t process)
      : connection_(std::move(connection)), process_(process) {}
  std::unique_ptr<Actor> outlet(const std::string& subject, const std::string& port) override;
  std::unique_ptr<Actor> inlet(const std::string& subject, const std::string& port,
                               std::set<std::uint32_t> senders) override;

 private:
  ProcessLinkOptions options(const std::string& subject, const std::string& port) const;

  NatsConnectionOptions connection_;
  std::uint32_t process_;
};

}  // namespace cwf::pubsub
