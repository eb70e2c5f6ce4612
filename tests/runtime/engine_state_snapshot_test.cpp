// The engine's state of an actor in checkpoints, apart from the actor's own: a time keeper goes on
// with its wave numbering, a cell keeps its requested firings, timers, cancellations and
// remembered outputs, a virtual clock its time; a workflow snapshotted at a drained point and
// rebuilt from the same graph goes on exactly as the original does.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "runtime/execution/actor_cell.hpp"
#include "runtime/execution/case_cancellations.hpp"
#include "runtime/execution/clock_snapshot.hpp"
#include "runtime/execution/execution.hpp"
#include "runtime/execution/time_keeper.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "test_actors.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::ListSource;

// ---- time keeper -------------------------------------------------------------------------------

std::vector<WaveTag> emit_from_source(TimeKeeper& keeper, int tokens) {
  std::vector<WaveTag> waves;
  auto send = [&waves](int, Event&& e) { waves.push_back(e.wave); };
  for (int i = 0; i < tokens; ++i) {
    keeper.begin_source_firing(100 + i);
    keeper.emit(0, Value(i), send);
    keeper.end_firing(send);
  }
  return waves;
}

TEST(EngineStateSnapshot, ATimeKeeperGoesOnWithItsWaveNumbering) {
  constexpr std::uint64_t kSpace = std::uint64_t{2} << 40;  // actor ordinal 2
  TimeKeeper before(2);
  std::vector<WaveTag> first = emit_from_source(before, 3);
  ASSERT_EQ(first.back().root_sequence(), kSpace + 3);
  SnapshotWriter out;
  before.snapshot(out);
  std::vector<std::uint8_t> bytes = out.take_bytes();

  TimeKeeper after(2);
  SnapshotReader in(bytes);
  after.restore(in);
  std::vector<WaveTag> next = emit_from_source(after, 2);
  EXPECT_EQ(next[0].root_sequence(), kSpace + 4);  // not kSpace + 1 again: roots never repeat
  EXPECT_EQ(next[1].root_sequence(), kSpace + 5);
  EXPECT_EQ(after.next_root_sequence(), kSpace + 6);
}

TEST(EngineStateSnapshot, ATimeKeeperRefusesAnotherActorsNumbering) {
  TimeKeeper source(0);
  emit_from_source(source, 3);
  SnapshotWriter out;
  source.snapshot(out);
  std::vector<std::uint8_t> bytes = out.take_bytes();
  TimeKeeper other(1);
  SnapshotReader in(bytes);
  EXPECT_THROW(other.restore(in), SnapshotError);
  EXPECT_EQ(other.next_root_sequence(), (std::uint64_t{1} << 40) + 1);
  std::span<const std::uint8_t> none;
  SnapshotReader empty(none);
  EXPECT_THROW(TimeKeeper().restore(empty), SnapshotError);
}

// ---- clock -------------------------------------------------------------------------------------

TEST(EngineStateSnapshot, AVirtualClockResumesAtItsTime) {
  VirtualClock before(0);
  before.advance_to(5 * kSecond);
  SnapshotWriter out;
  snapshot_clock(before, out);
  std::vector<std::uint8_t> bytes = out.take_bytes();
  VirtualClock after(0);
  SnapshotReader in(bytes);
  restore_clock(after, in);
  EXPECT_EQ(after.now(), 5 * kSecond);
  // A real clock follows wall time whatever the checkpoint says.
  RealClock real;
  Timestamp was = real.now();
  SnapshotReader again(bytes);
  restore_clock(real, again);
  EXPECT_GE(real.now(), was);
  EXPECT_GT(real.now(), 5 * kSecond);
}

// ---- a workflow, cut at a drained point --------------------------------------------------------

// Sums each window; on the window that starts with 1 it asks to be fired once more at 1000 (a
// requested firing, whose output starts a wave of this actor's own) and says "timer" then.
class SumAndAsk final : public Actor {
 public:
  SumAndAsk() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    if (context.port() == -1) {
      context.emit(Value("timer"));
      return;
    }
    std::int64_t sum = 0;
    for (const Event& e : context.window())
      sum += e.token.as_int();
    if (context.window().front().token.as_int() == 1) context.fire_again_at(1000);
    context.emit(sum);
  }
};

class NoDirector final : public ReadyListener {
 public:
  void make_ready(ActorCell&) override {}
};

