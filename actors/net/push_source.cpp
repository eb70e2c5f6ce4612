#include "actors/net/push_source.hpp"

#include <boost/asio/post.hpp>

#include <future>
#include <limits>
#include <stdexcept>

#include "actors/net/io_loop.hpp"

namespace cwf::net {

PushSource::PushSource(const ActorPorts& ports, std::string what, PushSourceOptions options)
    : Actor(ports), what_(std::move(what)), options_(std::move(options)) {}

PushSource::~PushSource() {
  stop_endpoint();
}

void PushSource::stop_endpoint() {
  if (endpoint_)
    boost::asio::post(endpoint_->context, [endpoint = endpoint_] { endpoint->stop(); });
}

void PushSource::stop_endpoint_and_wait() {
  std::promise<void> stopped;
  std::future<void> stop_ran = stopped.get_future();
  boost::asio::post(endpoint_->context,
                    [endpoint = endpoint_, stopped = std::move(stopped)]() mutable {
                      endpoint->stop();
                      stopped.set_value();
                    });
  stop_ran.wait();
}

unsigned short PushSource::port() const {
  std::lock_guard lock(view_mutex_);
  return view_ ? view_->port.load() : 0;
}

std::size_t PushSource::pending() const {
  std::lock_guard lock(view_mutex_);
  return view_ ? view_->inbox.pending() : 0;
}

void PushSource::initialize(ActorContext& context) {
  if (dynamic_cast<const VirtualClock*>(&context.clock()))
    throw std::runtime_error(
        what_ + " needs the real clock: a virtual clock does not wait for the network");
  emitted_ = 0;
  done_ = false;
  if (!loop_) loop_ = IoLoop::shared();
  stop_endpoint();  // a run whose wrapup never came (another actor's initialize threw)
  endpoint_ = open(loop_->context(), context.external_wake());
  std::lock_guard lock(view_mutex_);
  view_ = endpoint_;
}

void PushSource::fire(FiringContext& context) {
  const std::int64_t room =
      options_.limit ? *options_.limit - emitted_ : std::numeric_limits<std::int64_t>::max();
  PushInbox::Emitted emitted = endpoint_->inbox.emit(context, options_, room, kOut, kErrors, what_);
  emitted_ += emitted.records;
  if (options_.limit && emitted_ >= *options_.limit)
    done_ = true;
  else if (emitted.taken == 0)
    done_ = endpoint_->inbox.idle(context);
  // Done: nothing more is taken in (a sender is refused, not told "accepted" and then dropped).
  if (done_) stop_endpoint();
}

bool PushSource::postfire(FiringContext&) {
  return !done_;
}

void PushSource::wrapup(ActorContext& context) {
  if (!endpoint_) return;
  // Once stop() ran on the loop nothing more arrives: what waits now is final.
  stop_endpoint_and_wait();
  if (std::size_t left = endpoint_->inbox.pending())
    context.report_dropped(left, what_ + ": received but not emitted before the run ended");
  {
    std::lock_guard lock(view_mutex_);
    view_.reset();
  }
  endpoint_.reset();
}

}  // namespace cwf::net
