#include "actors/file_source.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

namespace {

struct TimeUnit {
  Duration length;
  std::string_view name, words;
};
constexpr TimeUnit kTimeUnits[] = {{kSecond, "s", "seconds"},
                                   {kMillisecond, "ms", "milliseconds"},
                                   {kMicrosecond, "us", "microseconds"},
                                   {1, "ns", "nanoseconds"}};

// For a numeric time too large for `unit` (the clock counts int64 nanoseconds, up to the year
// 2262): what it most likely counts, the coarsest finer unit in which it is a time, as advice on
// `time_unit`; empty when there is none. Milliseconds since the epoch read as seconds are the
// usual case.
std::string time_unit_hint(const Value& time, Duration unit) {
  double units = 0;
  if (time.is_number()) {
    units = time.as_double();
  } else if (time.is_string()) {
    std::string_view text = time.as_string();
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), units);
    if (ec != std::errc() || ptr != text.data() + text.size()) return "";
  } else {
    return "";
  }
  const TimeUnit* current = nullptr;
  for (const TimeUnit& u : kTimeUnits) {
    if (u.length == unit) {
      current = &u;
      continue;
    }
    if (current == nullptr || !std::isfinite(units)) continue;
    if (std::abs(units) * static_cast<double>(u.length) < 9.2e18)
      return time.to_text() + " is out of range in " + std::string(current->words) +
             "; if the times count " + std::string(u.words) +
             ", set `time_unit: " + std::string(u.name) + "`";
  }
  return "";
}

}  // namespace

FileSource::FileSource(FileSourceOptions options)
    : Actor(kPorts),
      options_(std::move(options)),
      error_schema_(Schema::intern({"file", "line", "text", "error"})) {}

void FileSource::initialize(ActorContext& context) {
  if (!reader_.open(options_.path))
    throw std::runtime_error(context.name() + ": cannot open '" + options_.path +
                             "': " + std::strerror(errno));
  if (options_.follow) {
    if (reader_.is_compressed())
      throw std::runtime_error(context.name() + ": follow reads a plain file as it grows; '" +
                               options_.path + "' is compressed");
    if (dynamic_cast<const VirtualClock*>(&context.clock()))
      throw std::runtime_error(context.name() +
                               ": follow needs the real clock: a virtual clock does not wait for "
                               "a file to grow");
  }
  reader_.set_follow(options_.follow);
  if (context.can_await_input())
    reader_.read_ahead(context.external_wake(), options_.poll, options_.path);
  done_ = false;
  emitted_ = 0;
  anchored_ = false;
  unit_hint_given_ = false;
  pending_.reset();
  context.set_input_name(options_.path);
  // The header (on_open) is read by the first firing: reading in initialize would start the
  // read-ahead before a resumed run's restore_state has gone back to where its checkpoint stands.
  open_pending_ = true;
}

bool FileSource::opened(ActorContext& context) {
  if (!open_pending_) return true;
  if (!reader_.has_line() && (options_.follow || reader_.waiting())) return false;
  open_pending_ = false;
  on_open(context);
  return true;
}

bool FileSource::wait_for_more(FiringContext& context) {
  switch (reader_.take_change(options_.path)) {
    case LineReader::Change::replaced:
      context.report_warning(options_.path + ": replaced; reading the new file from its start");
      open_pending_ = true;
      if (opened(context)) return true;
      break;
    case LineReader::Change::truncated:
      context.report_warning(options_.path + ": truncated; reading it again from its start");
      open_pending_ = true;
      if (opened(context)) return true;
      break;
    case LineReader::Change::none:
      break;
  }
  if (reader_.waiting())
    context.await_input();
  else
    context.fire_again_at(context.clock().now() + options_.poll);
  return false;
}

