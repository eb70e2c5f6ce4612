// Fuzzes the restoring of receivers from a checkpoint (Receiver::restore: a FIFO queue, and
// windowed receivers of every kind of step and size, grouped or not, their groups, wave
// completion state, ready windows and deadlines). The first byte chooses the receiver, the rest
// is what its snapshot would be. A restored receiver is written again and the bytes restored into
// a fresh receiver of the same kind, which must write exactly the same bytes: restoring keeps
// everything it accepted.
// A SnapshotError for bytes that are damaged or describe a state the receiver cannot be in is
// expected; a crash, undefined behaviour, a leak, a hang or any other exception is a finding.
//
// `fuzz_window_state -print_seeds=1` prints the seeds of fuzz/seeds/window_state.txt instead: one
// hex line per kind, a receiver fed a short stream, with windows ready and waves in progress.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fuzz/seed_printing.hpp"
#include "runtime/execution/receiver.hpp"
#include "runtime/execution/windowed_receiver.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/windows/window_spec.hpp"

namespace {

struct Kind {
  const char* size;
  const char* step;
  bool grouped;
  bool delete_used;
  cwf::Duration idle = 0;  // groups quiet this long end (WindowSpec::idle)
};

// A FIFO queue (kind 0), then windows of every step and size.
constexpr Kind kKinds[] = {
    {nullptr, nullptr, false, false},        {"3 tokens", "2 tokens", true, false},
    {"3 tokens", "", false, true},           {"", "2 tokens", false, true},
    {"10 ns", "5 ns", true, false},          {"10 ns", "2 tokens", false, false},
    {"3 tokens", "10 ns", true, true},       {"2 waves", "1 wave", true, false},
    {"1 wave", "10 ns", false, true},        {"3 tokens", "2 waves", false, false},
    {"2 tokens", "1 token", true, false, 6}, {"10 ns", "5 ns", true, false, 6},
};
constexpr std::size_t kKindCount = sizeof kKinds / sizeof kKinds[0];

// A receiver of the kind without a cell: what it would send on or ask for is dropped.
class Quiet final : public cwf::WindowedReceiver {
 public:
  using WindowedReceiver::WindowedReceiver;
  void push(cwf::Event event, std::size_t producer) { accept(std::move(event), producer); }

 protected:
  void expire(cwf::Event&&) override {}
  void count_late() override {}
  void wake_at(cwf::Timestamp) override {}
};

struct Built {
  std::unique_ptr<cwf::Receiver> receiver;
  std::vector<std::unique_ptr<cwf::ReceiverProducer>> producers;
};

Built build(std::size_t kind) {
  Built built;
  const Kind& k = kKinds[kind];
  if (!k.size) {
    built.receiver = std::make_unique<cwf::FifoReceiver>();
  } else {
    cwf::WindowSpec spec;
    if (*k.size) spec.size = cwf::parse_window_extent(k.size);
    if (*k.step) spec.step = cwf::parse_window_extent(k.step);
    if (k.grouped) spec.group_by = {"/k"};
    spec.delete_used = k.delete_used;
    if (k.idle > 0) spec.idle = k.idle;
    built.receiver = std::make_unique<Quiet>(spec);
  }
  // Two connections into the port, both carrying the waves of source 0.
  for (std::size_t p = 0; p < 2; ++p) {
    built.producers.push_back(built.receiver->make_producer());
    built.receiver->set_carried_sources(p, {0});
  }
  return built;
}

std::vector<std::uint8_t> snapshot_of(const cwf::Receiver& receiver) {
  cwf::SnapshotWriter out;
  receiver.snapshot(out);
  return out.take_bytes();
}

// A receiver of the kind fed a short stream, with windows ready and waves in progress.
std::vector<std::uint8_t> seed_of(std::size_t kind) {
  Built built = build(kind);
  cwf::Receiver& r = *built.receiver;
  for (int i = 0; i < 12; ++i) {
    cwf::Value token = cwf::Value::record({{"k", i % 3 == 0 ? "a" : "b"}, {"v", i}});
    cwf::WaveTag root((i / 2) * 6, static_cast<std::uint64_t>(i / 2) + 1);  // two leaves each
    cwf::Event event{token, i * 3, root.child(static_cast<std::uint32_t>(i % 2) + 1, i % 2 == 1)};
    if (auto* quiet = dynamic_cast<Quiet*>(&r))
      quiet->push(std::move(event), static_cast<std::size_t>(i % 2));
    else {
      r.enqueue(std::move(event), *built.producers[0]);
      r.drain();
    }
    if (i == 7) r.advance(i * 3, false);
    if (i == 5 && r.has_window()) r.finish_window(true, true);
  }
  return snapshot_of(r);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t kind = data[0] % kKindCount;
  const std::span<const std::uint8_t> bytes(data + 1, size - 1);
  Built first = build(kind);
  try {
    cwf::SnapshotReader in(bytes);
    first.receiver->restore(in);
  } catch (const cwf::SnapshotError&) {
    return 0;
  }
  const std::vector<std::uint8_t> written = snapshot_of(*first.receiver);
  Built second = build(kind);
  cwf::SnapshotReader again(written);
  second.receiver->restore(again);  // a SnapshotError here is a finding too: it escapes
  if (snapshot_of(*second.receiver) != written) {
    std::fprintf(stderr, "a restored receiver (kind %zu) wrote other bytes once restored again\n",
                 kind);
    std::abort();
  }
  return 0;
}

// -print_seeds=1: the seed lines, for fuzz/seeds/window_state.txt.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  cwf::fuzz::print_seeds_if_asked(*argc, *argv, kKindCount, seed_of);
  return 0;
}
