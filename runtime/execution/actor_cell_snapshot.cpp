// A cell's engine state in a checkpoint (ActorCell::snapshot_engine_state / restore). The actor's
// own state is the actor's to write; the cell's scheduling bits are not state (a checkpoint is
// taken with every cell idle, and the director wakes cells again when the run resumes), nor are
// its routes, receivers' kinds, punctuation needs or remembering size, which the rebuilt workflow
// sets up again.
#include <string>
#include <vector>

#include "runtime/execution/actor_cell.hpp"
#include "runtime/execution/case_cancellations.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

void ActorCell::snapshot_engine_state(SnapshotWriter& out) const {
  out.begin_section("time_keeper");
  time_keeper_.snapshot(out);
  out.end_section();

  out.begin_section("cell");
  out.write_bool(finishing_ || finished());
  out.write_bool(done_.load(std::memory_order_acquire));
  out.write_timestamp(fire_again_at_);
  out.write_timestamp(wake_at_);
  auto requested = requested_firings_;
  out.write_u64(requested.size());
  for (; !requested.empty(); requested.pop())
    out.write_timestamp(requested.top());
  out.write_bool(requests_closed_);
  out.write_u64(cancellations_seen_);
  out.write_u64(remembered_.size());
  for (const Output& output : remembered_) {
    out.write_u64(static_cast<std::uint64_t>(output.port));
    out.write_event(output.event);
  }
  out.end_section();

  out.begin_section("input_origin");
  input_origin_.snapshot(out);
  out.end_section();

  for (std::size_t port = 0; port < receivers_.size(); ++port) {
    if (!receivers_[port]) continue;
    out.begin_section("port:" + actor_.inputs()[port].name);
    receivers_[port]->snapshot(out);
    out.end_section();
  }
}

void ActorCell::restore_engine_state(SnapshotReader& in) {
  in.begin_section("time_keeper");
  time_keeper_.restore(in);
  in.end_section();

  in.begin_section("cell");
  bool finished = in.read_bool("whether the actor finished");
  finishing_ = finished;
  finished_.store(finished, std::memory_order_release);
  done_.store(in.read_bool("whether the actor is done"), std::memory_order_release);
  fire_again_at_ = in.read_timestamp("a source's next firing time");
  wake_at_ = in.read_timestamp("the wake-up asked for");
  requested_firings_ = {};
  const std::size_t requested = in.read_count("the requested firings");
  for (std::size_t i = 0; i < requested; ++i)
    requested_firings_.push(in.read_timestamp("a requested firing's time"));
  requests_closed_ = in.read_bool("whether requests are closed");

  // The cases cancelled in this actor's scope are those of the run's cancellations it has seen
  // that reach it, in order.
  std::uint64_t seen = in.read_u64("the cancellations seen");
  std::size_t made = env_.cancellations ? env_.cancellations->count() : 0;
  if (seen > made)
    in.reject("the cancellations seen",
              std::to_string(seen) + " seen, " + std::to_string(made) + " made in the run");
  cancellations_seen_ = static_cast<std::size_t>(seen);
  cancelled_cases_.clear();
  for (std::size_t i = 0; i < cancellations_seen_; ++i) {
    const CaseCancellations::Entry& entry = env_.cancellations->entry(i);
    if (env_.cancellations->scope(entry.scope).reaches[id_])
      cancelled_cases_.push_back(&entry.what);
  }

  remembered_.clear();
  const std::size_t remembered = in.read_count("the remembered outputs");
  if (remembered > remember_)
    in.reject(
        "the remembered outputs",
        std::to_string(remembered) + " remembered, the actor keeps " + std::to_string(remember_));
  for (std::size_t i = 0; i < remembered; ++i) {
    std::uint64_t port = in.read_u64("a remembered output's port");
    if (port >= routes_.size()) in.reject("a remembered output's port", "no such output port");
    remembered_.push_back({static_cast<int>(port), in.read_event("a remembered output")});
  }
  in.end_section();

  in.begin_section("input_origin");
  input_origin_.restore(in);
  in.end_section();

  for (std::size_t port = 0; port < receivers_.size(); ++port) {
    if (!receivers_[port]) continue;
    in.begin_section("port:" + actor_.inputs()[port].name);
    receivers_[port]->restore(in);
    in.end_section();
  }
}

}  // namespace cwf
