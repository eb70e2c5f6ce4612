// What every push sink (tcp_sink, websocket_sink) is on the workflow's side: an actor whose
// firings only hand what they encoded to its endpoint on the network event loop (IoLoop), which
// writes. Nothing grows without bound: each peer has at most `max_pending` items waiting, and
// what cannot be written is counted by the endpoint and reported here as dropped (so a run that
// lost output never ends clean), peers let go as slow consumers as warnings.
//
// Once its input has ended (or the run ends, whichever comes first) the sink gives what is queued
// up to `linger` to be written, then closes the endpoint; what is left is reported as dropped at
// the end of the run. So the sinks of a run flush side by side, each from the moment its own
// stream is over, rather than one after the other at the end.
#pragma once

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "runtime/actor/actor.hpp"

namespace cwf::net {

class IoLoop;

// The event loop's side of a push sink; the counts are kept on the loop and read by the actor.
struct SinkEndpoint {
  explicit SinkEndpoint(boost::asio::io_context& c) : context(c) {}
  virtual ~SinkEndpoint() = default;
  // Closes the endpoint's sockets, on the loop's thread.
  virtual void stop() = 0;

  boost::asio::io_context& context;
  std::atomic<unsigned short> port{0};  // the port listened on, if any
  std::atomic<std::size_t> peer_count{0};
  std::atomic<std::uint64_t> dropped{0};    // items that will never be written
  std::atomic<std::uint64_t> slow{0};       // peers let go as slow consumers
  std::atomic<std::uint64_t> to_no_one{0};  // broadcast while no peer was connected
  std::atomic<std::uint64_t> queued{0};     // items waiting to be written, anywhere

  // ---- on the loop ----
  // Nothing more will be queued: once everything queued is written (or forgotten), the flushed
  // future is set and the endpoint stops (its peers learn that the stream is over). Whoever
  // writes or forgets queued items calls check_flushed() after, as its last step (it may stop
  // the endpoint).
  void close_when_flushed() {
    closing_ = true;
    check_flushed();
  }
  void check_flushed() {
    if (!closing_ || queued.load() > 0) return;
    closing_ = false;
    flushed_.set_value();
    stop();
  }
  std::future<void> flushed() { return flushed_.get_future(); }

 private:
  std::promise<void> flushed_;  // set once closing and nothing is queued
  bool closing_ = false;
};

struct PushSinkOptions {
  std::size_t max_pending = 65536;  // items waiting per peer
  Duration linger = 5 * kSecond;
};

class PushSink : public Actor {
 public:
  ~PushSink() override;

  void initialize(ActorContext& context) final;
  void end_of_input(FiringContext& context) final;
  void wrapup(ActorContext& context) final;
  // What was sent cannot be taken back: a resumed run would send it again or miss it.
  Checkpointing checkpointing() const override { return Checkpointing::unsupported; }

  // The port it listens on (once initialized; any thread).
  unsigned short port() const;
  // Peers connected now (any thread).
  std::size_t peers() const;

 protected:
  // `what` names the sink in reports, `items` what it sends ("lines", "messages").
  PushSink(const ActorPorts& ports, std::string what, std::string items, PushSinkOptions options);

  // Opens the endpoint for a run (an address in use is an error now, thrown), started on the
  // loop. The actor's per-run state is reset here too.
  virtual std::shared_ptr<SinkEndpoint> open(boost::asio::io_context& loop) = 0;
  // Why dropped items were dropped, for the report.
  virtual std::string why_dropped() const = 0;

  // The endpoint of the run (between initialize and wrapup).
  const std::shared_ptr<SinkEndpoint>& endpoint() const { return endpoint_; }
  // Reports what the endpoint dropped and the peers it let go since the last report.
  void report_losses(ActorContext& context);

 private:
  // Tells the endpoint to close once what is queued is written, if not told yet.
  void close_when_flushed();
  std::string what_;
  std::string items_;
  PushSinkOptions options_;
  std::shared_ptr<IoLoop> loop_;
  std::shared_ptr<SinkEndpoint> endpoint_;
  // Set once the endpoint was told to close when flushed (end of input, or wrapup).
  std::optional<std::future<void>> flushed_;
  std::chrono::steady_clock::time_point flush_by_;  // flushed_ + linger
  mutable std::mutex view_mutex_;                   // guards view_: endpoint_ for other threads
  std::shared_ptr<const SinkEndpoint> view_;
};

}  // namespace cwf::net
