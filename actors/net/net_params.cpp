#include "actors/net/net_params.hpp"

#include <stdexcept>

#include "actors/actor_type_util.hpp"

namespace cwf::net {

namespace asio = boost::asio;
using actors::is_set;

std::pair<std::string, std::string> split_address(const std::string& address,
                                                  std::string_view param) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
    throw ParamError(std::string(param),
                     "expected HOST:PORT, e.g. 127.0.0.1:9000, got '" + address + "'");
  return {address.substr(0, colon), address.substr(colon + 1)};
}

asio::ip::tcp::endpoint listen_endpoint(const std::string& address, std::string_view param) {
  auto [host, port] = split_address(address, param);
  boost::system::error_code error;
  asio::ip::address ip = asio::ip::make_address(host, error);
  if (error) throw ParamError(std::string(param), "'" + host + "' is not an IP address");
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 ||
      std::stoi(port) > 65535)
    throw ParamError(std::string(param), "'" + port + "' is not a port (0 to 65535)");
  return {ip, static_cast<unsigned short>(std::stoi(port))};
}

unsigned short open_listener(asio::ip::tcp::acceptor& acceptor, const std::string& address) {
  const asio::ip::tcp::endpoint endpoint = listen_endpoint(address);
  boost::system::error_code error;
  acceptor.open(endpoint.protocol());
  acceptor.set_option(asio::ip::tcp::acceptor::reuse_address(true));
  acceptor.bind(endpoint, error);
  if (error) throw std::runtime_error("listen: cannot bind " + address + ": " + error.message());
  acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) throw std::runtime_error("listen: " + error.message());
  return acceptor.local_endpoint().port();
}

std::string peer_of(const asio::ip::tcp::socket& socket) {
  boost::system::error_code error;
  auto remote = socket.remote_endpoint(error);
  return error ? "?" : remote.address().to_string() + ":" + std::to_string(remote.port());
}

ParamSpec format_param() {
  return {"format", ParamType::string, Value("jsonl"),
          "jsonl (one JSON object a line) or csv (a header line, then records)"};
}

RecordDecoder::Format read_format(const Params& params) {
  const std::string format(params.get("format").as_string());
  if (format == "jsonl") return RecordDecoder::Format::jsonl;
  if (format == "csv") return RecordDecoder::Format::csv;
  throw ParamError("format", "unknown format '" + format + "' (use jsonl or csv)");
}

std::vector<ParamSpec> push_source_params() {
  return {{"time", ParamType::expression, Value(),
           "expression giving each event's timestamp from its record; not set: the clock's time"},
          {"time_unit", ParamType::string, Value("s"), "unit of numeric times: s, ms, us or ns"},
          {"max_message", ParamType::integer, Value(std::int64_t(1) << 20),
           "longest message (line) in bytes; longer ones go to errors"},
          {"max_pending", ParamType::integer, Value(65536),
           "records received and not emitted yet beyond which nothing more is read"},
          {"batch", ParamType::integer, Value(256), "max records emitted per firing"},
          {"limit", ParamType::integer, Value(), "end after this many records"}};
}

std::vector<ParamSpec> push_sink_params(const std::string& items, const std::string& note) {
  return {{"max_pending", ParamType::integer, Value(65536),
           items + " waiting to be written per peer" + note},
          {"linger", ParamType::duration, Value(static_cast<std::int64_t>(5 * kSecond)),
           "at the end of the run, how long what is queued may take to be written"}};
}

PushSinkOptions read_push_sink_options(const Params& params) {
  PushSinkOptions options;
  options.max_pending = static_cast<std::size_t>(positive_param(params, "max_pending"));
  options.linger = params.get_duration("linger");
  return options;
}

std::int64_t positive_param(const Params& params, const char* name) {
  std::int64_t n = params.get_int(name);
  if (n < 1) throw ParamError(name, std::string(name) + " must be at least 1");
  return n;
}

PushSourceOptions read_push_source_options(const Params& params) {
  PushSourceOptions options;
  if (is_set(params, "time")) options.time = actors::compile_param(params, "time");
  options.time_unit = actors::parse_time_unit(params, "time_unit");
  options.max_message = static_cast<std::size_t>(positive_param(params, "max_message"));
  options.max_pending = static_cast<std::size_t>(positive_param(params, "max_pending"));
  options.batch = positive_param(params, "batch");
  if (is_set(params, "limit")) options.limit = positive_param(params, "limit");
  return options;
}

}  // namespace cwf::net
