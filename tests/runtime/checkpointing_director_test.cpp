// Checkpoints taken inside a run under every director (in process, so that ThreadSanitizer sees
// the hold, drain and write steps): each is written while the workflow is drained and no actor
// fires, and a run resumed from any of them ends with the output of the uninterrupted run.
//
// The source lets its events out in phases, each only after one more checkpoint was written, so
// that checkpoints land between phases with events inside windows, under every director and
// however fast the machine, and the run cannot end before them.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/execution/execution.hpp"
#include "runtime/execution/run_checkpoint.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "test_scheduler.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

constexpr std::int64_t kEvents = 997;  // not a multiple of the window: one ends partly filled
constexpr std::int64_t kPhases = 5;
constexpr std::int64_t kWindow = 10;  // tokens, as declared in build()

// Emits 0, 1, ... kEvents-1, one per firing, phase p (a fifth of them) only once `written`
// reaches p; keeps firing without output until every phase is out. Its position is its state.
class PhasedSource : public Actor {
 public:
  // `at_gate`: set once every event the gate allows is out.
  explicit PhasedSource(const std::atomic<int>* written, std::atomic<bool>* at_gate = nullptr)
      : written_(written), at_gate_(at_gate) {
    add_output("out");
  }
  void fire(FiringContext& context) override {
    // Resumed, or checkpoints not coming (the test then fails on their count, not by hanging):
    // everything.
    const bool gated = written_ && std::chrono::steady_clock::now() < give_up_;
    const std::int64_t allowed = gated ? (written_->load() + 1) * kEvents / kPhases : kEvents;
    if (next_ < kEvents && next_ < allowed)
      context.emit(Value(next_++));
    else if (at_gate_ && gated)
      at_gate_->store(true);
  }
  bool postfire(FiringContext&) override { return next_ < kEvents; }
  std::int64_t emitted() const { return next_; }
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext&) override { out.write_i64(next_); }
  void restore_state(SnapshotReader& in, ActorContext&) override { next_ = in.read_i64(); }

 private:
  const std::atomic<int>* written_;
  std::atomic<bool>* at_gate_;
  std::chrono::steady_clock::time_point give_up_ =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::int64_t next_ = 0;
};

// Sums each window it is fired on (a tumbling window of kWindow tokens on its input).
class WindowSum : public Actor {
 public:
  WindowSum() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    std::int64_t sum = 0;
    for (const Event& e : context.window())
      sum += e.token.as_int();
    context.emit(Value(sum));
  }
  Checkpointing checkpointing() const override { return Checkpointing::none; }
};

// Keeps what it receives, in order; its list is its state.
class KeptSink : public Actor {
 public:
  KeptSink() { add_input("in"); }
  void fire(FiringContext& context) override {
    for (const Event& e : context.window())
      sums.push_back(e.token.as_int());
  }
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext&) override {
    out.write_u64(sums.size());
    for (std::int64_t s : sums)
      out.write_i64(s);
  }
  void restore_state(SnapshotReader& in, ActorContext&) override {
    sums.assign(in.read_count(), 0);
    for (std::int64_t& s : sums)
      s = in.read_i64();
  }
  std::vector<std::int64_t> sums;
};

struct Built {
  std::unique_ptr<Workflow> workflow;
  PhasedSource* source = nullptr;
  KeptSink* sink = nullptr;
};

Built build(const std::atomic<int>* written, std::atomic<bool>* at_gate = nullptr) {
  Built b;
  b.workflow = std::make_unique<Workflow>("phased");
  auto source = std::make_unique<PhasedSource>(written, at_gate);
  b.source = source.get();
  b.workflow->add("numbers", std::move(source));
  b.workflow->emplace<WindowSum>("sums");
  auto sink = std::make_unique<KeptSink>();
  b.sink = sink.get();
  b.workflow->add("kept", std::move(sink));
  b.workflow->connect("numbers", "sums");
  b.workflow->connect("sums", "kept");
  b.workflow->declare_window("sums", "in", testing::window("10 tokens", "10 tokens"));
  return b;
}

// The sums of the windows of 0..kEvents-1, the last partly filled one included (the end of
// input hands it over).
std::vector<std::int64_t> expected_sums() {
  std::vector<std::int64_t> sums;
  for (std::int64_t first = 0; first < kEvents; first += kWindow) {
    std::int64_t sum = 0;
    for (std::int64_t i = first; i < std::min(first + kWindow, kEvents); ++i)
      sum += i;
    sums.push_back(sum);
  }
  return sums;
}

class CheckpointingDirectors : public ::testing::TestWithParam<std::string> {};

