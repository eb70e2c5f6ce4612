#include "runtime/time/clock.hpp"

#include <stdexcept>
#include <thread>

namespace cwf {

Timestamp RealClock::now() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Duration RealClock::real_delay_until(Timestamp t) const {
  Duration d = t - now();
  return d > 0 ? d : 0;
}

void RealClock::sleep_until(Timestamp t) {
  if (Duration d = real_delay_until(t); d > 0)
    std::this_thread::sleep_for(std::chrono::nanoseconds(d));
}

void VirtualClock::advance_to(Timestamp t) {
  Timestamp current = now_.load(std::memory_order_relaxed);
  while (t > current && !now_.compare_exchange_weak(current, t, std::memory_order_acq_rel)) {
  }
}

void ScaledClock::restart_at(Timestamp time) {
  origin_ = time;
  started_ = std::chrono::steady_clock::now();
}

ScaledClock::ScaledClock(Timestamp origin, double speedup)
    : origin_(origin), speedup_(speedup), started_(std::chrono::steady_clock::now()) {
  if (!(speedup > 0)) throw std::invalid_argument("clock speed-up must be positive");
}

Timestamp ScaledClock::now() const {
  auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now() - started_)
                     .count();
  return origin_ + static_cast<Timestamp>(static_cast<double>(elapsed) * speedup_);
}

Duration ScaledClock::real_delay_until(Timestamp t) const {
  Duration d = t - now();
  return d > 0 ? static_cast<Duration>(static_cast<double>(d) / speedup_) : 0;
}

void ScaledClock::sleep_until(Timestamp t) {
  if (Duration d = real_delay_until(t); d > 0)
    std::this_thread::sleep_for(std::chrono::nanoseconds(d));
}

}  // namespace cwf
