#include "actors/net/io_loop.hpp"

#include <mutex>

namespace cwf::net {

std::shared_ptr<IoLoop> IoLoop::shared() {
  static std::mutex mutex;
  static std::weak_ptr<IoLoop> current;
  std::lock_guard lock(mutex);
  std::shared_ptr<IoLoop> loop = current.lock();
  if (!loop) {
    loop = std::make_shared<IoLoop>();
    current = loop;
  }
  return loop;
}

IoLoop::IoLoop()
    : work_(boost::asio::make_work_guard(context_)), thread_([this] { context_.run(); }) {}

IoLoop::~IoLoop() {
  // Its holders are actors, which never run on the loop's thread: the loop's handlers hold what
  // they use (a source's sockets and queue), not the loop. Handlers still pending are destroyed
  // with the context, after its thread ended.
  work_.reset();
  context_.stop();
  thread_.join();
}

}  // namespace cwf::net
