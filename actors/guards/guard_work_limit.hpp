// A bound on the work of computing guards. Guard synthesis is exponential in the events of a
// dependency and in the dependencies that share an event (the guard of `e` under `~e + a1 + b1`,
// …, `~e + an + bn` is a sum of 2^n terms), so a dependency file of a few lines can ask for hours
// of work. While a GuardWorkLimit exists, the guard operations of its thread count their steps
// (term products, term comparisons, state combinations tried) and throw GuardTooComplex past
// the limit: the user hears what is too large instead of waiting.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cwf::guards {

// The steps allowed for all the guards of one workflow (DependencySet::guard): a second of the
// release build's time at most, a tenth for most shapes of dependencies.
inline constexpr std::uint64_t kWorkflowGuardSteps = 50'000'000;

class GuardTooComplex : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class GuardWorkLimit {
 public:
  // `used` steps count against `limit` from the start; `what` names the computation in the
  // error, e.g. "the guard of 'e'".
  GuardWorkLimit(std::uint64_t limit, std::uint64_t used, std::string what);
  ~GuardWorkLimit();
  GuardWorkLimit(const GuardWorkLimit&) = delete;
  GuardWorkLimit& operator=(const GuardWorkLimit&) = delete;

  // Including those counted from the start.
  std::uint64_t steps_used() const { return used_; }

  // Counts `steps` against the innermost limit of this thread (none: nothing to count); throws
  // GuardTooComplex when they exceed it.
  static void charge(std::uint64_t steps);

 private:
  std::uint64_t limit_;
  std::uint64_t used_;
  std::string what_;
  GuardWorkLimit* outer_;
};

}  // namespace cwf::guards
