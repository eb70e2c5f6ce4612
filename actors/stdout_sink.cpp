#include "actors/stdout_sink.hpp"

#include <unistd.h>

#include <atomic>
#include <charconv>

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

namespace {
std::atomic<bool> g_line_buffered{false};
}  // namespace

void set_stdout_line_buffered(bool line_buffered) {
  g_line_buffered = line_buffered;
}

StdoutSink::StdoutSink(StdoutOptions options, std::FILE* stream)
    : Actor(kPorts), options_(options), stream_(stream) {}

void StdoutSink::initialize(ActorContext&) {
  writer_.attach(stream_);
  interactive_ = g_line_buffered || ::isatty(::fileno(stream_)) == 1;
}

void StdoutSink::save_state(SnapshotWriter& out, ActorContext&) {
  save_output(writer_, out, "standard output");
}

void StdoutSink::restore_state(SnapshotReader& in, ActorContext&) {
  restore_output(writer_, in, "standard output");
}

void StdoutSink::fire(FiringContext& context) {
  std::string& out = writer_.buffer();
  for (const Event& event : context.window()) {
    if (options_.with_time) {
      char buf[24];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, event.time);
      out.append(buf, static_cast<std::size_t>(end - buf));
      out.push_back(' ');
    }
    if (options_.with_wave) {
      out += event.wave.to_string();
      out.push_back(' ');
    }
    const Value& token = event.token;
    switch (options_.format) {
      case TextFormat::json:
        token.append_json(out);
        break;
      case TextFormat::text:
        append_text(out, token);
        break;
      case TextFormat::csv:
        if (token.is_record()) {
          auto slots = token.slots();
          for (std::size_t i = 0; i < slots.size(); ++i) {
            if (i) out.push_back(',');
            append_csv_field(out, slots[i], ',');
          }
        } else {
          append_csv_field(out, token, ',');
        }
        break;
    }
    out.push_back('\n');
  }
  writer_.count_event(context.window().size());
  if (interactive_)
    writer_.write_now();
  else
    writer_.maybe_flush();
  report_write_losses(context, writer_, "stdout");
}

void StdoutSink::wrapup(ActorContext& context) {
  writer_.close();
  report_write_losses(context, writer_, "stdout");
}

ActorType stdout_type() {
  return make_type(
      "stdout", "Prints each token on a line of the standard output.",
      {
          {"format", ParamType::string, Value("json"),
           "json (the token as JSON), text (strings bare, the rest as JSON) or csv (a record's "
           "fields in order, comma-separated, without header)"},
          {"with_time", ParamType::boolean, Value(false),
           "prefix each line with the event's timestamp (nanoseconds) and a space"},
          {"with_wave", ParamType::boolean, Value(false),
           "prefix each line with the event's wave tag and a space (after the time)"},
      },
      StdoutSink::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        StdoutOptions options;
        std::string format = params.get_string("format");
        if (format == "json")
          options.format = TextFormat::json;
        else if (format == "text")
          options.format = TextFormat::text;
        else if (format == "csv")
          options.format = TextFormat::csv;
        else
          throw ParamError("format",
                           "unknown format '" + format + "' (expected json, text or csv)");
        options.with_time = params.get_bool("with_time");
        options.with_wave = params.get_bool("with_wave");
        return std::make_unique<StdoutSink>(options);
      });
}

}  // namespace cwf::actors
