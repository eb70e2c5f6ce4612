// Fuzzes the restoring of actors' own state from a checkpoint (Actor::restore_state) for every
// actor type that keeps one: sources (positions in their files), sinks (their files' sizes),
// counter, aggregates, joins, the Linear Road actors' tables and open balance sums, the GSM
// engine's instances, the ECA detector's held occurrences and deadlines, the rule engine's, the
// time events still to come, the sites' occurrence ids and the history's size, the pub/sub broker's
// routing tables, the guard scheduler's and gsm_pubsub's sub-workflows, a sub-workflow with windows
// and the sky regions tag_interest keeps. The first byte chooses the actor, the rest is what its
// saved state would be. A restored actor's state is saved again and restored into a freshly built
// actor of the same kind, which must save exactly the same bytes: restoring keeps everything it
// accepted. A SnapshotError (bytes damaged, or a state the actor cannot be in) and a
// std::runtime_error (an input file shorter than the position, an output file shorter than the
// size) are expected; a crash, undefined behaviour, a leak, a hang or any other exception is a
// finding.
//
// `fuzz_actor_state -print_seeds=1` prints the seeds of fuzz/seeds/actor_state.txt instead: one
// hex line per kind, the state of the actor as initialized.
//
// Each actor is built alone, from a one-actor workflow loaded as `cwf run --resume` loads it,
// over small files in a temporary folder written again for every input.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/registries.hpp"
#include "fuzz/seed_printing.hpp"
#include "runtime/actor/actor_context.hpp"
#include "runtime/execution/execution.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/time/clock.hpp"

