// csv_sink: writes each token as a CSV row. Columns are given or taken from the first record's
// fields; a record lacking a column leaves it empty, a token that is not a record fills the first
// column.
#pragma once

#include <string>
#include <vector>

#include "actors/output.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

struct CsvSinkOptions {
  std::string path;
  std::vector<std::string> columns;  // empty: the first record's fields ("value" for a non-record)
  bool header = true;
  char separator = ',';
};

class CsvSink final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "tokens to write, one row each"}}, {}};
  explicit CsvSink(CsvSinkOptions options);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  // The size of the file written and its columns (exactly once: a resumed run cuts the file back
  // to the checkpoint).
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  void start(std::vector<std::string> columns);
  void write_row(const Value& token);

  CsvSinkOptions options_;
  BufferedWriter writer_;
  std::vector<std::string> columns_;
  bool started_ = false;
  const Schema* last_schema_ = nullptr;
  std::vector<int> slot_of_column_;  // for last_schema_
};

ActorType csv_sink_type();

}  // namespace cwf::actors
