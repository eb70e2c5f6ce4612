// What the file sources (csv_source, jsonl_source) share: reading lines, the event time from an
// expression, pacing on the workflow clock, batching, the event limit, and malformed lines, which
// are reported and sent to the optional `errors` port as {file, line, text, error} records.
//
// The file is read ahead on a thread of its own (LineReader::read_ahead): a firing takes the
// lines that have come and otherwise waits for them (await_input) without holding a worker. Where
// a source cannot wait (ActorContext::can_await_input: a virtual clock, a sub-workflow) a firing
// reads what it needs itself, so that simulated time never moves past lines the file holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "actors/line_reader.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

struct FileSourceOptions {
  std::string path;                    // resolved
  std::optional<Expression> time;      // event timestamp; unset: the clock's now when read
  Duration time_unit = kSecond;        // what a numeric time counts
  double speed = 0;                    // 0: as fast as possible; k: k times the data's pace
  std::int64_t batch = 64;             // max lines per firing
  std::optional<std::int64_t> limit;   // max events
  bool follow = false;                 // tail -f: wait at the end for what is appended
  Duration poll = 200 * kMillisecond;  // follow: how often the end is looked at again
};

class FileSource : public Actor {
 public:
  // The ports of csv_source and jsonl_source.
  static inline const ActorPorts kPorts{
      {},
      {{"out", "one record per line"},
       {"errors", "malformed lines as {file, line, text, error} (optional)"}}};
  static constexpr int kOut = 0;
  static constexpr int kErrors = 1;

  explicit FileSource(FileSourceOptions options);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  bool postfire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  // Where the reading stands (the byte position and line number in the file), the events
  // emitted, the pacing anchor and a paced line read but not emitted yet.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 protected:
  // After the file is (re)opened: skip a header, reset per-run state.
  virtual void on_open(ActorContext&) {}
  // Turns one line into a record; malformed: `error` says why (the line is reported). May read
  // further lines from reader() (a quoted CSV field spanning lines): then `line` is pointed at
  // the whole text read, kept by the parser; incomplete: they have not been read yet (the
  // reader is waiting), and the line is parsed again once they have.
  enum class Parsed { record, malformed, incomplete };
  virtual Parsed parse(std::string_view& line, Value& out, std::string& error) = 0;

  LineReader& reader() { return reader_; }
  const FileSourceOptions& options() const { return options_; }
  // Reports a malformed line and emits it on `errors`.
  void malformed(FiringContext& context, std::uint64_t line, std::string_view text,
                 std::string_view error);

 private:
  // Emits the record of line `line` (which error messages downstream name as its origin).
  void emit_event(FiringContext& context, Value&& record, Timestamp time, std::uint64_t line);
  // Nothing more to read now. Followed, a file truncated or replaced is read again from its start
  // (true: read on); otherwise the source waits: for the read-ahead's wake, or without reading
  // ahead (in a sub-workflow) for `poll` to pass (false).
  bool wait_for_more(FiringContext& context);
  // Paced: when the line of data time `time` is due on the clock.
  Timestamp due_time(Timestamp time) const;
  // on_open once the file has a whole line (a followed file may start empty: its header first).
  bool opened(ActorContext& context);

  FileSourceOptions options_;
  LineReader reader_;
  const Schema* error_schema_;
  bool done_ = false;
  std::int64_t emitted_ = 0;
  bool anchored_ = false;
  bool unit_hint_given_ = false;  // a time out of range in time_unit was explained once
  bool open_pending_ = false;     // on_open waits for the followed file's first line
  Timestamp anchor_data_ = 0, anchor_clock_ = 0;
  struct Pending {
    Value record;
    Timestamp time;
    std::uint64_t line;
  };
  std::optional<Pending> pending_;
  std::string error_;  // scratch
};

// The parameters every file source has (path, time, time_unit, pace, batch, limit) and their
// reading; a file that cannot be opened is a ParamError on `path`.
std::vector<ParamSpec> file_source_params();
FileSourceOptions file_source_options(const Params& params);

}  // namespace cwf::actors
