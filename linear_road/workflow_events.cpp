#include "linear_road/workflow_events.hpp"

#include <array>

namespace cwf::lr {

const Schema* tuple_schema() {
  static const Schema* schema =
      Schema::intern({"type", "time", "carid", "speed", "xway", "lane", "dir", "seg", "pos", "qid",
                      "day", "released", "lav", "cars", "move", "accseg"});
  return schema;
}

Value make_tuple(const InputRecord& r, std::int64_t released) {
  std::array<Value, kTupleSlots> slots = {
      Value(r.type), Value(r.time), Value(r.carid), Value(r.speed), Value(r.xway), Value(r.lane),
      Value(r.dir),  Value(r.seg),  Value(r.pos),   Value(r.qid),   Value(r.day),  Value(released),
      Value(-1),     Value(-1),     Value(0),       Value(-1)};
  return Value::record(tuple_schema(), slots);
}

InputRecord read_tuple(const Value& tuple) {
  auto s = tuple.slots();
  auto field = [&](int slot) { return static_cast<std::int32_t>(s[slot].as_int()); };
  InputRecord r;
  r.type = field(kTupleType);
  r.time = field(kTupleTime);
  r.carid = field(kTupleCarid);
  r.speed = field(kTupleSpeed);
  r.xway = field(kTupleXway);
  r.lane = field(kTupleLane);
  r.dir = field(kTupleDir);
  r.seg = field(kTupleSeg);
  r.pos = field(kTuplePos);
  r.qid = field(kTupleQid);
  r.day = field(kTupleDay);
  return r;
}

bool is_tuple_else_report(const Value& token, FiringContext& context) {
  if (token.is_record() && token.schema() == tuple_schema()) return true;
  context.report_error("not a Linear Road tuple: " + token.to_json());
  return false;
}

void set_slots(Value& tuple, int first_slot, std::int64_t first, int second_slot,
               std::int64_t second) {
  std::span<Value> slots = tuple.mutable_slots();
  slots[static_cast<std::size_t>(first_slot)] = Value(first);
  slots[static_cast<std::size_t>(second_slot)] = Value(second);
}

const Schema* toll_answer_schema() {
  static const Schema* schema =
      Schema::intern({"type", "carid", "time", "lav", "toll", "released"});
  return schema;
}
const Schema* alert_answer_schema() {
  static const Schema* schema =
      Schema::intern({"type", "time", "xway", "accseg", "dir", "carid", "released"});
  return schema;
}
const Schema* balance_answer_schema() {
  static const Schema* schema =
      Schema::intern({"type", "time", "resulttime", "qid", "balance", "released"});
  return schema;
}
const Schema* expenditure_answer_schema() {
  static const Schema* schema = Schema::intern({"type", "time", "qid", "toll", "released"});
  return schema;
}

const Schema* balance_part_schema() {
  static const Schema* schema =
      Schema::intern({"type", "time", "resulttime", "qid", "balance", "released", "parts"});
  return schema;
}

Value make_answer(const TollNotification& a, std::int64_t released) {
  Value slots[] = {Value(0),     Value(a.carid), Value(a.time),
                   Value(a.lav), Value(a.toll),  Value(released)};
  return Value::record(toll_answer_schema(), slots);
}
Value make_answer(const AccidentAlert& a, std::int64_t released) {
  Value slots[] = {Value(1),     Value(a.time),  Value(a.xway),  Value(a.accident_seg),
                   Value(a.dir), Value(a.carid), Value(released)};
  return Value::record(alert_answer_schema(), slots);
}
Value make_answer(const BalanceAnswer& a, std::int64_t released) {
  Value slots[] = {Value(2),     Value(a.time),    Value(a.result_time),
                   Value(a.qid), Value(a.balance), Value(released)};
  return Value::record(balance_answer_schema(), slots);
}
Value make_answer(const ExpenditureAnswer& a, std::int64_t released) {
  Value slots[] = {Value(3), Value(a.time), Value(a.qid), Value(a.toll), Value(released)};
  return Value::record(expenditure_answer_schema(), slots);
}

Value make_balance_part(const BalanceAnswer& a, int parts, std::int64_t released) {
  Value slots[] = {Value(2),         Value(a.time),   Value(a.result_time), Value(a.qid),
                   Value(a.balance), Value(released), Value(parts)};
  return Value::record(balance_part_schema(), slots);
}

}  // namespace cwf::lr
