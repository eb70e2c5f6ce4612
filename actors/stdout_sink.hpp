// stdout: prints each token on a line, as JSON, plain text or a CSV row, optionally prefixed by
// the event's timestamp and wave tag. Output is flushed after every firing when it goes to a
// terminal, and in large blocks otherwise (256 KiB: a pipe reader sees nothing until then), unless
// the process asks for line buffering (`cwf run --line-buffered`). stdbuf cannot change this:
// the blocks are the sink's own buffer, not the C library's.
#pragma once

#include <cstdio>

#include "actors/output.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

enum class TextFormat { json, text, csv };

struct StdoutOptions {
  TextFormat format = TextFormat::json;
  bool with_time = false;  // "<timestamp ns> " before the token
  bool with_wave = false;  // "<wave tag> " before the token
};

class StdoutSink final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "tokens to print, one line each"}}, {}};
  // `stream` is not owned (tests pass a temporary file).
  explicit StdoutSink(StdoutOptions options, std::FILE* stream = stdout);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  // Flushed at each checkpoint; standard output cannot be cut back, so a resumed run prints
  // again what was printed after its checkpoint (at least once).
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  StdoutOptions options_;
  std::FILE* stream_;
  BufferedWriter writer_;
  bool interactive_ = false;  // writes out after every firing, and waits for it
};

ActorType stdout_type();

// Whether the stdout actors of this process flush after every firing wherever the standard
// output goes (true), or only on a terminal (false, the default). There is one standard output
// per process, so this is set once per process, before the run (`cwf run --line-buffered`).
void set_stdout_line_buffered(bool line_buffered);

}  // namespace cwf::actors
