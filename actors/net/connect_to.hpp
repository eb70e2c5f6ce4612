// One connection attempt to "host:port" on the event loop, as the connecting network actors make
// it: resolve, then try each address found. `connected(socket)` or `failed()` runs on the loop.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <memory>
#include <string>

#include "actors/net/net_params.hpp"

namespace cwf::net {

template <typename Connected, typename Failed>
void connect_to(boost::asio::io_context& context, const std::string& address, Connected connected,
                Failed failed) {
  using boost::asio::ip::tcp;
  auto [host, port] = split_address(address, "connect");
  auto resolver = std::make_shared<tcp::resolver>(context);
  resolver->async_resolve(
      host, port,
      [&context, resolver, connected, failed](boost::system::error_code error,
                                              tcp::resolver::results_type found) mutable {
        if (error) return failed();
        auto socket = std::make_shared<tcp::socket>(context);
        boost::asio::async_connect(
            *socket, found,
            [socket, connected, failed](boost::system::error_code e, const tcp::endpoint&) mutable {
              if (e) return failed();
              connected(std::move(*socket));
            });
      });
}

}  // namespace cwf::net