// src (tokens 1..6 at 10..60, or the ones from `from` on: the source's own position is restored
// by the source) -> sum (3-token windows) -> sink.
struct SmallRun {
  explicit SmallRun(int from = 1, WindowSpec window = testing::window("3 tokens", "3 tokens")) {
    std::vector<Value> tokens;
    std::vector<Timestamp> times;
    for (int i = from; i <= 6; ++i) {
      tokens.push_back(i);
      times.push_back(i * 10);
    }
    workflow.emplace<ListSource>("src", tokens, times);
    workflow.emplace<SumAndAsk>("sum");
    ActorId sink_id = workflow.emplace<Collect>("sink");
    sink = static_cast<Collect*>(workflow.actor(sink_id).actor.get());
    workflow.declare_window("sum", "in", std::move(window));
    workflow.connect("src", "sum");
    workflow.connect("sum", "sink");
    execution = std::make_unique<Execution>(workflow, clock);
    execution->set_listener(listener);
    execution->initialize();
  }
  ActorCell& cell(const char* name) { return execution->cell(*workflow.find(name)); }
  // Runs every cell in order until none has anything left to do (sources too, unless paused).
  void drive(bool sources = true) {
    for (int round = 0; round < 6; ++round)
      for (ActorId id = 0; id < execution->size(); ++id) {
        if (!sources && execution->cell(id).is_source()) continue;
        execution->cell(id).run(100);
        execution->cell(id).try_go_idle();
      }
  }
  std::vector<std::uint8_t> snapshot() {
    SnapshotWriter out;
    out.begin_section("clock");
    snapshot_clock(clock, out);
    out.end_section();
    out.begin_section("cancellations");
    execution->env().cancellations->snapshot(out);
    out.end_section();
    for (ActorId id = 0; id < execution->size(); ++id) {
      out.begin_section("engine:" + execution->cell(id).name());
      execution->cell(id).snapshot_engine_state(out);
      out.end_section();
    }
    return out.take_bytes();
  }
  void restore(const std::vector<std::uint8_t>& bytes) {
    SnapshotReader in(bytes);
    in.begin_section("clock");
    restore_clock(clock, in);
    in.end_section();
    in.begin_section("cancellations");
    execution->env().cancellations->restore(in);
    in.end_section();
    for (ActorId id = 0; id < execution->size(); ++id) {
      in.begin_section("engine:" + execution->cell(id).name());
      execution->cell(id).restore_engine_state(in);
      in.end_section();
    }
    in.expect_end();
  }
  // The rest of the run: the source's tokens, the requested firing's time, the end of input.
  void finish() {
    drive();
    clock.advance_to(1000);
    drive();
    execution->end_input();
    drive();
  }

  Workflow workflow{"snapshot"};
  VirtualClock clock;
  NoDirector listener;
  std::unique_ptr<Execution> execution;
  Collect* sink = nullptr;
};

std::vector<std::string> described(const std::vector<Event>& events, std::size_t from = 0) {
  std::vector<std::string> out;
  for (std::size_t i = from; i < events.size(); ++i)
    out.push_back(events[i].token.to_json() + "@" + std::to_string(events[i].time) + "/" +
                  events[i].wave.to_string());
  return out;
}

TEST(EngineStateSnapshot, ARebuiltWorkflowGoesOnAsTheOriginal) {
  SmallRun original;
  original.cell("src").run(4);  // tokens 1..4; the source is paused there
  original.drive(false);        // {1, 2, 3} fired on; 4 waits in its window; 1000 requested
  original.clock.advance_to(200);
  ASSERT_EQ(described(original.sink->events), (std::vector<std::string>{"6@30/30#3.1*"}));
  std::vector<std::uint8_t> bytes = original.snapshot();

  SmallRun resumed(5);
  resumed.restore(bytes);
  EXPECT_EQ(resumed.clock.now(), 200);
  EXPECT_EQ(resumed.snapshot(), bytes);
  EXPECT_EQ(resumed.cell("sum").timer(), 1000);
  original.finish();
  resumed.finish();
  // 5 and 6 go on with the source's numbering (waves 5 and 6, not 1 and 2); the window {4, 5, 6}
  // formed across the cut; the requested firing at 1000 starts the sum actor's first own wave.
  const std::string sum_wave = "1000#" + std::to_string((std::uint64_t{1} << 40) + 1);
  EXPECT_EQ(described(original.sink->events, 1),
            (std::vector<std::string>{"15@60/60#6.1*", "\"timer\"@1000/" + sum_wave}));
  EXPECT_EQ(described(resumed.sink->events), described(original.sink->events, 1));
  EXPECT_EQ(resumed.snapshot(), original.snapshot());
}

