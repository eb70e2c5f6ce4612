#include "linear_road/source_actor.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "linear_road/workflow_events.hpp"

namespace cwf::lr {

SourceActor::SourceActor(std::string path, double compression, std::int64_t batch)
    : path_(std::move(path)), compression_(compression), batch_(batch) {
  add_output("out", "position reports and balance queries, in input order");
  add_output("expenditure", "daily-expenditure queries");
}

void SourceActor::initialize(ActorContext& context) {
  if (!reader_.open(path_))
    throw std::runtime_error(context.name() + ": cannot open '" + path_ +
                             "': " + std::strerror(errno));
  rejects_ = InputRejectTally();
  out_of_order_ = emitted_ = reader_line_count_ = travel_time_queries_ = 0;
  first_fired_ = -1;
  latest_ = 0;
  done_ = anchored_ = false;
  pending_.reset();
}

void SourceActor::wrapup(ActorContext&) {
  reader_.close();
}

void SourceActor::emit(FiringContext& context, const InputRecord& record, Timestamp released) {
  if (record.type == static_cast<std::int32_t>(InputType::travel_time)) {
    ++travel_time_queries_;
    return;
  }
  context.set_output_time(static_cast<Timestamp>(record.time) * kSecond);
  int port =
      record.type == static_cast<std::int32_t>(InputType::daily_expenditure) ? kExpenditure : kOut;
  context.emit(port, make_tuple(record, released));
  ++emitted_;
}

void SourceActor::fire(FiringContext& context) {
  // One clock read per firing: as fast as possible, a batch is released at once anyway.
  Timestamp now = context.clock().now();
  if (first_fired_ < 0) first_fired_ = now;
  if (pending_) {
    emit(context, *pending_, now);
    pending_.reset();
  }
  std::string_view line;
  InputRecord record;
  for (std::int64_t lines = 0; lines < batch_ && !done_; ++lines) {
    if (!reader_.next(line)) {
      if (!reader_.error().empty())
        context.report_error(path_ + ": read error: " + reader_.error());
      done_ = true;
      break;
    }
    reader_line_count_ = reader_.line_number();
    InputReject reason = parse_input_line(line, record);
    if (reason != InputReject::none) {
      rejects_.add(reason, reader_.line_number());
      context.report_error(path_ + ":" + std::to_string(reader_.line_number()) +
                           ": malformed line (" + input_reject_name(reason) + ")");
      continue;
    }
    if (record.time < latest_) {
      ++out_of_order_;
      context.report_error(path_ + ":" + std::to_string(reader_.line_number()) +
                           ": earlier than the previous record (input must be sorted by time)");
      continue;
    }
    latest_ = record.time;
    if (compression_ > 0) {
      if (!anchored_) {
        anchored_ = true;
        anchor_clock_ = now;
        anchor_time_ = record.time;
      }
      auto offset = static_cast<Duration>(
          std::llround(static_cast<double>(record.time - anchor_time_) * kSecond / compression_));
      Timestamp due = anchor_clock_ + offset;
      if (due > now) {
        pending_ = record;
        context.fire_again_at(due);
        return;
      }
    }
    emit(context, record, now);
  }
}

bool SourceActor::postfire(FiringContext&) {
  return !done_ || pending_.has_value();
}

ActorType source_actor_type() {
  return actors::make_type(
      "lr_source",
      "Linear Road input (15 comma-separated integers a line, sorted by time; .xz read "
      "decompressed) as tuple records stamped with their Time; malformed lines are errors.",
      {{"path", ParamType::string, std::nullopt,
        "the input file (relative to the workflow file's folder)"},
       {"compression", ParamType::real, Value(0.0),
        "k > 0 releases the tuple with Time t at t/k seconds after the first; 0: as fast as "
        "possible"},
       {"batch", ParamType::integer, Value(256), "most lines read per firing"}},
      {},
      {{"out",
        "tuple records (type, time, carid, speed, xway, lane, dir, seg, pos, qid, day, "
        "released, ...)"}},
      [](const Params& params) -> std::unique_ptr<Actor> {
        std::string path = params.resolve_path(params.get_string("path"));
        {
          actors::LineReader probe;
          if (!probe.open(path))
            throw ParamError("path", "cannot open '" + path + "': " + std::strerror(errno));
        }
        double compression = params.get_double("compression");
        if (compression < 0) throw ParamError("compression", "must not be negative");
        std::int64_t batch = params.get_int("batch");
        if (batch < 1) throw ParamError("batch", "must be at least 1");
        return std::make_unique<SourceActor>(std::move(path), compression, batch);
      });
}

}  // namespace cwf::lr
