// Random streams through windowed receivers, for the property tests of window state
// (window_snapshot_test, window_reshape_test): a receiver that writes down everything it hands
// out or asks for, the operations a stream is made of, every kind of window the tests cover, and
// random streams that reach every kind of state (ready windows, deadlines, late events, expiries,
// events deleted as used, waves delivered out of order).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "runtime/execution/windowed_receiver.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "window_harness.hpp"

namespace cwf::testing {

inline std::string describe(const Event& e) {
  return e.token.to_json() + "@" + std::to_string(e.time) + "/" + e.wave.to_string();
}

// A windowed receiver without a cell that writes down everything it hands out or asks for, in
// order: windows (with all they say), expired events, late events, wake-up requests.
class Recorder : public WindowedReceiver {
 public:
  using WindowedReceiver::WindowedReceiver;

  void push(Event event, std::size_t producer = 0) { accept(std::move(event), producer); }
  // Takes every ready window. The actor fires on a window unless the sum of its values and its
  // size is a multiple of 4 (so that some windows are declined and, with delete_used, their
  // events stay), and consumes what it fires on.
  void take() {
    while (has_window()) {
      Window w = front_window();
      std::string line = "window g" + std::to_string(w.group);
      if (w.key) line += " key " + w.key->to_json();
      line += " t" + std::to_string(w.time);
      if (w.interval)
        line += " [" + std::to_string(w.interval->start) + "," + std::to_string(w.interval->end) +
                (w.interval->closed_at_end ? "]" : ")");
      line += " first " + std::to_string(w.first_seq) + (w.contiguous ? " contiguous" : "");
      line += w.wave ? " wave " + w.wave->to_string() : " no wave";
      std::int64_t sum = static_cast<std::int64_t>(w.events.size());
      for (std::size_t i = 0; i < w.events.size(); ++i) {
        line += " " + describe(w.events[i]) + "#" + std::to_string(w.seqs[i]);
        if (const Value* v = w.events[i].token.field("v")) sum += v->as_int();
      }
      log.push_back(line);
      bool fired = sum % 4 != 0;
      finish_window(fired, fired);
    }
  }

  std::vector<std::string> log;

 protected:
  void expire(Event&& event) override { log.push_back("expired " + describe(event)); }
  void count_late() override { log.push_back("late"); }
  void wake_at(Timestamp time) override { log.push_back("wake " + std::to_string(time)); }
};

inline std::vector<std::uint8_t> snapshot_of(const Receiver& receiver) {
  SnapshotWriter out;
  out.begin_section("receiver");
  receiver.snapshot(out);
  out.end_section();
  return out.take_bytes();
}

inline void restore_from(Receiver& receiver, const std::vector<std::uint8_t>& bytes) {
  SnapshotReader in(bytes);
  in.begin_section("receiver");
  receiver.restore(in);
  in.end_section();
  in.expect_end();
}

// ---- the operations a stream is made of ------------------------------------------------------

struct Op {
  enum Kind { push, advance, take } kind = push;
  Event event;
  std::size_t producer = 0;
  Timestamp now = 0;
  bool end_of_input = false;
};

inline void apply(Recorder& r, const Op& op) {
  switch (op.kind) {
    case Op::push:
      r.push(op.event, op.producer);
      break;
    case Op::advance:
      r.advance(op.now, op.end_of_input);
      break;
    case Op::take:
      r.take();
      break;
  }
}

struct Kind {
  std::string size, step;
  std::vector<std::string> group_by = {};
  bool delete_used = false;
  double timeout = 1.0;
  bool suppress_empty = false;
  // Wave windows: a second producer carries the same waves (a parallel branch that dropped
  // every item: it delivers each leaf as a punctuation), so waves complete through both.
  bool two_producers = false;
  Duration idle = 0;  // groups quiet this long end (WindowSpec::idle); 0: never

