// What every push source (tcp_source, websocket_source, ...) is on the workflow's side: an actor
// that emits what its endpoint on the network event loop (IoLoop) received, up to `batch` items
// a firing, and otherwise waits for its ExternalWake — no worker or director thread ever waits
// on the network. It ends at `limit` records or once its endpoint says no more will come;
// records received and not emitted when the run ends are reported as dropped.
//
// A source type provides open(): the endpoint (sockets, acceptor, per-connection decoders),
// started on the loop, receiving into the endpoint's PushInbox.
#pragma once

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "actors/net/push_inbox.hpp"
#include "runtime/actor/actor.hpp"

namespace cwf::net {

class IoLoop;

// The event loop's side of a push source. The loop outlives it: the actor holds the loop, and a
// loop that ends destroys the handlers that hold the endpoint.
struct PushEndpoint {
  PushEndpoint(boost::asio::io_context& c, std::size_t max_pending, ExternalWake wake)
      : context(c), inbox(max_pending, std::move(wake)) {}
  virtual ~PushEndpoint() = default;
  // Closes the endpoint's sockets and lets the readers waiting for room go; on the loop's
  // thread, once the source is done, the run ended or the actor went (it may run more than
  // once). Nothing may be pushed into the inbox after it ran: the handlers check `stopped`.
  virtual void stop() = 0;

  boost::asio::io_context& context;
  PushInbox inbox;
  std::atomic<unsigned short> port{0};  // the port listened on, if any
};

class PushSource : public Actor {
 public:
  static constexpr int kOut = 0;
  static constexpr int kErrors = 1;

  ~PushSource() override;

  void initialize(ActorContext& context) final;
  void fire(FiringContext& context) final;
  bool postfire(FiringContext& context) final;
  void wrapup(ActorContext& context) final;
  // What was received cannot be asked for again: a resumed run would miss or repeat it.
  Checkpointing checkpointing() const override { return Checkpointing::unsupported; }

  // The port it listens on (once initialized; any thread).
  unsigned short port() const;
  // Records received and not emitted yet (any thread).
  std::size_t pending() const;

 protected:
  // `ports` has `out` at kOut and `errors` at kErrors; `what` names the source in reports.
  PushSource(const ActorPorts& ports, std::string what, PushSourceOptions options);

  // Opens the endpoint for a run (an address in use is an error now, thrown) and starts it on
  // the loop.
  virtual std::shared_ptr<PushEndpoint> open(boost::asio::io_context& loop, ExternalWake wake) = 0;

 private:
  void stop_endpoint();
  void stop_endpoint_and_wait();

  std::string what_;
  PushSourceOptions options_;
  std::shared_ptr<IoLoop> loop_;  // held until the actor goes: the loop outlives its sockets
  std::shared_ptr<PushEndpoint> endpoint_;
  mutable std::mutex view_mutex_;  // guards view_: endpoint_ for other threads
  std::shared_ptr<const PushEndpoint> view_;
  std::int64_t emitted_ = 0;
  bool done_ = false;
};

}  // namespace cwf::net
