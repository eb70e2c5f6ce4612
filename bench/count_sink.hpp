// A sink that counts the events it takes (the benchmarks that only need to know that everything
// arrived). Fired by one thread at a time; read after the run has ended.
#pragma once

#include <cstddef>

#include "runtime/actor/actor.hpp"

namespace cwf_bench {

class CountSink final : public cwf::Actor {
 public:
  CountSink() { add_input("in"); }
  void fire(cwf::FiringContext& context) override { count += context.window().size(); }
  std::size_t count = 0;
};

}  // namespace cwf_bench
