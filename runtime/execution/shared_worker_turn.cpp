#include "runtime/execution/shared_worker_turn.hpp"

#include <algorithm>
#include <thread>

namespace cwf {

namespace {
// Gives the worker back however the turn ends.
struct HeldWorker {
  SharedWorkers& workers;
  ~HeldWorker() { workers.give_back(); }
};
}  // namespace

ActorCell::CycleResult fire_on_shared_worker(ActorCell& cell, std::uint32_t max_firings,
                                             WorkerShare* share, std::uint64_t& waited) {
  waited = 0;
  if (!share) return cell.run(max_firings);
  SharedWorkers& workers = *share->workers;
  waited = workers.take(*share);
  HeldWorker held{workers};
  // A turn fires on the windows the cell had when it began, as cell.run does: windows that
  // arrive during the turn (from a producer on another worker, or the cell's own loop) wait
  // for the next one. Otherwise a consumer kept busy by a fast producer would hold the worker
  // for as long as the producer runs, and with it the stop, pause and progress checks of the
  // worker that makes them. (A source's turn is bounded by its grant.)
  if (!cell.is_source())
    max_firings =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(max_firings, cell.queue_length() + 1));
  ActorCell::CycleResult total;
  while (true) {
    ActorCell::CycleResult one = cell.run(1);
    total.firings += one.firings;
    total.has_more_work = one.has_more_work;
    if (!one.has_more_work || one.firings == 0 || total.firings >= max_firings) break;
    if (workers.outranked_by_member(*share)) std::this_thread::yield();
    if (workers.outranked(*share)) break;
  }
  return total;
}

}  // namespace cwf
