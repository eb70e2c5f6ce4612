#include "actors/guards/guard_work_limit.hpp"

namespace cwf::guards {

namespace {
thread_local GuardWorkLimit* innermost = nullptr;
}  // namespace

GuardWorkLimit::GuardWorkLimit(std::uint64_t limit, std::uint64_t used, std::string what)
    : limit_(limit), used_(used), what_(std::move(what)), outer_(innermost) {
  innermost = this;
}

GuardWorkLimit::~GuardWorkLimit() {
  innermost = outer_;
}

void GuardWorkLimit::charge(std::uint64_t steps) {
  GuardWorkLimit* limit = innermost;
  if (!limit) return;
  limit->used_ += steps;
  if (limit->used_ > limit->limit_)
    throw GuardTooComplex("computing " + limit->what_ + " takes more than " +
                          std::to_string(limit->limit_) +
                          " steps: the dependencies are too large (too many events in one "
                          "dependency, or too many dependencies on one event); split them into "
                          "smaller ones");
}

}  // namespace cwf::guards
