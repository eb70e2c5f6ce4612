#include "actors/net/push_sink.hpp"

#include <boost/asio/post.hpp>

#include "actors/net/io_loop.hpp"

namespace cwf::net {

namespace asio = boost::asio;

PushSink::PushSink(const ActorPorts& ports, std::string what, std::string items,
                   PushSinkOptions options)
    : Actor(ports), what_(std::move(what)), items_(std::move(items)), options_(options) {}

PushSink::~PushSink() {
  if (endpoint_) asio::post(endpoint_->context, [endpoint = endpoint_] { endpoint->stop(); });
}

unsigned short PushSink::port() const {
  std::lock_guard lock(view_mutex_);
  return view_ ? view_->port.load() : 0;
}

std::size_t PushSink::peers() const {
  std::lock_guard lock(view_mutex_);
  return view_ ? view_->peer_count.load() : 0;
}

void PushSink::initialize(ActorContext&) {
  if (!loop_) loop_ = IoLoop::shared();
  // A run whose wrapup never came (another actor's initialize threw) leaves its endpoint open.
  if (endpoint_) asio::post(endpoint_->context, [endpoint = endpoint_] { endpoint->stop(); });
  flushed_.reset();
  endpoint_ = open(loop_->context());
  std::lock_guard lock(view_mutex_);
  view_ = endpoint_;
}

void PushSink::report_losses(ActorContext& context) {
  if (std::uint64_t slow = endpoint_->slow.exchange(0))
    context.report_warning(what_ + ": " + std::to_string(slow) +
                           " peer(s) disconnected as slow consumers (max_pending " +
                           std::to_string(options_.max_pending) + " " + items_ + " waiting)");
  if (std::uint64_t dropped = endpoint_->dropped.exchange(0))
    context.report_dropped(dropped, what_ + ": " + items_ + " not written (" + why_dropped() + ")");
}

void PushSink::close_when_flushed() {
  if (!endpoint_ || flushed_) return;
  flushed_ = endpoint_->flushed();
  flush_by_ = std::chrono::steady_clock::now() + std::chrono::nanoseconds(options_.linger);
  asio::post(endpoint_->context, [endpoint = endpoint_] { endpoint->close_when_flushed(); });
}

// Nothing more comes: what is queued starts to be flushed now, while the rest of the run goes on.
void PushSink::end_of_input(FiringContext&) {
  close_when_flushed();
}

void PushSink::wrapup(ActorContext& context) {
  if (!endpoint_) return;
  // What is queued gets up to `linger` (from the end of input) to be written; the event loop does
  // the writing.
  close_when_flushed();
  const bool all_written = flushed_->wait_until(flush_by_) == std::future_status::ready;
  flushed_.reset();
  std::promise<void> stopped;
  std::future<void> stop_ran = stopped.get_future();
  asio::post(endpoint_->context, [endpoint = endpoint_, stopped = std::move(stopped)]() mutable {
    endpoint->stop();
    stopped.set_value();
  });
  stop_ran.wait();  // the counts below are final
  if (!all_written) endpoint_->dropped += endpoint_->queued.exchange(0);
  report_losses(context);
  if (std::uint64_t none = endpoint_->to_no_one.exchange(0))
    context.report_warning(what_ + ": " + std::to_string(none) + " " + items_ +
                           " sent while no peer was connected");
  {
    std::lock_guard lock(view_mutex_);
    view_.reset();
  }
  endpoint_.reset();
}

}  // namespace cwf::net
