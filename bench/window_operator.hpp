// A window operator without a cell, for the window benchmarks: what it would send on (expired
// events) or ask for (wake-ups) is dropped.
#pragma once

#include <utility>

#include "runtime/execution/windowed_receiver.hpp"

namespace cwf_bench {

class WindowOperator final : public cwf::WindowedReceiver {
 public:
  using WindowedReceiver::WindowedReceiver;
  void push(cwf::Event&& e) { accept(std::move(e), 0); }

 protected:
  void expire(cwf::Event&&) override {}
  void count_late() override {}
  void wake_at(cwf::Timestamp) override {}
};

}  // namespace cwf_bench
