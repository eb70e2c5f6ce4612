#include "actors/eca/time_events.hpp"

#include <algorithm>

#include "actors/actor_type_util.hpp"
#include "actors/eca/occurrence.hpp"
#include "actors/eca/site_ids_snapshot.hpp"
#include "runtime/loading/yaml_value.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::eca {

TimeEventsActor::TimeEventsActor(std::string name, TimeEventSchedule schedule)
    : Actor(kPorts),
      type_(primitive_type_name("TIME", name)),
      schedule_(std::move(schedule)),
      ids_(&site_ids("clock")) {}

void TimeEventsActor::fire(FiringContext& context) {
  Timestamp now = context.clock().now();
  if (!started_) {
    started_ = true;
    pending_ = schedule_.at;
    if (schedule_.after) pending_.push_back(now + *schedule_.after);
    std::sort(pending_.begin(), pending_.end(), std::greater<>());
    if (schedule_.every) next_periodic_ = now + *schedule_.every;
  }
  while (true) {
    bool one_off = !pending_.empty();
    bool periodic = periodic_left();
    if (!one_off && !periodic) return;
    bool take_periodic = periodic && (!one_off || next_periodic_ < pending_.back());
    Timestamp next = take_periodic ? next_periodic_ : pending_.back();
    if (next > now) {
      context.fire_again_at(next);
      return;
    }
    if (take_periodic) {
      next_periodic_ += *schedule_.every;
      ++periodic_emitted_;
    } else {
      pending_.pop_back();
    }
    OccurrenceSpec spec;
    spec.type = type_;
    spec.site = "clock";
    spec.id = next_occurrence_id(*ids_);
    spec.time = next;
    context.set_output_time(next);
    context.emit(make_occurrence(std::move(spec)));
  }
}

void TimeEventsActor::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_bool(started_);
  out.write_u64(pending_.size());
  for (Timestamp time : pending_)
    out.write_timestamp(time);
  out.write_timestamp(next_periodic_);
  out.write_i64(periodic_emitted_);
  save_site_ids(out, *ids_);
}

void TimeEventsActor::restore_state(SnapshotReader& in, ActorContext&) {
  bool started = in.read_bool("whether the events were scheduled");
  std::vector<Timestamp> pending(in.read_count("the events to come"));
  for (Timestamp& time : pending)
    time = in.read_timestamp("an event to come");
  if (!std::is_sorted(pending.begin(), pending.end(), std::greater<>()))
    in.reject("the events to come", "not latest first");
  Timestamp next_periodic = in.read_timestamp("the next periodic event");
  std::int64_t emitted = in.read_i64("the periodic events emitted");
  if (emitted < 0) in.reject("the periodic events emitted", "negative");
  std::int64_t next_id = read_site_ids(in);
  started_ = started;
  pending_ = std::move(pending);
  next_periodic_ = next_periodic;
  periodic_emitted_ = emitted;
  apply_site_ids(*ids_, next_id);
}

bool TimeEventsActor::periodic_left() const {
  return schedule_.every && (!schedule_.count || periodic_emitted_ < *schedule_.count);
}

bool TimeEventsActor::postfire(FiringContext&) {
  return !pending_.empty() || periodic_left();
}

ActorType time_events_type() {
  return actors::make_type(
      "eca_time_events",
      "Time events TIME(name) from the workflow clock: absolute, relative to the start, periodic.",
      {{"name", ParamType::string, std::nullopt, "the time event's name: TIME(name)"},
       {"at", ParamType::strings, Value(),
        "absolute times: seconds since the epoch or ISO-8601 date-times"},
       {"after", ParamType::duration, Value(), "one event this long after the workflow starts"},
       {"every", ParamType::duration, Value(),
        "periodic events, the first one period after the start"},
       {"count", ParamType::integer, Value(),
        "number of periodic events (not set: until stopped)"}},
      TimeEventsActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        TimeEventSchedule schedule;
        if (actors::is_set(params, "at"))
          for (const std::string& text : params.get_strings("at")) {
            Timestamp t = 0;
            std::string error;
            Value value = Value(text);
            if (auto number = parse_yaml_real(text)) value = Value(*number);
            if (!actors::to_timestamp(value, kSecond, t, error))
              throw ParamError("at", "'" + text + "': " + error);
            schedule.at.push_back(t);
          }
        if (actors::is_set(params, "after")) schedule.after = params.get_duration("after");
        if (actors::is_set(params, "every")) {
          schedule.every = params.get_duration("every");
          if (*schedule.every <= 0) throw ParamError("every", "the period must be positive");
        }
        if (actors::is_set(params, "count")) {
          schedule.count = params.get_int("count");
          if (*schedule.count < 0) throw ParamError("count", "must not be negative");
        }
        if (schedule.at.empty() && !schedule.after && !schedule.every)
          throw ParamError("name", "give 'at', 'after' or 'every'");
        return std::make_unique<TimeEventsActor>(params.get_string("name"), std::move(schedule));
      });
}

}  // namespace cwf::eca
