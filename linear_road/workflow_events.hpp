// The records that travel through the Linear Road workflow (workflows/linear_road.yaml). Every
// input tuple is one record over one interned schema from the source to the toll actor; each
// stage takes it from its window and fills in what it computed (statistics, movement, accident
// ahead) in place, so that one allocation carries a report through the chain and a stage reads
// plain integer slots by index: no field lookup by name, no string, no map.
// Answers are records of four small schemas, one per answer type.
//
// `released` is the workflow clock (ns) when the source let the tuple in; answers carry it on so
// that the sink can tell each answer's response time.
#pragma once

#include <cstdint>

#include "linear_road/records.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/values/value.hpp"

namespace cwf::lr {

// Slots of a tuple record. Fields the input leaves unused are -1.
enum TupleSlot : std::uint8_t {
  kTupleType,
  kTupleTime,
  kTupleCarid,
  kTupleSpeed,
  kTupleXway,
  kTupleLane,
  kTupleDir,
  kTupleSeg,
  kTuplePos,
  kTupleQid,
  kTupleDay,
  kTupleReleased,
  // Filled in by lr_segment_statistics: LAV for the report's minute (-1: no data) and the
  // distinct cars in its segment during the previous minute.
  kTupleLav,
  kTupleCars,
  // Filled in by lr_accident_detection: how the report moved its car (TupleMove bits) and the
  // segment of the accident in force ahead of it (-1: none).
  kTupleMove,
  kTupleAccidentSeg,
  kTupleSlots
};

// Bits of the `move` slot.
inline constexpr std::int64_t kMoveNewSegment = 1;   // entered a segment: notify, charge the last
inline constexpr std::int64_t kMoveNewTrip = 2;      // first report of a trip (re-entry or first)
inline constexpr std::int64_t kMoveFirstReport = 4;  // the car's first report of all

const Schema* tuple_schema();
// Whether `token` is a tuple record; if not, reports it on `context` (the actors then skip it).
bool is_tuple_else_report(const Value& token, FiringContext& context);
Value make_tuple(const InputRecord& record, std::int64_t released);
// `tuple` must be a tuple record; the fields the input has.
InputRecord read_tuple(const Value& tuple);
inline std::int64_t slot_int(const Value& record, int slot) {
  return record.slots()[static_cast<std::size_t>(slot)].as_int();
}
// Replaces two slots of `tuple` (the statistics or the movement of a report): in place when the
// caller holds the only reference (it took the tuple from its window), else in a copy.
void set_slots(Value& tuple, int first_slot, std::int64_t first, int second_slot,
               std::int64_t second);

// Answers: `type` is the answer's line type (0..3); `released` as above.
const Schema* toll_answer_schema();         // type, carid, time, lav, toll, released
const Schema* alert_answer_schema();        // type, time, xway, accseg, dir, carid, released
const Schema* balance_answer_schema();      // type, time, resulttime, qid, balance, released
const Schema* expenditure_answer_schema();  // type, time, qid, toll, released

Value make_answer(const TollNotification& a, std::int64_t released);
Value make_answer(const AccidentAlert& a, std::int64_t released);
Value make_answer(const BalanceAnswer& a, std::int64_t released);
Value make_answer(const ExpenditureAnswer& a, std::int64_t released);
// One replica's part of a balance answer (lr_toll with parallelism: lr_balance_sum adds up the
// `parts` of one query): the answer's slots, then `parts`.
enum BalancePartSlot : std::uint8_t {
  kPartType,
  kPartTime,
  kPartResultTime,
  kPartQid,
  kPartBalance,
  kPartReleased,
  kPartParts,
};
const Schema* balance_part_schema();
Value make_balance_part(const BalanceAnswer& a, int parts, std::int64_t released);

}  // namespace cwf::lr