// A time window waiting for its formation timeout at the cut: the cell still asks to be woken
// then (the director arms its timer from timer()), and the window closes at that time.
TEST(EngineStateSnapshot, AWakeUpAskedForBeforeTheCutIsKept) {
  WindowSpec timed = testing::window("25 ns", "25 ns");
  SmallRun original(1, timed);
  original.cell("src").run(2);  // 1 at 10, 2 at 20: the window [0, 25) waits
  original.drive(false);
  const Timestamp due = original.cell("sum").timer();
  ASSERT_NE(due, kNever);
  ASSERT_TRUE(original.sink->events.empty());
  SmallRun resumed(3, timed);
  resumed.restore(original.snapshot());
  EXPECT_EQ(resumed.cell("sum").timer(), due);
  for (SmallRun* run : {&original, &resumed}) {
    run->clock.advance_to(due);
    run->drive(false);
  }
  EXPECT_EQ(described(original.sink->events), (std::vector<std::string>{"3@25/20#2.1*"}));
  EXPECT_EQ(described(resumed.sink->events), described(original.sink->events));
}

TEST(EngineStateSnapshot, FinishedAndDoneCellsStaySo) {
  SmallRun original;
  original.finish();
  ASSERT_TRUE(original.cell("src").finished());
  ASSERT_TRUE(original.cell("sink").done());
  SmallRun resumed(7);
  resumed.restore(original.snapshot());
  EXPECT_TRUE(resumed.cell("src").finished());
  EXPECT_TRUE(resumed.cell("sum").done());
  EXPECT_TRUE(resumed.cell("sink").done());
  EXPECT_EQ(resumed.cell("sum").timer(), kNever);
}

// Cancellations: a case cancelled before the cut is still cancelled after it (its late events
// are dropped), remembered outputs are retracted after it.
TEST(EngineStateSnapshot, CancellationsAndRememberedOutputsSurvive) {
  auto declare = [](SmallRun& run) {
    run.execution->env().cancellations->declare_scope({"sum"}, {"sum"}, 4);
  };
  SmallRun original;
  declare(original);
  original.cell("src").run(3);
  original.drive(false);  // sum emitted 6 for {1, 2, 3}, and remembers it
  original.execution->env().cancellations->cancel(CaseId{WaveRoot{50, 5}, Value(), nullptr}, 0);
  original.drive(false);  // sum applies it
  std::vector<std::uint8_t> bytes = original.snapshot();

  SmallRun resumed(4);
  declare(resumed);
  resumed.restore(bytes);
  EXPECT_EQ(resumed.snapshot(), bytes);
  // Token 5 is of the cancelled wave: dropped on arrival, so the last window is {4, 6}.
  resumed.drive();
  EXPECT_EQ(resumed.cell("sum").stats().cancelled.get(), 1u);
  // The case of wave 3 is cancelled after the cut: sum retracts the output it remembers.
  resumed.execution->env().cancellations->cancel(CaseId{WaveRoot{30, 3}, Value(), nullptr}, 0);
  resumed.drive();
  std::vector<std::string> got = described(resumed.sink->events);
  EXPECT_NE(std::find(got.begin(), got.end(),
                      std::string("{\"retracted\":6}@30/30#") +
                          std::to_string((std::uint64_t{1} << 40) + 1)),
            got.end())
      << ::testing::PrintToString(got);
}

TEST(EngineStateSnapshot, ADamagedCellStateIsASnapshotError) {
  SmallRun original;
  original.cell("src").run(4);
  original.drive(false);
  SnapshotWriter out;
  original.cell("sum").snapshot_engine_state(out);
  std::vector<std::uint8_t> bytes = out.take_bytes();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    SmallRun resumed(5);
    std::span<const std::uint8_t> part(bytes.data(), n);
    SnapshotReader in(part);
    EXPECT_THROW(resumed.cell("sum").restore_engine_state(in), SnapshotError) << n << " bytes";
  }
  // Another actor's state does not fit: its time keeper numbers another actor's waves.
  SmallRun resumed(5);
  SnapshotReader in(bytes);
  EXPECT_THROW(resumed.cell("src").restore_engine_state(in), SnapshotError);
}

}  // namespace
}  // namespace cwf
