#include "linear_road/source_actor.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "linear_road/workflow_events.hpp"
#include "runtime/snapshot/trivial_array_snapshot.hpp"

namespace cwf::lr {

SourceActor::SourceActor(std::string path, const Options& options)
    : Actor(kPorts), path_(std::move(path)), options_(options) {}

void SourceActor::initialize(ActorContext& context) {
  if (options_.copies > 1 && options_.shape.empty()) {
    try {
      options_.shape = scan_replica_shape(path_, options_.minutes * 60);
    } catch (const std::exception& e) {
      throw std::runtime_error(context.name() + ": " + e.what());
    }
  }
  if (!reader_.open(path_))
    throw std::runtime_error(context.name() + ": cannot open '" + path_ +
                             "': " + std::strerror(errno));
  // A thread of its own reads (and decompresses) the file ahead of the firings.
  if (context.can_await_input())
    reader_.read_ahead(context.external_wake(), 200 * kMillisecond, path_);
  rejects_ = InputRejectTally();
  out_of_order_ = speeds_left_out_ = emitted_ = reader_line_count_ = travel_time_queries_ = 0;
  first_fired_ = -1;
  latest_ = 0;
  done_ = anchored_ = false;
  pending_.reset();
  progress_time_.store(0, std::memory_order_relaxed);
  progress_emitted_.store(0, std::memory_order_relaxed);
}

void SourceActor::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_u64(reader_.position());
  out.write_u64(reader_.line_number());
  rejects_.save(out);
  for (std::uint64_t count :
       {out_of_order_, speeds_left_out_, emitted_, travel_time_queries_, reader_line_count_})
    out.write_u64(count);
  out.write_timestamp(first_fired_);
  out.write_i64(latest_);
  out.write_bool(done_);
  out.write_bool(anchored_);
  out.write_timestamp(anchor_clock_);
  out.write_i64(anchor_time_);
  out.write_bool(pending_.has_value());
  if (pending_) write_trivial_array(out, std::span<const InputRecord>(&*pending_, 1));
  out.write_timestamp(pending_due_);
}

void SourceActor::restore_state(SnapshotReader& in, ActorContext& context) {
  std::uint64_t position = in.read_u64("the position in the file");
  std::uint64_t line = in.read_u64("the line number");
  rejects_.restore(in);
  for (std::uint64_t* count :
       {&out_of_order_, &speeds_left_out_, &emitted_, &travel_time_queries_, &reader_line_count_})
    *count = in.read_u64("a count of the tuples read");
  first_fired_ = in.read_timestamp("the first firing's time");
  latest_ = static_cast<Seconds>(in.read_i64("the latest tuple's time"));
  done_ = in.read_bool("whether the input was read to its end");
  anchored_ = in.read_bool("whether the pace is anchored");
  anchor_clock_ = in.read_timestamp("the pace's anchor on the clock");
  anchor_time_ = static_cast<Seconds>(in.read_i64("the pace's anchor in the data"));
  pending_.reset();
  if (in.read_bool("whether a tuple waits for its time")) {
    pending_.emplace();
    read_trivial_array_into(in, std::span<InputRecord>(&*pending_, 1), "the waiting tuple");
  }
  pending_due_ = in.read_timestamp("the waiting tuple's time");
  if (position < reader_.position())
    in.reject("the position in the file", "it is before the part initialize() already read");
  if (!reader_.seek(position, line))
    throw std::runtime_error(context.name() + ": cannot go back to line " + std::to_string(line) +
                             " of '" + path_ + "' where the checkpoint stands: " + reader_.error());
  progress_time_.store(latest_, std::memory_order_relaxed);
  progress_emitted_.store(emitted_, std::memory_order_relaxed);
}

void SourceActor::wrapup(ActorContext&) {
  reader_.close();
}

void SourceActor::emit(FiringContext& context, const InputRecord& record, Timestamp released) {
  if (record.type == static_cast<std::int32_t>(InputType::travel_time)) {
    travel_time_queries_ += static_cast<std::uint64_t>(options_.copies);
    return;
  }
  context.set_output_time(static_cast<Timestamp>(record.time) * kSecond);
  int port =
      record.type == static_cast<std::int32_t>(InputType::daily_expenditure) ? kExpenditure : kOut;
  for (std::int32_t copy = 0; copy < options_.copies; ++copy)
    context.emit(port, make_tuple(replica(record, copy, options_.shape), released));
  emitted_ += static_cast<std::uint64_t>(options_.copies);
}

