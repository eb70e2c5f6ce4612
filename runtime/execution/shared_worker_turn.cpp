#include "runtime/execution/shared_worker_turn.hpp"

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
