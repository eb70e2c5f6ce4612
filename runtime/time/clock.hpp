// Time as the workflow sees it. Directors, pacing sources and (later) time windows ask the clock,
// never the OS, so the same workflow runs in real time, replayed k times faster, or on virtual
// time driven by the data (deterministic tests and as-fast-as-possible replay).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string_view>

#include "runtime/time/wave_tag.hpp"

namespace cwf {

using Duration = std::int64_t;  // nanoseconds

constexpr Duration kMicrosecond = 1'000;
constexpr Duration kMillisecond = 1'000'000;
constexpr Duration kSecond = 1'000'000'000;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Timestamp now() const = 0;
  // Block the calling thread until now() >= t (returns at once for virtual time, after moving
  // the clock forward).
  virtual void sleep_until(Timestamp t) = 0;
  // Wall-clock nanoseconds to wait before now() reaches t; 0 when it already has.
  virtual Duration real_delay_until(Timestamp t) const = 0;
  // Virtual clocks follow the data: the director reports event times it has seen.
  virtual void observe(Timestamp) {}
  virtual std::string_view name() const = 0;
};

// Wall time in nanoseconds since the Unix epoch.
class RealClock final : public Clock {
 public:
  Timestamp now() const override;
  void sleep_until(Timestamp t) override;
  Duration real_delay_until(Timestamp t) const override;
  std::string_view name() const override { return "real"; }
};

// Time that only moves when told to (advance_to, or observe() of a later event time).
class VirtualClock final : public Clock {
 public:
  explicit VirtualClock(Timestamp start = 0) : now_(start) {}
  Timestamp now() const override { return now_.load(std::memory_order_acquire); }
  void sleep_until(Timestamp t) override { advance_to(t); }
  Duration real_delay_until(Timestamp) const override { return 0; }
  void observe(Timestamp t) override { advance_to(t); }
  // Never moves backwards.
  void advance_to(Timestamp t);
  std::string_view name() const override { return "virtual"; }

 private:
  std::atomic<Timestamp> now_;
};

// Replay time: starts at `origin` when created and runs `speedup` times faster than wall time.
class ScaledClock final : public Clock {
 public:
  ScaledClock(Timestamp origin, double speedup);
  Timestamp now() const override;
  void sleep_until(Timestamp t) override;
  Duration real_delay_until(Timestamp t) const override;
  double speedup() const { return speedup_; }
  std::string_view name() const override { return "scaled"; }
  // Goes on from `time` as of now (a resumed run), at the same speed. Not while others read it.
  void restart_at(Timestamp time);

 private:
  Timestamp origin_;
  double speedup_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace cwf
