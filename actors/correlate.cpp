#include "actors/correlate.hpp"

#include <limits>
#include <string>
#include <utility>

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

namespace {

const ExprEnvironment& pair_environment() {
  static const ExprEnvironment env{"request", "reply"};
  return env;
}

Timestamp deadline_after(Timestamp time, Duration timeout) {
  Timestamp deadline;
  if (__builtin_add_overflow(time, timeout, &deadline))
    return std::numeric_limits<Timestamp>::max();
  return deadline;
}

}  // namespace

Correlate::Correlate(CorrelateOptions options) : Actor(kPorts), options_(std::move(options)) {}

void Correlate::Side::add(Entry entry) {
  std::uint64_t number = next++;
  by_key[entry.key].push_back(number);
  by_deadline.emplace(entry.deadline, number);
  entries.emplace(number, std::move(entry));
}

Correlate::Entry Correlate::Side::remove(std::uint64_t number) {
  auto found = entries.find(number);
  Entry entry = std::move(found->second);
  entries.erase(found);
  by_deadline.erase(std::make_pair(entry.deadline, number));
  auto same_key = by_key.find(entry.key);
  std::erase(same_key->second, number);
  if (same_key->second.empty()) by_key.erase(same_key);
  return entry;
}

std::optional<Correlate::Entry> Correlate::Side::take(const Value& key) {
  auto same_key = by_key.find(key);
  if (same_key == by_key.end()) return std::nullopt;
  return remove(same_key->second.front());
}

std::optional<Value> Correlate::key_of(FiringContext& context, int side, const Value& token) {
  const char* name = side == kRequest ? "request_key" : "reply_key";
  try {
    Value key = (side == kRequest ? options_.request_key : options_.reply_key).evaluate(token);
    if (!key.is_null()) return key;
    context.report_error(std::string(name) + " is null");
  } catch (const ExprError& e) {
    context.report_error(std::string(name) + ": " + e.what());
  }
  return std::nullopt;
}

void Correlate::answer(FiringContext& context, Entry& request, const Value& reply) {
  Value vars[2] = {request.event.token, reply};
  Value result;
  try {
    result = options_.emit.evaluate(request.event.token, Variables(vars, 2));
  } catch (const ExprError& e) {
    context.report_error(std::string("emit: ") + e.what());
  }
  if (result.is_null()) {
    // Nothing goes on: wave windows downstream must not wait for it.
    if (request.deferred) context.drop_deferred(request.tag);
    return;
  }
  if (request.deferred)
    context.emit_deferred(kOut, std::move(result), request.tag);
  else
    context.emit(kOut, std::move(result));
}

void Correlate::leave(FiringContext& context, int side, Entry& entry) {
  if (side == kReply)
    context.emit(kUnmatched, std::move(entry.event.token));
  else if (entry.deferred)
    context.emit_deferred(kExpired, std::move(entry.event.token), entry.tag);
  else
    context.emit(kExpired, std::move(entry.event.token));
}

void Correlate::arm(FiringContext& context) {
  std::optional<Timestamp> earliest;
  for (const Side& side : sides_)
    if (!side.by_deadline.empty() && (!earliest || side.by_deadline.begin()->first < *earliest))
      earliest = side.by_deadline.begin()->first;
  if (!earliest || (!armed_.empty() && *armed_.begin() <= *earliest)) return;
  armed_.insert(*earliest);
  context.fire_again_at(*earliest);
}

void Correlate::take_request(FiringContext& context, const Event& event, bool may_defer) {
  std::optional<Value> key = key_of(context, kRequest, event.token);
  if (!key) return;
  Entry request{event, std::move(*key), deadline_after(event.time, options_.timeout), false, {}};
  if (std::optional<Entry> reply = sides_[kReply].take(request.key)) {
    answer(context, request, reply->event.token);
    return;
  }
  if (may_defer) {
    request.tag = context.defer();
    request.deferred = true;
  }
  sides_[kRequest].add(std::move(request));
  arm(context);
}

void Correlate::take_reply(FiringContext& context, const Event& event) {
  std::optional<Value> key = key_of(context, kReply, event.token);
  if (!key) return;
  if (std::optional<Entry> request = sides_[kRequest].take(*key)) {
    answer(context, *request, event.token);
    return;
  }
  sides_[kReply].add(
      Entry{event, std::move(*key), deadline_after(event.time, options_.timeout), false, {}});
  arm(context);
}

void Correlate::expire_through(FiringContext& context, Timestamp time, bool everything) {
  for (int side : {kRequest, kReply}) {
    Side& waiting = sides_[side];
    while (!waiting.by_deadline.empty() &&
           (everything || waiting.by_deadline.begin()->first <= time)) {
      Entry entry = waiting.remove(waiting.by_deadline.begin()->second);
      leave(context, side, entry);
    }
  }
}