TEST_P(CheckpointingDirectors, EachCheckpointIsDrainedAndResumingFromAnyGivesTheSameOutput) {
  std::atomic<int> written{0};
  Built first = build(&written);
  std::vector<std::vector<std::uint8_t>> payloads;
  // Drained: every event the source let out went through the window to the sink, but for the
  // ones of a window still filling. (execution.drained() itself is what the director checked.)
  std::vector<std::pair<std::int64_t, std::int64_t>> seen;  // (emitted, windows summed)
  RunCheckpointing checkpointing;
  checkpointing.write = [&](Execution& execution) {
    seen.emplace_back(first.source->emitted(), first.sink->sums.size());
    payloads.push_back(write_run_state(execution));
    written.fetch_add(1);
  };
  RunOptions options;
  options.checkpoint_every = 1;  // as often as the workflow drains
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 4);
  RunSummary summary = run_workflow(*first.workflow, *director, clock, options, {}, checkpointing);
  EXPECT_EQ(summary.incomplete(), 0u);
  EXPECT_EQ(first.sink->sums, expected_sums());
  for (const auto& [emitted, summed] : seen) {
    // Once the last event is out, the end of input may have handed the partly filled window over.
    const std::int64_t at_most =
        emitted == kEvents ? (kEvents + kWindow - 1) / kWindow : emitted / kWindow;
    EXPECT_GE(summed, emitted / kWindow) << emitted << " events let out";
    EXPECT_LE(summed, at_most) << emitted << " events let out";
  }
  // One per phase at least: the source waits for them.
  ASSERT_GE(payloads.size(), static_cast<std::size_t>(kPhases - 1));

  // Ten of them, spread from the first to the last.
  for (std::size_t i = 0; i < payloads.size();
       i += std::max<std::size_t>(1, payloads.size() / 10)) {
    SCOPED_TRACE("resumed from checkpoint " + std::to_string(i + 1) + " of " +
                 std::to_string(payloads.size()));
    Built resumed = build(nullptr);
    RunCheckpointing restore;
    restore.restore = [&](Execution& execution) { restore_run_state(execution, payloads[i]); };
    VirtualClock resumed_clock;
    auto resumed_director = testing::make_test_director(GetParam(), 4);
    run_workflow(*resumed.workflow, *resumed_director, resumed_clock, {}, {}, restore);
    EXPECT_EQ(resumed.sink->sums, expected_sums());
  }
}

// A server shutting down suspends its workflows (RunOptions::suspend_requested): the run ends at
// a checkpoint with its last window still filling, closes nothing early, and the run resumed
// from that checkpoint ends with the uninterrupted output.
TEST_P(CheckpointingDirectors, ASuspendedRunEndsAtItsCheckpointAndGoesOnFromIt) {
  const std::atomic<int> never{0};  // the gate stays at the first phase
  std::atomic<bool> suspend{false};
  Built first = build(&never, &suspend);
  std::vector<std::vector<std::uint8_t>> payloads;
  RunCheckpointing checkpointing;
  checkpointing.write = [&](Execution& execution) {
    payloads.push_back(write_run_state(execution));
  };
  RunOptions options;
  options.checkpoint_every = 1000 * kSecond;  // only the suspension's
  options.suspend_requested = &suspend;
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 4);
  RunSummary summary = run_workflow(*first.workflow, *director, clock, options, {}, checkpointing);
  EXPECT_TRUE(summary.suspended);
  ASSERT_EQ(payloads.size(), 1u);
  // The first phase let out 199 events: 19 windows summed, the 20th holds 9 and stays open.
  const std::vector<std::int64_t> all = expected_sums();
  constexpr std::int64_t kFirstPhase = kEvents / kPhases;
  EXPECT_EQ(first.source->emitted(), kFirstPhase);
  EXPECT_EQ(first.sink->sums,
            std::vector<std::int64_t>(all.begin(), all.begin() + kFirstPhase / kWindow));
  EXPECT_EQ(summary.incomplete(), 0u);

  Built resumed = build(nullptr);
  RunCheckpointing restore;
  restore.restore = [&](Execution& execution) { restore_run_state(execution, payloads[0]); };
  VirtualClock resumed_clock;
  auto resumed_director = testing::make_test_director(GetParam(), 4);
  RunSummary rest =
      run_workflow(*resumed.workflow, *resumed_director, resumed_clock, {}, {}, restore);
  EXPECT_FALSE(rest.suspended);
  EXPECT_EQ(resumed.sink->sums, all);
}

// A suspension whose checkpoint cannot be written is a stop: the run does not end claiming a
// checkpoint that is not there, and what the sources let out is processed to the end.
TEST_P(CheckpointingDirectors, ASuspensionWhoseCheckpointCannotBeWrittenStopsTheRun) {
  const std::atomic<int> never{0};
  std::atomic<bool> suspend{false};
  Built first = build(&never, &suspend);
  int attempts = 0;
  RunCheckpointing checkpointing;
  checkpointing.write = [&](Execution&) {
    ++attempts;
    throw std::runtime_error("the disk is full");
  };
  RunOptions options;
  options.checkpoint_every = 1000 * kSecond;
  options.suspend_requested = &suspend;
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 4);
  RunSummary summary = run_workflow(*first.workflow, *director, clock, options, {}, checkpointing);
  EXPECT_FALSE(summary.suspended);
  EXPECT_EQ(attempts, 1);
  const std::int64_t let_out = first.source->emitted();
  EXPECT_EQ(first.sink->sums.size(), static_cast<std::size_t>((let_out + kWindow - 1) / kWindow))
      << "stopped: the window still filling was closed";
}

// Without checkpoints a suspension is a stop: the sources stop and what they let out is
// processed to the end, the window still filling included.
TEST_P(CheckpointingDirectors, ASuspensionWithoutCheckpointsStopsTheRun) {
  const std::atomic<int> never{0};
  std::atomic<bool> suspend{false};
  Built first = build(&never, &suspend);
  RunOptions options;
  options.suspend_requested = &suspend;
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 4);
  RunSummary summary = run_workflow(*first.workflow, *director, clock, options);
  EXPECT_FALSE(summary.suspended);
  const std::int64_t let_out = first.source->emitted();
  EXPECT_GE(let_out, kEvents / kPhases);
  EXPECT_EQ(first.sink->sums.size(), static_cast<std::size_t>((let_out + kWindow - 1) / kWindow));
}

INSTANTIATE_TEST_SUITE_P(Every, CheckpointingDirectors,
                         ::testing::ValuesIn(testing::kTestDirectors));

}  // namespace
}  // namespace cwf