void SourceActor::fire(FiringContext& context) {
  // One clock read per firing: as fast as possible, a batch is released at once anyway.
  Timestamp now = context.clock().now();
  if (first_fired_ < 0) first_fired_ = now;
  if (pending_) {
    // Paced: the read-ahead's wake may fire the source before the waiting tuple's time.
    if (pending_due_ > now) {
      context.fire_again_at(pending_due_);
      return;
    }
    emit(context, *pending_, pending_due_);
    pending_.reset();
  }
  std::string_view line;
  InputRecord record;
  // With L copies a line is L tuples: keep a firing's tuples near `batch`.
  const std::int64_t lines_per_firing = std::max<std::int64_t>(1, options_.batch / options_.copies);
  const Seconds until = options_.minutes * 60;
  for (std::int64_t lines = 0; lines < lines_per_firing && !done_; ++lines) {
    if (!reader_.next(line)) {
      if (!reader_.error().empty()) {
        context.report_error(path_ + ": read error: " + reader_.error());
      } else if (reader_.waiting()) {
        context.await_input();
        break;
      }
      done_ = true;
      break;
    }
    reader_line_count_ = reader_.line_number();
    InputReject reason = parse_input_line(line, record);
    if (reason != InputReject::none) {
      rejects_.add(reason, reader_.line_number());
      context.report_error(path_ + ":" + std::to_string(reader_.line_number()) +
                           ": malformed line (" + input_reject_name(reason) +
                           "): " + input_reject_message(reason, record));
      continue;
    }
    if (record.time < latest_) {
      ++out_of_order_;
      context.report_error(path_ + ":" + std::to_string(reader_.line_number()) +
                           ": earlier than the previous record (input must be sorted by time)");
      continue;
    }
    if (until > 0 && record.time >= until) {
      done_ = true;
      break;
    }
    latest_ = record.time;
    if (InputWarning warning = input_warning(record); warning != InputWarning::none) {
      ++speeds_left_out_;
      context.report_warning(path_ + ":" + std::to_string(reader_.line_number()) + ": " +
                             input_warning_message(warning, record));
    }
    Timestamp released = now;
    if (options_.compression > 0) {
      if (!anchored_) {
        anchored_ = true;
        anchor_clock_ = now;
        anchor_time_ = record.time;
      }
      auto offset = static_cast<Duration>(std::llround(
          static_cast<double>(record.time - anchor_time_) * kSecond / options_.compression));
      Timestamp due = anchor_clock_ + offset;
      if (due > now) {
        pending_ = record;
        pending_due_ = due;
        context.fire_again_at(due);
        break;
      }
      released = due;
    }
    emit(context, record, released);
  }
  progress_time_.store(latest_, std::memory_order_relaxed);
  progress_emitted_.store(emitted_, std::memory_order_relaxed);
}

bool SourceActor::postfire(FiringContext&) {
  return !done_ || pending_.has_value();
}

ActorType source_actor_type() {
  return actors::make_type(
      "lr_source",
      "Linear Road input (15 comma-separated integers a line, sorted by time; .xz read "
      "decompressed) as tuple records stamped with their Time; malformed lines are errors, a "
      "position report with a speed out of range is kept (a warning).",
      {{"path", ParamType::string, std::nullopt,
        "the input file (relative to the workflow file's folder)"},
       {"compression", ParamType::real, Value(0.0),
        "k > 0 releases the tuple with Time t at t/k seconds after the first; 0: as fast as "
        "possible"},
       {"batch", ParamType::integer, Value(SourceActor::Options{}.batch),
        "most tuples emitted per firing"},
       {"xways", ParamType::integer, Value(1),
        "L > 1 replicates the input for L expressways: copy i of every tuple has xway + i*X, "
        "carid + i*C, qid + i*Q"},
       {"replica_cars", ParamType::integer, Value(0),
        "C for replication: largest carid + 1 (0: scanned from the input)"},
       {"replica_xways", ParamType::integer, Value(0),
        "X for replication: largest xway + 1 (0: scanned from the input)"},
       {"replica_qids", ParamType::integer, Value(0),
        "Q for replication: largest qid + 1 (0: scanned from the input)"},
       {"minutes", ParamType::integer, Value(0),
        "M > 0 stops before the first tuple with Time >= 60*M; 0: the whole input"}},
      SourceActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string path = params.path("path");
        {
          actors::LineReader probe;
          if (!probe.open(path))
            params.input_missing("path", "cannot open '" + path + "': " + std::strerror(errno));
        }
        SourceActor::Options options;
        options.compression = params.get_double("compression");
        if (options.compression < 0) throw ParamError("compression", "must not be negative");
        options.batch = params.get_int("batch");
        if (options.batch < 1) throw ParamError("batch", "must be at least 1");
        std::int64_t xways = params.get_int("xways");
        if (xways < 1 || xways > 100'000) throw ParamError("xways", "must be 1..100000");
        options.copies = static_cast<std::int32_t>(xways);
        std::int64_t minutes = params.get_int("minutes");
        if (minutes < 0 || minutes > 1'000'000) throw ParamError("minutes", "must be 0..1000000");
        options.minutes = static_cast<std::int32_t>(minutes);
        std::int64_t shape[3] = {params.get_int("replica_cars"), params.get_int("replica_xways"),
                                 params.get_int("replica_qids")};
        const char* names[3] = {"replica_cars", "replica_xways", "replica_qids"};
        for (int i = 0; i < 3; ++i)
          if (shape[i] < 0 || shape[i] > (1 << 30)) throw ParamError(names[i], "must be 0..2^30");
        if ((shape[0] == 0) != (shape[1] == 0) || (shape[0] == 0) != (shape[2] == 0))
          throw ParamError("replica_cars",
                           "give replica_cars, replica_xways and replica_qids "
                           "together, or none (scanned from the input)");
        if (shape[0] > 0 &&
            static_cast<double>(shape[0]) * static_cast<double>(xways) >= (1u << 31))
          throw ParamError("xways", "xways * replica_cars must fit 31 bits");
        options.shape.cars = static_cast<std::int32_t>(shape[0]);
        options.shape.xways = static_cast<std::int32_t>(shape[1]);
        options.shape.qids = static_cast<std::int32_t>(shape[2]);
        return std::make_unique<SourceActor>(std::move(path), options);
      });
}

}  // namespace cwf::lr