void Correlate::fire(FiringContext& context) {
  switch (context.port()) {
    case kRequest: {
      auto events = context.window();
      // Only a firing's last output can be deferred: a lone request keeps its wave.
      bool may_defer = events.size() == 1 && !context.wave().empty();
      for (const Event& event : events)
        take_request(context, event, may_defer);
      break;
    }
    case kReply:
      for (const Event& event : context.window())
        take_reply(context, event);
      break;
    default:  // a timer this actor asked for
      armed_.erase(armed_.begin(), armed_.upper_bound(context.time()));
      expire_through(context, context.time(), false);
      arm(context);
  }
}

void Correlate::end_of_input(FiringContext& context) {
  expire_through(context, 0, true);
  armed_.clear();
}

void Correlate::wrapup(ActorContext& context) {
  std::size_t requests = waiting_requests(), replies = waiting_replies();
  if (requests > 0)
    context.report_dropped(
        requests,
        std::to_string(requests) + " request(s) still waiting for a reply when the run ended");
  if (replies > 0)
    context.report_dropped(
        replies,
        std::to_string(replies) + " reply(ies) still waiting for a request when the run ended");
}

void Correlate::retract(const CaseId& cancelled, FiringContext& context) {
  for (int side : {kRequest, kReply}) {
    Side& waiting = sides_[side];
    std::vector<std::uint64_t> gone;
    for (const auto& [number, entry] : waiting.entries)
      if (cancelled.matches(entry.event)) gone.push_back(number);
    for (std::uint64_t number : gone) {
      Entry entry = waiting.remove(number);
      if (entry.deferred) context.drop_deferred(entry.tag);
    }
  }
}

void Correlate::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_u64(armed_.size());
  for (Timestamp time : armed_)
    out.write_timestamp(time);
  for (const Side& side : sides_) {
    out.write_u64(side.next);
    out.write_u64(side.entries.size());
    for (const auto& [number, entry] : side.entries) {
      out.write_u64(number);
      out.write_event(entry.event);
      out.write_value(entry.key);
      out.write_timestamp(entry.deadline);
      out.write_bool(entry.deferred);
      out.write_wave_tag(entry.tag);
    }
  }
}

void Correlate::restore_state(SnapshotReader& in, ActorContext&) {
  armed_.clear();
  for (std::size_t n = in.read_count("the timers asked for"); n > 0; --n)
    armed_.insert(in.read_timestamp("a timer's time"));
  for (Side& side : sides_) {
    side = Side{};
    std::uint64_t next = in.read_u64("the next arrival number");
    for (std::size_t n = in.read_count("the waiting events"); n > 0; --n) {
      std::uint64_t number = in.read_u64("a waiting event's arrival number");
      if (number < side.next || number >= next)
        in.reject("a waiting event's arrival number", "out of order or beyond the next one");
      Entry entry;
      entry.event = in.read_event("a waiting event");
      entry.key = in.read_value("a waiting event's key");
      entry.deadline = in.read_timestamp("a waiting event's deadline");
      entry.deferred = in.read_bool("whether a request's output is deferred");
      entry.tag = in.read_wave_tag("a deferred output's wave");
      side.next = number;
      side.add(std::move(entry));
    }
    side.next = next;
  }
}

ActorType correlate_type() {
  return make_type(
      "correlate",
      "A request waits for its reply from outside the workflow, matched by key; the reply goes "
      "on in the request's wave, so wave windows downstream wait for it (message correlation).",
      {{"key", ParamType::expression, Value(),
        "the key of requests and replies, e.g. /item; or request_key and reply_key"},
       {"request_key", ParamType::expression, Value(), "the key of a request (default: key)"},
       {"reply_key", ParamType::expression, Value(), "the key of a reply (default: key)"},
       {"timeout", ParamType::string, std::nullopt,
        "how long after its time a request waits for its reply (then: expired), and a reply for "
        "its request (then: unmatched): a duration, 30 s"},
       {"emit", ParamType::expression, Value("{request: request, reply: reply}"),
        "the token sent on for a request and its reply, over `request` and `reply`; null sends "
        "nothing"}},
      Correlate::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        auto key_of = [&](const char* name) {
          if (is_set(params, name)) return compile_param(params, name);
          if (is_set(params, "key")) return compile_param(params, "key");
          throw ParamError(name, std::string("no key for this side: set key, or ") + name);
        };
        Duration timeout = parse_signed_duration(params, "timeout");
        if (timeout <= 0) throw ParamError("timeout", "the timeout must be above 0");
        return std::make_unique<Correlate>(
            CorrelateOptions{key_of("request_key"), key_of("reply_key"), timeout,
                             compile_param(params, "emit", pair_environment())});
      });
}

}  // namespace cwf::actors
