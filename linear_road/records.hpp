// The records of Linear Road (Arasu et al., VLDB 2004): the input tuples and the four kinds of
// answer, with the field names of ../shared/linear_road/FORMAT.md. Times are seconds from the
// start of the simulation; every field is a small integer.
#pragma once

#include <cstdint>

namespace cwf::lr {

using Seconds = std::int32_t;

enum class InputType : std::int32_t {
  position_report = 0,
  account_balance = 2,
  daily_expenditure = 3,
  travel_time = 4,
};

// One input line: `type,time,carid,speed,xway,lane,dir,seg,pos,qid,sinit,send,dow,tod,day`.
// Unused fields are -1.
struct InputRecord {
  std::int32_t type = -1;
  Seconds time = -1;
  std::int32_t carid = -1;
  std::int32_t speed = -1;  // mph
  std::int32_t xway = -1;
  std::int32_t lane = -1;  // 0 entrance ramp, 1-3 travel lanes, 4 exit ramp
  std::int32_t dir = -1;   // 0: position increases, 1: it decreases
  std::int32_t seg = -1;   // floor(pos / 5280)
  std::int32_t pos = -1;   // feet
  std::int32_t qid = -1;
  std::int32_t sinit = -1;
  std::int32_t send = -1;
  std::int32_t dow = -1;
  std::int32_t tod = -1;
  std::int32_t day = -1;  // type 3: the day asked about (1 = yesterday)

  static constexpr int kFields = 15;
  friend bool operator==(const InputRecord&, const InputRecord&) = default;
};

constexpr std::int32_t kEntranceLane = 0;
constexpr std::int32_t kExitLane = 4;
constexpr std::int32_t kSegmentFeet = 5280;
constexpr std::int32_t kMaxSpeed = 100;  // mph

// Whether a position report's speed is one the segment statistics can use (0..100 mph). The
// input parser keeps a report whose speed is not (its position is still good), so every user
// of `speed` asks this first.
constexpr bool speed_in_range(std::int32_t speed) {
  return speed >= 0 && speed <= kMaxSpeed;
}

// Minute numbering of both validators: seconds 0-59 are minute 1.
constexpr std::int32_t minute_of(Seconds time) {
  return time / 60 + 1;
}

// Answers, one line each in the ValidateMTBQ line format so both validators' files compare.
// `emit` is the simulated time the answer left the system (input time + response delay).

// `0,carid,time,emit,lav,toll`
struct TollNotification {
  std::int32_t carid;
  Seconds time;
  Seconds emit;
  std::int32_t lav;
  std::int32_t toll;
  friend bool operator==(const TollNotification&, const TollNotification&) = default;
};

// `1,time,emit,xway,accseg,dir,carid`
struct AccidentAlert {
  Seconds time;
  Seconds emit;
  std::int32_t xway;
  std::int32_t accident_seg;
  std::int32_t dir;
  std::int32_t carid;
  friend bool operator==(const AccidentAlert&, const AccidentAlert&) = default;
};

// `2,time,emit,resulttime,qid,balance`
struct BalanceAnswer {
  Seconds time;
  Seconds emit;
  Seconds result_time;
  std::int32_t qid;
  std::int64_t balance;
  friend bool operator==(const BalanceAnswer&, const BalanceAnswer&) = default;
};

// `3,time,emit,qid,toll`
struct ExpenditureAnswer {
  Seconds time;
  Seconds emit;
  std::int32_t qid;
  std::int64_t toll;
  friend bool operator==(const ExpenditureAnswer&, const ExpenditureAnswer&) = default;
};

// Response-time limits (seconds from the input tuple's time to emit).
constexpr Seconds kTollAlertBalanceLimit = 5;
constexpr Seconds kExpenditureLimit = 10;

}  // namespace cwf::lr
