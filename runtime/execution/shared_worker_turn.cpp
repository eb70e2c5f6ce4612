#include "runtime/execution/shared_worker_turn.hpp"

#include <thread>

namespace cwf {

ActorCell::CycleResult fire_on_shared_worker(ActorCell& cell, std::uint32_t max_firings,
                                             WorkerShare* share, std::uint64_t& waited) {
  waited = 0;
  if (!share) return cell.run(max_firings);
  SharedWorkers& workers = *share->workers;
  waited = workers.take(*share);
  if (cell.is_source()) {
    // A source's firings are short, and one behind its schedule reports no more work after each
    // (its next time has passed, not come): its turn is taken whole.
    try {
      ActorCell::CycleResult whole = cell.run(max_firings);
      workers.give_back();
      return whole;
    } catch (...) {
      workers.give_back();
      throw;
    }
  }
  ActorCell::CycleResult total;
  try {
    while (true) {
      ActorCell::CycleResult one = cell.run(1);
      total.firings += one.firings;
      total.has_more_work = one.has_more_work;
      if (!one.has_more_work || one.firings == 0 || total.firings >= max_firings) break;
      if (workers.outranked_by_member(*share)) std::this_thread::yield();
      if (workers.outranked(*share)) {
        share->yields.fetch_add(1, std::memory_order_relaxed);
        break;
      }
    }
  } catch (...) {
    workers.give_back();
    throw;
  }
  workers.give_back();
  return total;
}

}  // namespace cwf
