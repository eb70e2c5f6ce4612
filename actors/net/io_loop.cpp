#include "actors/net/io_loop.hpp"

#include <pthread.h>

#include <chrono>
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
    : work_(boost::asio::make_work_guard(context_)), thread_([this] {
        context_.run();
        ran_out_.set_value();
      }) {
  // Named, so that a look at the process (top -H, /proc/PID/task) shows the one loop.
  pthread_setname_np(thread_.native_handle(), "cwf-io");
}

IoLoop::~IoLoop() {
  // Its holders are actors, which never run on the loop's thread: the loop's handlers hold what
  // they use (a source's sockets and queue), not the loop. Handlers still pending are destroyed
  // with the context, after its thread ended.
  // What the actors posted last (closing their sockets) runs first: the loop ends once nothing
  // is left to do. Should something stay open, it is cut off after 2 s.
  work_.reset();
  if (ran_out_.get_future().wait_for(std::chrono::seconds(2)) != std::future_status::ready)
    context_.stop();
  thread_.join();
}

}  // namespace cwf::net
