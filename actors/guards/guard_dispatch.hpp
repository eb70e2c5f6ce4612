// Inside a guard scheduler: sends each attempt to the actor of its event type, by the attempt's
// `event` field (`s_buy` and `~s_buy` both go to the actor of s_buy).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/actor/actor.hpp"

namespace cwf::guards {

class GuardDispatch final : public Actor {
 public:
  // One output per event (its name without parameters), in this order.
  explicit GuardDispatch(const std::vector<std::string>& events);
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::none; }

 private:
  std::map<std::string, int, std::less<>> outputs_;
};

}  // namespace cwf::guards
