// Building blocks for tests of the Linear Road reference: records made by hand and a sink that
// keeps every answer.
#pragma once

#include <vector>

#include "linear_road/answer_sink.hpp"
#include "linear_road/historical_toll_table.hpp"
#include "linear_road/records.hpp"
#include "linear_road/reference.hpp"

namespace cwf::lr::testing {

struct CollectedAnswers : AnswerSink {
  std::vector<TollNotification> tolls;
  std::vector<AccidentAlert> alerts;
  std::vector<BalanceAnswer> balances;
  std::vector<ExpenditureAnswer> expenditures;

  void toll(const TollNotification& a) override { tolls.push_back(a); }
  void alert(const AccidentAlert& a) override { alerts.push_back(a); }
  void balance(const BalanceAnswer& a) override { balances.push_back(a); }
  void expenditure(const ExpenditureAnswer& a) override { expenditures.push_back(a); }

  const TollNotification* toll_of(std::int32_t carid, Seconds time) const {
    for (const auto& t : tolls)
      if (t.carid == carid && t.time == time) return &t;
    return nullptr;
  }
  const AccidentAlert* alert_of(std::int32_t carid, Seconds time) const {
    for (const auto& a : alerts)
      if (a.carid == carid && a.time == time) return &a;
    return nullptr;
  }
};

struct Place {
  std::int32_t seg = 10;
  std::int32_t lane = 1;
  std::int32_t dir = 0;
  std::int32_t pos = -1;  // -1: 100 ft into the segment
  std::int32_t xway = 0;
};

inline InputRecord position_report(Seconds time, std::int32_t carid, std::int32_t speed,
                                   Place place = {}) {
  InputRecord r;
  r.type = 0;
  r.time = time;
  r.carid = carid;
  r.speed = speed;
  r.xway = place.xway;
  r.lane = place.lane;
  r.dir = place.dir;
  r.seg = place.seg;
  r.pos = place.pos >= 0 ? place.pos : place.seg * kSegmentFeet + 100;
  return r;
}

inline InputRecord balance_query(Seconds time, std::int32_t carid, std::int32_t qid) {
  InputRecord r;
  r.type = 2;
  r.time = time;
  r.carid = carid;
  r.speed = 0;
  r.qid = qid;
  return r;
}

inline InputRecord expenditure_query(Seconds time, std::int32_t carid, std::int32_t qid,
                                     std::int32_t xway, std::int32_t day) {
  InputRecord r = balance_query(time, carid, qid);
  r.type = 3;
  r.xway = xway;
  r.day = day;
  return r;
}

// A reference with its sink and an empty historical table.
struct ReferenceUnderTest {
  CollectedAnswers answers;
  HistoricalTollTable history;
  Reference reference{answers, history};

  void operator()(const InputRecord& r) { reference.process(r); }
};

}  // namespace cwf::lr::testing
