#include "runtime/execution/run_checkpoint.hpp"

#include "runtime/execution/case_cancellations.hpp"
#include "runtime/execution/clock_snapshot.hpp"
#include "runtime/execution/composite_actor.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

namespace {

constexpr std::string_view kRunStateMarker = "cwf run state";

// The counters that a resumed run carries on: the summary and the exit status of the resumed run
// count what happened before the checkpoint too (a line rejected then still makes it exit 3).
Counter ActorStats::*const kSavedCounters[] = {
    &ActorStats::firings,  &ActorStats::events_in, &ActorStats::events_out,
    &ActorStats::rejected, &ActorStats::failed,    &ActorStats::dropped,
    &ActorStats::lost,     &ActorStats::warnings,  &ActorStats::late,
    &ActorStats::expired,  &ActorStats::cancelled, &ActorStats::retractions};

void write_stats(const ActorStats& stats, SnapshotWriter& out) {
  for (Counter ActorStats::*counter : kSavedCounters)
    out.write_u64((stats.*counter).get());
}

void restore_stats(ActorStats& stats, SnapshotReader& in) {
  for (Counter ActorStats::*counter : kSavedCounters) {
    std::uint64_t saved = in.read_u64("a counter");
    (stats.*counter).add(saved - (stats.*counter).get());
  }
}

std::string described(const Execution& execution, ActorId id) {
  const ActorCell& cell = execution.cell(id);
  return "'" + cell.name() + "' (" + cell.type() + ")";
}

void add_refusals(const Workflow& workflow, const std::string& prefix,
                  std::vector<std::string>& refused) {
  for (ActorId id = 0; id < workflow.size(); ++id) {
    const ActorEntry& entry = workflow.actor(id);
    if (entry.actor->checkpointing() != Actor::Checkpointing::unsupported) continue;
    // A sub-workflow cannot be checkpointed because of actors inside it: those are named.
    if (auto* composite = dynamic_cast<const CompositeActor*>(entry.actor.get())) {
      std::size_t before = refused.size();
      add_refusals(composite->inner(), prefix + entry.name + "/", refused);
      if (refused.size() > before) continue;
    }
    std::string text = prefix + entry.name + " (" + entry.type;
    if (!entry.location.file.empty())
      text += ", " + entry.location.file + ":" + std::to_string(entry.location.line);
    refused.push_back(text + ")");
  }
}

}  // namespace

std::vector<std::string> checkpoint_refusals(const Workflow& workflow) {
  std::vector<std::string> refused;
  add_refusals(workflow, "", refused);
  return refused;
}

std::vector<std::uint8_t> write_run_state(Execution& execution, RunStateScope scope) {
  SnapshotWriter out;
  out.begin_section("run");
  out.write_string(kRunStateMarker);
  out.write_u64(execution.size());
  for (ActorId id = 0; id < execution.size(); ++id) {
    out.write_string(execution.cell(id).name());
    out.write_string(execution.cell(id).type());
  }
  out.end_section();

  if (scope == RunStateScope::run) {
    out.begin_section("clock");
    snapshot_clock(execution.clock(), out);
    out.end_section();
  }

  out.begin_section("cancellations");
  execution.cancellations().snapshot(out);
  out.end_section();

  for (ActorId id = 0; id < execution.size(); ++id) {
    ActorCell& cell = execution.cell(id);
    out.begin_section("actor:" + cell.name());
    cell.snapshot_engine_state(out);
    out.begin_section("stats");
    write_stats(cell.stats(), out);
    out.end_section();
    if (cell.actor().checkpointing() == Actor::Checkpointing::own) {
      out.begin_section("state");
      ActorContext context(cell);
      cell.actor().save_state(out, context);
      out.end_section();
    }
    out.end_section();
  }
  return out.take_bytes();
}

void checkpoint_committed(Execution& execution) {
  for (ActorId id = 0; id < execution.size(); ++id) {
    ActorCell& cell = execution.cell(id);
    if (cell.actor().checkpointing() != Actor::Checkpointing::own) continue;
    ActorContext context(cell);
    cell.actor().checkpoint_committed(context);
  }
}

void restore_run_state(Execution& execution, std::span<const std::uint8_t> payload,
                       RunStateScope scope) {
  SnapshotReader in(payload);
  in.begin_section("run");
  if (in.read_string("the run state's marker") != kRunStateMarker)
    in.reject("the run state", "this is not the state of a cwf run");
  std::size_t actors = in.read_count("the number of actors");
  for (ActorId id = 0; id < actors; ++id) {
    std::string name = in.read_string("an actor's name");
    std::string type = in.read_string("an actor's type");
    if (id >= execution.size())
      in.reject("the workflow", "the checkpoint has an actor '" + name + "' (" + type +
                                    ") that this workflow does not have");
    const ActorCell& cell = execution.cell(id);
    if (cell.name() != name || cell.type() != type)
      in.reject("the workflow", "actor " + std::to_string(id + 1) + " is '" + name + "' (" + type +
                                    ") in the checkpoint and " + described(execution, id) +
                                    " in this workflow");
  }
  if (actors < execution.size())
    in.reject("the workflow", "this workflow has an actor " +
                                  described(execution, static_cast<ActorId>(actors)) +
                                  " that the checkpoint does not have");
  in.end_section();

  if (scope == RunStateScope::run) {
    in.begin_section("clock");
    restore_clock(execution.clock(), in);
    in.end_section();
  }

  in.begin_section("cancellations");
  execution.cancellations().restore(in);
  in.end_section();

  // Sinks (actors without outputs) last, in a second pass: a sink cuts its output file back to
  // the checkpoint, which must not happen when another actor's state then turns out not to fit
  // (an input file now shorter) and an older checkpoint is tried.
  auto restore_actor = [&execution](ActorId id, SnapshotReader& from) {
    ActorCell& cell = execution.cell(id);
    from.begin_section("actor:" + cell.name());
    cell.restore_engine_state(from);
    from.begin_section("stats");
    restore_stats(cell.stats(), from);
    from.end_section();
    if (cell.actor().checkpointing() == Actor::Checkpointing::own) {
      from.begin_section("state");
      ActorContext context(cell);
      cell.actor().restore_state(from, context);
      from.end_section();
    }
    from.end_section();
  };
  auto is_sink = [&execution](ActorId id) { return execution.cell(id).actor().outputs().empty(); };
  for (ActorId id = 0; id < execution.size(); ++id) {
    if (is_sink(id))
      in.skip_section();
    else
      restore_actor(id, in);
  }
  in.expect_end();
  SnapshotReader sinks(payload);
  int before_actors = scope == RunStateScope::run ? 3 : 2;  // run, (clock,) cancellations
  for (int section = 0; section < before_actors; ++section)
    sinks.skip_section();
  for (ActorId id = 0; id < execution.size(); ++id) {
    if (is_sink(id))
      restore_actor(id, sinks);
    else
      sinks.skip_section();
  }
  sinks.expect_end();
}

}  // namespace cwf
