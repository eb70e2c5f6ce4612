#include "actors/pubsub/nats_connection.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::pubsub {

namespace {

struct OptionsDeleter {
  void operator()(natsOptions* options) const { natsOptions_Destroy(options); }
};

void check(natsStatus status, const char* what) {
  if (status != NATS_OK) throw NatsError(what, status);
}

std::int64_t to_ms(Duration d) {
  return d / kMillisecond;
}

}  // namespace

NatsError::NatsError(const std::string& what, natsStatus status)
    : std::runtime_error(what + ": " + natsStatus_GetText(status)), status_(status) {}

NatsConnection::NatsConnection(const NatsConnectionOptions& options) : events_(new Events) {
  try {
    connect(options);
  } catch (...) {
    delete events_;  // no connection: cnats calls none of the callbacks
    throw;
  }
}

void NatsConnection::connect(const NatsConnectionOptions& options) {
  natsOptions* raw = nullptr;
  check(natsOptions_Create(&raw), "NATS options");
  std::unique_ptr<natsOptions, OptionsDeleter> opts(raw);
  std::vector<const char*> urls;
  for (const std::string& url : options.servers)
    urls.push_back(url.c_str());
  check(natsOptions_SetServers(opts.get(), urls.data(), static_cast<int>(urls.size())),
        "NATS servers");
  check(natsOptions_SetNoRandomize(opts.get(), true), "NATS server order");
  // A broker restart must not end the stream: retry the first connect in the background and
  // reconnect for ever, buffering what is published meanwhile.
  // With a callback the first connect goes on in the background; without one cnats would retry
  // inside natsConnection_Connect, for ever with an unlimited reconnect count.
  check(natsOptions_SetRetryOnFailedConnect(opts.get(), true, &NatsConnection::on_reconnected,
                                            events_),
        "NATS retry on failed connect");
  check(natsOptions_SetMaxReconnect(opts.get(), -1), "NATS max reconnect");
  check(natsOptions_SetReconnectWait(opts.get(), to_ms(options.reconnect_wait)),
        "NATS reconnect wait");
  check(natsOptions_SetReconnectJitter(opts.get(), 0, 0), "NATS reconnect jitter");
  check(natsOptions_SetReconnectBufSize(opts.get(), static_cast<int>(options.reconnect_buffer)),
        "NATS reconnect buffer");
  check(natsOptions_SetDisconnectedCB(opts.get(), &NatsConnection::on_disconnected, events_),
        "NATS disconnected callback");
  check(natsOptions_SetReconnectedCB(opts.get(), &NatsConnection::on_reconnected, events_),
        "NATS reconnected callback");
  check(natsOptions_SetClosedCB(opts.get(), &NatsConnection::on_closed, events_),
        "NATS closed callback");
  if (!options.name.empty()) check(natsOptions_SetName(opts.get(), options.name.c_str()), "name");
  for (const std::string& url : options.servers)
    servers_ += (servers_.empty() ? "" : ", ") + url;
  reconnect_wait_ = options.reconnect_wait;
  natsStatus status = natsConnection_Connect(&connection_, opts.get());
  if (status != NATS_OK && status != NATS_NOT_YET_CONNECTED)
    throw NatsError("cannot connect to " + servers_, status);
  first_attempt_failed_ = status == NATS_NOT_YET_CONNECTED;
}

std::string NatsConnection::unreachable() const {
  return "cannot connect to " + servers_ + " (no server answers)";
}

NatsConnection::~NatsConnection() {
  if (connection_) {
    natsConnection_Close(connection_);
    natsConnection_Destroy(connection_);
  }
}

bool NatsConnection::connected() const {
  return natsConnection_Status(connection_) == NATS_CONN_STATUS_CONNECTED;
}

bool NatsConnection::flush(Duration timeout, std::string& error) {
  natsStatus status =
      natsConnection_FlushTimeout(connection_, std::max<std::int64_t>(1, to_ms(timeout)));
  if (status == NATS_OK) return true;
  error = natsStatus_GetText(status);
  return false;
}

void NatsConnection::on_disconnected(natsConnection*, void* closure) {
  static_cast<Events*>(closure)->disconnects.fetch_add(1, std::memory_order_relaxed);
}

void NatsConnection::on_reconnected(natsConnection*, void* closure) {
  static_cast<Events*>(closure)->reconnects.fetch_add(1, std::memory_order_relaxed);
}

void NatsConnection::on_closed(natsConnection*, void* closure) {
  delete static_cast<Events*>(closure);
}

std::unique_ptr<NatsConnection> open_actor_connection(NatsConnectionOptions options,
                                                      const std::string& actor) {
  if (options.name.empty()) options.name = "cwf " + actor;
  return std::make_unique<NatsConnection>(options);
}

std::vector<ParamSpec> nats_connection_params() {
  return {
      {"servers", ParamType::strings, Value("nats://127.0.0.1:4222"),
       "NATS server URL(s), tried in order; reconnects go to any of them"},
      {"reconnect_wait", ParamType::duration, Value(100 * kMillisecond),
       "time between reconnection attempts while the server is away (attempts never stop)"},
      {"reconnect_buffer", ParamType::integer, Value(std::int64_t{8 * 1024 * 1024}),
       "bytes of publications kept while disconnected and sent after the reconnect; a "
       "publication that does not fit fails (counted as an error)"},
  };
}

NatsConnectionOptions nats_connection_options(const Params& params) {
  NatsConnectionOptions options;
  options.servers = params.get_strings("servers");
  if (options.servers.empty()) throw ParamError("servers", "at least one server URL is needed");
  for (const std::string& url : options.servers)
    if (url.find("://") == std::string::npos && url.find(':') == std::string::npos)
      throw ParamError("servers", "'" + url + "' is not a server URL (nats://host:port)");
  options.reconnect_wait = params.get_duration("reconnect_wait");
  if (options.reconnect_wait < kMillisecond)
    throw ParamError("reconnect_wait", "reconnect_wait must be at least 1 ms");
  options.reconnect_buffer = params.get_int("reconnect_buffer");
  if (options.reconnect_buffer < 0 || options.reconnect_buffer > (std::int64_t{1} << 30))
    throw ParamError("reconnect_buffer", "reconnect_buffer must be between 0 and 1 GiB");
  return options;
}

bool valid_subject(std::string_view subject, bool wildcards) {
  if (subject.empty()) return false;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = subject.find('.', start);
    std::string_view token =
        subject.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (token.empty()) return false;
    for (char c : token)
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') return false;
    bool is_last = dot == std::string_view::npos;
    if (token.find_first_of("*>") != std::string_view::npos) {
      if (!wildcards || token.size() != 1) return false;
      if (token == ">" && !is_last) return false;
    }
    if (is_last) return true;
    start = dot + 1;
  }
}

bool valid_subject_token(std::string_view token) {
  return token.find('.') == std::string_view::npos && valid_subject(token, false);
}

}  // namespace cwf::pubsub
