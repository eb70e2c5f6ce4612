// The parameters the network actors share, declared and read in one place: addresses
// (HOST:PORT, loopback unless the file says otherwise), the framing, the limits every push
// source has, reconnection backoff. Each reader throws ParamError naming the parameter.
#pragma once

#include <boost/asio/ip/tcp.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "actors/net/push_inbox.hpp"
#include "actors/net/push_sink.hpp"
#include "actors/net/record_decoder.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::net {

// "host:port" -> its parts.
std::pair<std::string, std::string> split_address(const std::string& address,
                                                  std::string_view param);
// `param`'s "IP:PORT" as an endpoint to listen on.
boost::asio::ip::tcp::endpoint listen_endpoint(const std::string& address,
                                               std::string_view param = "listen");

// Binds and opens `acceptor` on `address` (checked by listen_endpoint before), now, so that an
// address in use is an error of the run's start; returns the port bound. Throws
// std::runtime_error saying why.
unsigned short open_listener(boost::asio::ip::tcp::acceptor& acceptor, const std::string& address);

// "ip:port" of the socket's peer, "?" when it is already gone.
std::string peer_of(const boost::asio::ip::tcp::socket& socket);

// format (jsonl | csv).
ParamSpec format_param();
RecordDecoder::Format read_format(const Params& params);

// time, time_unit, max_message, max_pending, batch, limit.
std::vector<ParamSpec> push_source_params();
PushSourceOptions read_push_source_options(const Params& params);

// max_pending, linger; `items` names what waits per peer ("lines"), `note`
// is added to max_pending's description.
std::vector<ParamSpec> push_sink_params(const std::string& items, const std::string& note);
PushSinkOptions read_push_sink_options(const Params& params);

// A parameter that must be at least 1.
std::int64_t positive_param(const Params& params, const char* name);

// Reconnection backoff: doubles from `min` after each failure up to `max`, back to `min` once a
// connection holds.
struct Backoff {
  Duration min = 100 * kMillisecond;
  Duration max = 5 * kSecond;
  Duration next = 0;
  Duration failed() {
    next = next == 0 ? min : std::min(next * 2, max);
    return next;
  }
  void connected() { next = 0; }
};

}  // namespace cwf::net
