#include "actors/generator.hpp"

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

Generator::Generator(GeneratorOptions options) : Actor(kPorts), options_(std::move(options)) {}

void Generator::initialize(ActorContext&) {
  next_ = 0;
  started_ = false;
}

void Generator::fire(FiringContext& context) {
  const Timestamp now = context.clock().now();
  if (!started_) {
    started_ = true;
    clock_start_ = now;
    time_start_ = options_.start_time.value_or(now);
  }
  const bool stamped = options_.interval > 0 || options_.start_time.has_value();
  for (std::int64_t n = 0; n < options_.batch; ++n) {
    if (options_.count && next_ >= *options_.count) return;
    const Duration offset = next_ * options_.interval;
    if (options_.interval > 0 && clock_start_ + offset > now) {
      context.fire_again_at(clock_start_ + offset);
      return;
    }
    if (stamped) context.set_output_time(time_start_ + offset);
    Value i(next_++);
    try {
      context.emit(options_.value.evaluate(Value(), Variables(&i, 1)));
    } catch (const ExprError& e) {
      context.report_error("value (i = " + std::to_string(i.as_int()) + "): " + e.what());
    }
  }
}

void Generator::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_i64(next_);
  out.write_bool(started_);
  out.write_timestamp(clock_start_);
  out.write_timestamp(time_start_);
}

void Generator::restore_state(SnapshotReader& in, ActorContext&) {
  next_ = in.read_i64("the next sequence number");
  if (next_ < 0 || (options_.count && next_ > *options_.count))
    in.reject("the next sequence number",
              std::to_string(next_) + " is outside 0.." +
                  (options_.count ? std::to_string(*options_.count) : std::string("unbounded")));
  started_ = in.read_bool("whether the generator started");
  clock_start_ = in.read_timestamp("the clock's time at the start");
  time_start_ = in.read_timestamp("the time of event 0");
}

bool Generator::postfire(FiringContext&) {
  return !options_.count || next_ < *options_.count;
}

ActorType generator_type() {
  return make_type(
      "generator", "Emits synthetic events: the value of an expression over the sequence number i.",
      {
          {"value", ParamType::expression, Value("i"),
           "the token of event i (i = 0, 1, 2, ...), e.g. {id: i, v: i * 2}"},
          {"count", ParamType::integer, Value(), "number of events; not set: unbounded"},
          {"interval", ParamType::duration, Value(0),
           "time between events on the workflow clock; 0: as fast as possible"},
          {"start_time", ParamType::duration, Value(),
           "timestamp of event 0 (event i is stamped start_time + i * interval); not set: the "
           "clock's time at the first firing, and with interval 0 each event gets the clock's "
           "time when emitted"},
          {"batch", ParamType::integer, Value(64), "max events per firing"},
      },
      Generator::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        GeneratorOptions options;
        ExprEnvironment env{"i"};
        options.value = compile_param(params, "value", env);
        if (is_set(params, "count")) {
          options.count = params.get_int("count");
          if (*options.count < 0) throw ParamError("count", "count must not be negative");
        }
        options.interval = params.get_duration("interval");
        if (options.interval < 0) throw ParamError("interval", "interval must not be negative");
        if (is_set(params, "start_time")) options.start_time = params.get_duration("start_time");
        options.batch = params.get_int("batch");
        if (options.batch < 1) throw ParamError("batch", "batch must be at least 1");
        return std::make_unique<Generator>(std::move(options));
      });
}

}  // namespace cwf::actors