void FileSource::save_state(SnapshotWriter& out, ActorContext&) {
  out.write_u64(reader_.position());
  out.write_u64(reader_.line_number());
  out.write_bool(done_);
  out.write_i64(emitted_);
  out.write_bool(anchored_);
  out.write_bool(unit_hint_given_);
  out.write_timestamp(anchor_data_);
  out.write_timestamp(anchor_clock_);
  out.write_bool(pending_.has_value());
  if (pending_) {
    out.write_value(pending_->record);
    out.write_timestamp(pending_->time);
    out.write_u64(pending_->line);
  }
}

void FileSource::restore_state(SnapshotReader& in, ActorContext& context) {
  std::uint64_t position = in.read_u64("the position in the file");
  std::uint64_t line = in.read_u64("the line number");
  done_ = in.read_bool("whether the file was read to its end");
  emitted_ = in.read_i64("the events emitted");
  anchored_ = in.read_bool("whether the pace is anchored");
  unit_hint_given_ = in.read_bool("whether the time unit hint was given");
  anchor_data_ = in.read_timestamp("the pace's anchor in the data");
  anchor_clock_ = in.read_timestamp("the pace's anchor on the clock");
  pending_.reset();
  if (in.read_bool("whether a line waits for its time")) {
    Value record = in.read_value("the waiting line's record");
    Timestamp time = in.read_timestamp("the waiting line's time");
    pending_ = Pending{std::move(record), time, in.read_u64("the waiting line's number")};
  }
  // A header is the text's first line: once anything was read, it was.
  open_pending_ = position == 0;
  if (!reader_.seek(position, line))
    throw std::runtime_error(context.name() + ": cannot go back to line " + std::to_string(line) +
                             " of '" + options_.path +
                             "' where the checkpoint stands: " + reader_.error());
}

void FileSource::wrapup(ActorContext&) {
  reader_.close();
}

void FileSource::malformed(FiringContext& context, std::uint64_t line, std::string_view text,
                           std::string_view error) {
  // Sent to a connected `errors` port, the line is handled where the workflow says (not lost);
  // otherwise it is rejected, and the run's exit status says so.
  if (!context.connected(kErrors)) {
    std::string message = options_.path + ":" + std::to_string(line) + ": ";
    message += error;
    context.report_error(message);
    return;
  }
  Value slots[] = {Value(options_.path), Value(static_cast<std::int64_t>(line)), Value(text),
                   Value(error)};
  context.emit(kErrors, Value::record(error_schema_, slots));
}

void FileSource::emit_event(FiringContext& context, Value&& record, Timestamp time,
                            std::uint64_t line) {
  if (options_.time) context.set_output_time(time);
  context.note_input_line(line);
  context.emit(kOut, std::move(record));
  ++emitted_;
  if (options_.limit && emitted_ >= *options_.limit) done_ = true;
}

void FileSource::fire(FiringContext& context) {
  if (pending_) {
    // A paced line waits for its time; the read-ahead's wake may fire the source before it.
    if (Timestamp due = due_time(pending_->time); due > context.clock().now()) {
      context.fire_again_at(due);
      return;
    }
    Pending pending = std::move(*pending_);
    pending_.reset();
    emit_event(context, std::move(pending.record), pending.time, pending.line);
  }
  if (options_.limit && emitted_ >= *options_.limit) done_ = true;
  if (!done_ && !opened(context)) {
    wait_for_more(context);
    return;
  }
  for (std::int64_t lines = 0; lines < options_.batch && !done_; ++lines) {
    std::string_view line;
    reader_.mark();
    if (!reader_.next(line)) {
      if (!reader_.error().empty()) {
        context.report_error(options_.path + ": read error: " + reader_.error());
        done_ = true;
      } else if (!options_.follow && !reader_.waiting()) {
        done_ = true;
      } else if (wait_for_more(context)) {
        continue;
      }
      break;
    }
    std::uint64_t number = reader_.line_number();
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;  // blank line
    Value record;
    error_.clear();
    Parsed parsed = parse(line, record, error_);
    if (parsed == Parsed::incomplete) {
      reader_.rewind();
      wait_for_more(context);
      return;
    }
    if (parsed == Parsed::malformed) {
      malformed(context, number, line, error_);
      continue;
    }
    Timestamp time = 0;
    if (options_.time) {
      try {
        Value t = options_.time->evaluate(record);
        if (!to_timestamp(t, options_.time_unit, time, error_)) {
          // Once per run, advice on the unit (the same mistake fails every line).
          if (!unit_hint_given_) {
            if (std::string hint = time_unit_hint(t, options_.time_unit); !hint.empty()) {
              error_ = std::move(hint);
              unit_hint_given_ = true;
            }
          }
          malformed(context, number, line, "time: " + error_);
          continue;
        }
      } catch (const ExprError& e) {
        malformed(context, number, line, std::string("time: ") + e.what());
        continue;
      }
      if (options_.speed > 0) {
        Timestamp now = context.clock().now();
        if (!anchored_) {
          anchored_ = true;
          anchor_data_ = time;
          anchor_clock_ = now;
        }
        if (Timestamp due = due_time(time); due > now) {
          pending_ = Pending{std::move(record), time, number};
          context.fire_again_at(due);
          return;
        }
      }
    }
    emit_event(context, std::move(record), time, number);
  }
}

