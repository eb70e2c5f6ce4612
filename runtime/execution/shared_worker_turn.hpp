// Firing a cell on one of the workers that several workflows share (SharedWorkers): what both
// directors do with a grant when their run draws on shared workers.
#pragma once

#include <cstdint>

#include "runtime/execution/actor_cell.hpp"
#include "runtime/execution/shared_workers.hpp"

namespace cwf {

// Takes one of `share`'s workers, fires `cell` on up to `max_firings` windows (no more than it
// had when the turn began) and gives the worker back. One window at a time: between two, the turn
// ends early (the cell then reports more work) when a more important workflow waits for a worker,
// and yields the core while a more important workflow is a member. Without a share, just
// cell.run(max_firings). `waited` gets the time spent waiting for the worker (ns), which is not
// the cell's cost.
ActorCell::CycleResult fire_on_shared_worker(ActorCell& cell, std::uint32_t max_firings,
                                             WorkerShare* share, std::uint64_t& waited);

}  // namespace cwf
