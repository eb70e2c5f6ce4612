// An order-independent fingerprint of a stream of answers, per answer type: the count, and the
// sum and xor of a 64-bit hash of every answer without its `emit` (which depends on timing).
// Two implementations gave the same answers, in whatever order, exactly when their digests are
// equal (up to a hash collision, about 2^-64): how a rating run compares millions of answers of
// the workflow and the reference without keeping them. It also counts late answers (emit - time
// over the limit of the type), exactly as the validator's late check does.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "linear_road/answer_sink.hpp"
#include "linear_road/records.hpp"
#include "runtime/values/mix64.hpp"

namespace cwf::lr {

class AnswerDigest final : public AnswerSink {
 public:
  struct Type {
    std::uint64_t count = 0;
    std::uint64_t sum = 0;
    std::uint64_t xored = 0;
    std::uint64_t late = 0;
    bool operator==(const Type& other) const {
      return count == other.count && sum == other.sum && xored == other.xored;
    }
  };

  void toll(const TollNotification& a) override {
    add(0, a.time, a.emit, {a.carid, a.lav, a.toll, 0});
  }
  void alert(const AccidentAlert& a) override {
    add(1, a.time, a.emit, {a.xway, a.accident_seg, a.dir, a.carid});
  }
  void balance(const BalanceAnswer& a) override {
    add(2, a.time, a.emit, {a.result_time, a.qid, a.balance, 0});
  }
  void expenditure(const ExpenditureAnswer& a) override {
    add(3, a.time, a.emit, {a.qid, a.toll, 0, 0});
  }

  const std::array<Type, 4>& types() const { return types_; }
  // Late answers of every type; readable from any thread while answers come in.
  std::uint64_t late() const { return late_.load(std::memory_order_relaxed); }
  // Same answers per type (late counts aside).
  bool same_answers(const AnswerDigest& other) const { return types_ == other.types_; }

 private:
  static std::uint64_t mix(std::uint64_t x) { return mix64(x); }
  void add(int type, Seconds time, Seconds emit, std::array<std::int64_t, 4> fields) {
    std::uint64_t h = mix(static_cast<std::uint64_t>(type) + 0x9e3779b97f4a7c15ULL);
    h = mix(h ^ static_cast<std::uint64_t>(time));
    for (std::int64_t f : fields)
      h = mix(h ^ static_cast<std::uint64_t>(f));
    Type& t = types_[static_cast<std::size_t>(type)];
    ++t.count;
    t.sum += h;
    t.xored ^= h;
    const Seconds limit = type == 3 ? kExpenditureLimit : kTollAlertBalanceLimit;
    if (emit - time > limit) {
      ++t.late;
      late_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  std::array<Type, 4> types_{};
  std::atomic<std::uint64_t> late_{0};
};

}  // namespace cwf::lr