namespace {

namespace fs = std::filesystem;

// One actor each, by its YAML declaration ({dir}: the temporary folder).
const char* const kActors[] = {
    "{type: lr_source, path: {dir}/lr.dat}",
    "{type: lr_segment_statistics}",
    "{type: lr_accident_detection}",
    "{type: lr_toll}",
    "{type: lr_answer_sink, path: {dir}/answers.out}",
    "{type: counter}",
    "{type: aggregate, function: avg, value: /v, window_times: ms}",
    "{type: aggregate, function: max, value: /v}",
    "{type: interval_join, key: /k, lower: 1 s, upper: 3 s, emit: \"{a: left/v, b: right/v}\"}",
    "{type: join, match: time, on: left/k == right/k, emit: \"{a: left/v, b: right/v}\"}",
    "{type: jsonl_source, path: {dir}/in.jsonl, time: /ts}",
    "{type: csv_source, path: {dir}/in.csv, time: /ts}",
    "{type: generator, count: 100, value: i}",
    "{type: jsonl_sink, path: {dir}/out.jsonl}",
    "{type: csv_sink, path: {dir}/out.csv}",
    "{type: gsm, model: " CWF_SOURCE_DIR "/workflows/gsm/design_to_order.yaml}",
    "{type: eca_detector, events: [\"SEQ(REQ(a), REQ(b))\", \"REP(RPL(a.Done), REQ(a), 30 s)\", "
    "\"REP(REQ(b), TIME(tick), 20 s)\"]}",
    "{type: eca_time_events, name: tick, at: [\"900\"], every: 1 min, count: 3}",
    "{type: eca_rules, rules: " CWF_SOURCE_DIR "/workflows/examples/hic/rules.yaml}",
    "{type: eca_raise, event: REQ(HIC), instance: /claim, broker: InsuranceAgency}",
    "{type: eca_broker, name: DBCL, site: s1, services: {LogClaim: {delay: 1 min}}}",
    "{type: eca_history, path: {dir}/history.jsonl}",
    "{type: broker, subscriptions: {alice: [[x, \"<\", 3]]}, advertisements: {p: []}}",
    "{type: guard_scheduler, dependencies: [\"~e[c] + ~f[c] + e[c].f[c]\", \"~s[c] + b[c]\"]}",
    "{type: gsm_pubsub, model: " CWF_SOURCE_DIR "/workflows/gsm/design_to_order.yaml, workers: 1}",
    "{workflow: " CWF_SOURCE_DIR "/workflows/examples/checkpoints/stages/sensor_stage.yaml}",
    "{type: tag_interest, interests: {dir}/interests.jsonl}",
    "{type: correlate, key: /k, timeout: 30 s, emit: \"{a: request/v, b: reply/v}\"}",
    "{type: lr_balance_sum}",
};
constexpr std::size_t kKinds = sizeof kActors / sizeof kActors[0];

const fs::path& folder() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("cwf-fuzz-actor-state-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

// The files the actors read and write, as they were before any input.
void reset_files() {
  const fs::path& d = folder();
  write(d / "lr.dat",
        "0,0,107,32,0,0,0,10,53320,-1,-1,-1,-1,-1,-1\n"
        "0,30,107,32,0,0,0,10,53320,-1,-1,-1,-1,-1,-1\n"
        "2,31,107,-1,-1,-1,-1,-1,-1,1,-1,-1,-1,-1,-1\n");
  write(d / "in.jsonl", "{\"k\": 1, \"v\": 2.5, \"ts\": 10}\n{\"k\": 2, \"v\": 3, \"ts\": 20}\n");
  write(d / "in.csv", "k,v,ts\n1,2.5,10\n2,3,20\n");
  write(d / "answers.out", "0,107,0,0,0,0\n");
  write(d / "out.jsonl", "{\"a\": 1}\n{\"a\": 2}\n");
  write(d / "out.csv", "a\n1\n2\n");
  write(d / "history.jsonl", "{\"type\": \"REQ(a)\"}\n");
  write(d / "interests.jsonl",
        "{\"user\": \"ana\", \"region\": \"A\", \"box\": [350, -5, 10, 5], \"types\": [\"x\"]}\n");
}

struct Built {
  std::unique_ptr<cwf::Workflow> workflow;
  std::unique_ptr<cwf::Execution> execution;
};

cwf::VirtualClock& clock() {
  static cwf::VirtualClock c;
  return c;
}

// The actor of `kind` in a resumed run, initialized, before its state is restored.
Built build(std::size_t kind) {
  static const cwf::LoadContext context{cwf::cli::actor_registry(), cwf::cli::scheduler_registry()};
  std::string declaration = kActors[kind];
  for (std::size_t at; (at = declaration.find("{dir}")) != std::string::npos;)
    declaration.replace(at, 5, folder().string());
  const std::string text = "name: fuzz\nactors:\n  it: " + declaration + "\n";
  Built built;
  built.workflow = cwf::load_workflow_text(text, "fuzz.yaml", folder().string(), context);
  built.execution = std::make_unique<cwf::Execution>(*built.workflow, clock());
  built.execution->env().resuming = true;
  built.execution->initialize();
  return built;
}

std::vector<std::uint8_t> saved(Built& built) {
  cwf::ActorCell& cell = built.execution->cell(0);
  cwf::ActorContext context(cell);
  cwf::SnapshotWriter out;
  cell.actor().save_state(out, context);
  return out.take_bytes();
}

void restore(Built& built, std::span<const std::uint8_t> bytes) {
  cwf::ActorCell& cell = built.execution->cell(0);
  cwf::ActorContext context(cell);
  cwf::SnapshotReader in(bytes);
  cell.actor().restore_state(in, context);
  in.expect_end();
}

// The actor's state as initialized.
std::vector<std::uint8_t> seed_of(std::size_t kind) {
  reset_files();
  Built built = build(kind);
  return saved(built);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t kind = data[0] % kKinds;
  reset_files();
  Built first = build(kind);
  try {
    restore(first, std::span<const std::uint8_t>(data + 1, size - 1));
  } catch (const cwf::SnapshotError&) {
    return 0;
  } catch (const std::runtime_error&) {
    return 0;
  }
  const std::vector<std::uint8_t> written = saved(first);
  first.execution.reset();  // the files closed before they are written again
  first.workflow.reset();
  reset_files();
  Built second = build(kind);
  restore(second, written);  // an exception here is a finding too: it escapes
  if (saved(second) != written) {
    std::fprintf(stderr, "a restored %s saved other bytes once restored again\n", kActors[kind]);
    std::abort();
  }
  return 0;
}

// -print_seeds=1: the seed lines, for fuzz/seeds/actor_state.txt.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  cwf::fuzz::print_seeds_if_asked(*argc, *argv, kKinds, seed_of);
  return 0;
}
