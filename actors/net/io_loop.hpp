// The event loop of the network actors: one Boost.Asio io_context served by one thread, shared by
// every network actor of the process and kept while one of them holds it (actors hold it, from
// their own threads; what runs on the loop holds the objects it uses, never the loop). Sockets are
// read and written there, asynchronously; no worker or director thread ever waits on the network.
// What arrives is handed to the workflow through a lock-free queue and the source's ExternalWake.
// `cwf serve`'s HTTP server runs on the same loop (cli/server/http_server.hpp). Its thread is
// named `cwf-io`.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <future>
#include <memory>
#include <thread>

namespace cwf::net {

class IoLoop {
 public:
  // The process's loop, started on first use and stopped when its last holder lets it go.
  static std::shared_ptr<IoLoop> shared();

  IoLoop();
  ~IoLoop();
  IoLoop(const IoLoop&) = delete;
  IoLoop& operator=(const IoLoop&) = delete;

  boost::asio::io_context& context() { return context_; }

 private:
  boost::asio::io_context context_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::promise<void> ran_out_;  // set when run() returns: nothing left to do
  std::thread thread_;
};

}  // namespace cwf::net