  WindowSpec spec() const {
    WindowSpec s = window(size, step);
    s.group_by = group_by;
    s.delete_used = delete_used;
    s.timeout = timeout;
    s.suppress_empty = suppress_empty;
    if (idle > 0) s.idle = idle;
    return s;
  }
  std::string name() const {
    return spec().describe() + (two_producers ? " from two producers" : "");
  }
};

inline std::unique_ptr<Recorder> build(const Kind& kind) {
  auto r = std::make_unique<Recorder>(kind.spec());
  if (kind.two_producers) {
    r->set_carried_sources(0, {0});
    r->set_carried_sources(1, {0});
  }
  return r;
}

// A random stream: tokens {k, v} in three groups, at times that mostly follow the clock but are
// sometimes behind it (late for time windows), in waves of one to three leaves delivered out of
// order across the last few waves, some leaves dropped upstream (punctuations); the clock
// advances between batches (formation timeouts), and the input ends at the close.
inline std::vector<Op> random_stream(std::uint32_t seed, bool waves, bool two_producers) {
  std::mt19937 rng(seed);
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  std::vector<Op> ops;
  Timestamp now = 0;
  int v = 0;
  std::uint64_t sequence = 1;
  struct Leaf {
    WaveTag tag;
    bool dropped;
  };
  std::deque<std::vector<Leaf>> pending;  // per wave, leaves not yet delivered
  auto event_time = [&] {
    int r = pick(10);
    return r < 6 ? now : r < 9 ? now - pick(8) : now - 20 - pick(20);
  };
  auto push = [&](Event e, std::size_t producer) {
    Op op;
    op.kind = Op::push;
    op.event = std::move(e);
    op.producer = producer;
    ops.push_back(std::move(op));
  };
  auto token = [&] {
    static const char* const kKeys[] = {"a", "b", "c"};
    return Value::record({{"k", kKeys[pick(3)]}, {"v", v++}});
  };
  const int batches = 25 + pick(15);
  for (int b = 0; b < batches; ++b) {
    for (int n = 1 + pick(3); n > 0; --n) {
      if (!waves) {
        Timestamp t = event_time();
        if (pick(12) == 0)  // a punctuation: no data, whatever its time
          push(Event{Value(), t, WaveTag(t, sequence++).child(1, true).as_punctuation()}, 0);
        else
          push(Event{token(), t, WaveTag(t, sequence++)}, 0);
        continue;
      }
      if (pending.empty() || pick(3) == 0) {
        Timestamp t = event_time();
        WaveTag root(t, sequence++);
        std::uint32_t of = 1 + static_cast<std::uint32_t>(pick(3));
        std::vector<Leaf> leaves;
        for (std::uint32_t i = 1; i <= of; ++i)
          leaves.push_back({root.child(i, i == of), pick(4) == 0});
        pending.push_back(std::move(leaves));
      }
      std::size_t w = static_cast<std::size_t>(
          pick(static_cast<int>(std::min<std::size_t>(pending.size(), 3))));
      std::vector<Leaf>& leaves = pending[w];
      std::size_t i = static_cast<std::size_t>(pick(static_cast<int>(leaves.size())));
      Leaf leaf = leaves[i];
      leaves.erase(leaves.begin() + static_cast<std::ptrdiff_t>(i));
      Timestamp t = std::max<Timestamp>(0, leaf.tag.root_time() + pick(3));
      if (leaf.dropped)
        push(Event{Value(), t, leaf.tag.as_punctuation()}, 0);
      else
        push(Event{token(), t, leaf.tag}, 0);
      if (two_producers) push(Event{Value(), t, leaf.tag.as_punctuation()}, 1);
      if (leaves.empty()) pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(w));
    }
    now += pick(6);
    if (pick(8) == 0) now += 40;  // the stream stalls: formation timeouts pass
    ops.push_back(Op{Op::advance, {}, 0, now, false});
    ops.push_back(Op{Op::take});
  }
  ops.push_back(Op{Op::advance, {}, 0, now + 5, true});
  ops.push_back(Op{Op::take});
  return ops;
}

// Every kind the window tests cover.
inline std::vector<Kind> every_kind() {
  const std::vector<std::string> by_key = {"/k"};
  return {
      // token steps and sizes
      {"3 tokens", "3 tokens"},
      {"3 tokens", "1 token"},
      {"2 tokens", "3 tokens"},  // gaps: events between windows expire
      {"3 tokens", "2 tokens", by_key},
      {"3 tokens", "2 tokens", {}, true},
      {"3 tokens", ""},  // no step: looks back
      {"3 tokens", "", by_key, true},
      {"", "2 tokens"},  // unbounded
      {"", "2 tokens", {}, true},
      {"", ""},
      {"", "", {}, true},
      // time steps and sizes
      {"10 ns", "10 ns"},
      {"10 ns", "5 ns"},
      {"10 ns", "5 ns", by_key},
      {"10 ns", "5 ns", {}, true},
      {"10 ns", "5 ns", {}, false, 0.0},
      {"10 ns", "5 ns", {}, false, 2.0, true},
      {"10 ns", "10 ns", by_key, false, 1.0, true},
      {"10 ns", ""},          // looks back from every event
      {"10 ns", "2 tokens"},  // the last 10 ns, every 2 tokens
      {"10 ns", "2 tokens", by_key, true},
      {"3 tokens", "10 ns"},
      {"3 tokens", "10 ns", {}, false, 1.0, true},
      {"", "10 ns"},
      {"", "10 ns", by_key, true},
      // groups that end when quiet (idle): the stream stalls now and then, so they do
      {"3 tokens", "1 token", by_key, false, 1.0, false, false, 15},
      {"3 tokens", "2 tokens", by_key, true, 1.0, false, false, 15},
      {"10 ns", "5 ns", by_key, false, 1.0, false, false, 15},
      {"10 ns", "10 ns", by_key, false, 1.0, true, false, 15},
      {"10 ns", "", by_key, false, 1.0, false, false, 15},
      {"3 tokens", "10 ns", by_key, false, 1.0, false, false, 15},
      {"", "", by_key, true, 1.0, false, false, 15},
      // wave steps and sizes
      {"1 wave", "1 wave"},
      {"2 waves", "1 wave"},
      {"1 wave", "2 waves", by_key},
      {"1 wave", "1 wave", {}, true},
      {"3 tokens", "2 waves"},
      {"2 waves", ""},
      {"10 ns", "1 wave"},
      {"1 wave", "10 ns"},
      {"", "1 wave", {}, true},
      {"1 wave", "1 wave", {}, false, 1.0, false, true},
      {"2 waves", "1 wave", by_key, false, 1.0, false, true},
  };
}

}  // namespace cwf::testing
