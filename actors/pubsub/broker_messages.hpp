// The records the `broker` actor reads and writes: client operations (subscribe, unsubscribe,
// advertise, unadvertise, publish, or any of them on `ops` with an `op` field), deliveries, and
// the messages brokers of an overlay send each other (see docs/pubsub.md for the fields).
// Reading throws FilterError with a message that names what was expected.
#pragma once

#include <string>
#include <string_view>

#include "actors/pubsub/broker.hpp"

namespace cwf::pubsub {

struct ClientOperation {
  enum class Kind { subscribe, unsubscribe, advertise, unadvertise, publish };
  Kind kind = Kind::publish;
  ClientKey key;
  Filter filter;
  Value publication;
};

// A token of a dedicated port: `kind` says which (publish: the token is the publication).
ClientOperation read_client_operation(ClientOperation::Kind kind, const Value& token);
// A token of the `ops` port: `{op: subscribe, subscriber: ..., filter: ...}`,
// `{op: publish, publication: {...}}`...
ClientOperation read_any_client_operation(const Value& token);

// `{subscriber, publication}`.
Value delivery_record(const Delivery& delivery);

// `{from, kind, client, id, filter}` or `{from, kind: publish, publication}`.
Value overlay_record(const BrokerMessage& message, std::string_view from);
BrokerMessage read_overlay_record(const Value& token, std::string& from);

}  // namespace cwf::pubsub
