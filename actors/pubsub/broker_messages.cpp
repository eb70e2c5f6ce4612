#include "actors/pubsub/broker_messages.hpp"

namespace cwf::pubsub {

namespace {

using Kind = ClientOperation::Kind;

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::subscribe:
      return "subscribe";
    case Kind::unsubscribe:
      return "unsubscribe";
    case Kind::advertise:
      return "advertise";
    case Kind::unadvertise:
      return "unadvertise";
    case Kind::publish:
      return "publish";
  }
  return "?";
}

bool parse_kind(std::string_view text, Kind& kind) {
  for (Kind k :
       {Kind::subscribe, Kind::unsubscribe, Kind::advertise, Kind::unadvertise, Kind::publish})
    if (kind_name(k) == text) {
      kind = k;
      return true;
    }
  return false;
}

[[noreturn]] void fail(std::string_view what, const std::string& message) {
  throw FilterError(std::string(what) + ": " + message);
}

std::string text_field(std::string_view what, const Value& token, std::string_view name,
                       bool required) {
  const Value* v = token.field(name);
  if (!v || v->is_null()) {
    if (required)
      fail(what, "expected a field '" + std::string(name) + "' (a string) in " + token.to_json());
    return {};
  }
  if (v->is_string()) return std::string(v->as_string());
  if (v->is_int()) return std::to_string(v->as_int());  // ids written as numbers
  fail(what, "'" + std::string(name) + "' must be a string, got " + v->to_json());
}

Filter filter_field(std::string_view what, const Value& token) {
  const Value* f = token.field("filter");
  if (!f) fail(what, "expected a field 'filter' (a list of predicates) in " + token.to_json());
  try {
    return Filter::parse(*f);
  } catch (const FilterError& e) {
    fail(what, std::string("filter: ") + e.what());
  }
}

const Schema* delivery_schema() {
  static const Schema* s = Schema::intern({"subscriber", "publication"});
  return s;
}
const Schema* route_schema() {
  static const Schema* s = Schema::intern({"from", "kind", "client", "id", "filter"});
  return s;
}
const Schema* publication_schema() {
  static const Schema* s = Schema::intern({"from", "kind", "publication"});
  return s;
}

std::string_view message_kind_name(BrokerMessage::Kind kind) {
  return kind_name(static_cast<Kind>(kind));
}

}  // namespace

ClientOperation read_client_operation(Kind kind, const Value& token) {
  ClientOperation op;
  op.kind = kind;
  std::string_view what = kind_name(kind);
  if (!token.is_record()) fail(what, "expected a record, got " + token.to_json());
  switch (kind) {
    case Kind::publish:
      op.publication = token;
      return op;
    case Kind::subscribe:
    case Kind::unsubscribe:
      op.key.client = text_field(what, token, "subscriber", true);
      break;
    case Kind::advertise:
    case Kind::unadvertise:
      op.key.client = text_field(what, token, "publisher", true);
      break;
  }
  op.key.id = text_field(what, token, "id", false);
  if (kind == Kind::subscribe || kind == Kind::advertise) op.filter = filter_field(what, token);
  return op;
}

ClientOperation read_any_client_operation(const Value& token) {
  if (!token.is_record())
    fail("ops", "expected a record with an 'op' field, got " + token.to_json());
  const Value* op = token.field("op");
  Kind kind;
  if (!op || !op->is_string() || !parse_kind(op->as_string(), kind))
    fail("ops",
         "expected 'op' to be subscribe, unsubscribe, advertise, unadvertise or publish in " +
             token.to_json());
  if (kind != Kind::publish) return read_client_operation(kind, token);
  const Value* publication = token.field("publication");
  if (!publication || !publication->is_record())
    fail("publish", "expected a field 'publication' (a record) in " + token.to_json());
  return read_client_operation(kind, *publication);
}

Value delivery_record(const Delivery& delivery) {
  return Value::record(delivery_schema(), {Value(delivery.subscriber), delivery.publication});
}

Value overlay_record(const BrokerMessage& message, std::string_view from) {
  Value kind(message_kind_name(message.kind));
  if (message.kind == BrokerMessage::Kind::publish)
    return Value::record(publication_schema(), {Value(from), kind, message.publication});
  bool with_filter = message.kind == BrokerMessage::Kind::subscribe ||
                     message.kind == BrokerMessage::Kind::advertise;
  return Value::record(route_schema(),
                       {Value(from), kind, Value(message.key.client), Value(message.key.id),
                        with_filter ? message.filter.to_value() : Value()});
}

BrokerMessage read_overlay_record(const Value& token, std::string& from) {
  if (!token.is_record()) fail("peers", "expected a broker message record, got " + token.to_json());
  from = text_field("peers", token, "from", true);
  std::string kind_text = text_field("peers", token, "kind", true);
  Kind kind;
  if (!parse_kind(kind_text, kind)) fail("peers", "unknown message kind '" + kind_text + "'");
  BrokerMessage message;
  message.kind = static_cast<BrokerMessage::Kind>(kind);
  if (kind == Kind::publish) {
    const Value* publication = token.field("publication");
    if (!publication || !publication->is_record())
      fail("peers", "expected a field 'publication' (a record) in " + token.to_json());
    message.publication = *publication;
    return message;
  }
  message.key.client = text_field("peers", token, "client", true);
  message.key.id = text_field("peers", token, "id", false);
  if (kind == Kind::subscribe || kind == Kind::advertise)
    message.filter = filter_field("peers", token);
  return message;
}

}  // namespace cwf::pubsub