Timestamp FileSource::due_time(Timestamp time) const {
  Duration offset = time - anchor_data_;
  if (options_.speed != 1)
    offset = static_cast<Duration>(std::llround(static_cast<double>(offset) / options_.speed));
  return anchor_clock_ + offset;
}

bool FileSource::postfire(FiringContext&) {
  return !done_ || pending_.has_value();
}

std::vector<ParamSpec> file_source_params() {
  return {
      {"path", ParamType::string, std::nullopt,
       "the file to read (relative to the workflow file's folder)"},
      {"time", ParamType::expression, Value(),
       "expression giving each event's timestamp from its record, e.g. /ts: a number counted in "
       "`time_unit`, or an ISO-8601 date-time string; not set: the clock's time when read"},
      {"time_unit", ParamType::string, Value("s"), "unit of numeric times: s, ms, us or ns"},
      {"pace", ParamType::string, Value("fast"),
       "fast (as fast as possible), real (replay at the pace of the timestamps on the workflow "
       "clock) or <k>x (k times faster than real, e.g. 10x); pacing needs `time`"},
      {"batch", ParamType::integer, Value(64), "max lines read per firing"},
      {"limit", ParamType::integer, Value(), "max events emitted; not set: the whole file"},
      {"follow", ParamType::boolean, Value(false),
       "keep reading as the file grows (tail -f): at its end, look again every `poll`; a file "
       "truncated or replaced (rotated) is read again from its start; runs until stopped or "
       "`limit`"},
      {"poll", ParamType::duration, Value(static_cast<std::int64_t>(200 * kMillisecond)),
       "follow: how often the end of the file is looked at again"},
  };
}

FileSourceOptions file_source_options(const Params& params) {
  FileSourceOptions options;
  options.path = params.path("path");
  if (std::filesystem::is_directory(options.path))
    throw ParamError("path", "'" + options.path + "' is a folder, not a file");
  {
    LineReader probe;
    if (!probe.open(options.path))
      params.input_missing("path", "cannot open '" + options.path + "': " + std::strerror(errno));
  }
  if (is_set(params, "time")) options.time = compile_param(params, "time");
  options.time_unit = parse_time_unit(params, "time_unit");
  options.speed = parse_pace(params, "pace");
  if (options.speed > 0 && !options.time)
    throw ParamError("pace", "pacing needs the event times: set `time`");
  options.batch = params.get_int("batch");
  if (options.batch < 1) throw ParamError("batch", "batch must be at least 1");
  if (is_set(params, "limit")) {
    options.limit = params.get_int("limit");
    if (*options.limit < 0) throw ParamError("limit", "limit must not be negative");
  }
  options.follow = params.get_bool("follow");
  options.poll = params.get_duration("poll");
  if (options.poll <= 0) throw ParamError("poll", "poll must be positive");
  if (options.follow && options.speed > 0)
    throw ParamError("follow", "a followed file is read as it grows: leave `pace` at fast");
  return options;
}

}  // namespace cwf::actors
