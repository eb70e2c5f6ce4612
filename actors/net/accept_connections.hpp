// The accept loop every listening network actor runs on the event loop: each connection is
// taken, or — when the actor has no room for one more — closed at once and `refused()` runs;
// the loop goes on until the acceptor is closed or the endpoint is stopped. When accepting fails
// (no file descriptor left: EMFILE, ENFILE; no memory) the connection waits in the listen queue
// and the next accept would fail at once again: the loop pauses kAcceptRetry before it tries
// again rather than spin on the event loop's thread.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <memory>

namespace cwf::net {

inline constexpr std::chrono::milliseconds kAcceptRetry{100};

// `Endpoint` has `acceptor` and `stopped`; `has_room()`, `take(socket)` and `refused()` run on
// the loop.
template <class Endpoint, class HasRoom, class Take, class Refused>
void accept_connections(std::shared_ptr<Endpoint> self, HasRoom has_room, Take take,
                        Refused refused) {
  using boost::asio::ip::tcp;
  auto& acceptor = self->acceptor;
  acceptor.async_accept([self = std::move(self), has_room, take, refused](
                            boost::system::error_code error, tcp::socket socket) mutable {
    if (self->stopped || error == boost::asio::error::operation_aborted) return;
    if (error) {
      auto timer =
          std::make_shared<boost::asio::steady_timer>(self->acceptor.get_executor(), kAcceptRetry);
      timer->async_wait([timer, self = std::move(self), has_room, take,
                         refused](boost::system::error_code) mutable {
        if (self->stopped) return;
        accept_connections(std::move(self), has_room, take, refused);
      });
      return;
    }
    if (has_room()) {
      take(std::move(socket));
    } else {
      boost::system::error_code ignored;
      socket.close(ignored);
      refused();
    }
    accept_connections(std::move(self), has_room, take, refused);
  });
}

}  // namespace cwf::net
