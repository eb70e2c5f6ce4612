#include "linear_road/input_parser.hpp"

#include <limits>
#include <string>

#include "runtime/snapshot/trivial_array_snapshot.hpp"

namespace cwf::lr {

namespace {

// Reads one decimal integer field ending at ',' or the end of the line. Hand-rolled because it
// is the inner loop of reading 5 million lines: one pass, no locale, no exceptions.
bool read_field(const char*& p, const char* end, std::int32_t& value) {
  bool negative = false;
  if (p != end && *p == '-') {
    negative = true;
    ++p;
  }
  const char* digits = p;
  std::int64_t v = 0;
  while (p != end && static_cast<unsigned>(*p - '0') < 10u) {
    v = v * 10 + (*p - '0');
    if (v > std::numeric_limits<std::int32_t>::max()) return false;
    ++p;
  }
  if (p == digits) return false;
  if (p != end && *p != ',') return false;
  value = static_cast<std::int32_t>(negative ? -v : v);
  return true;
}

bool in_range(std::int32_t v, std::int32_t low, std::int32_t high) {
  return v >= low && v <= high;
}

InputReject check_ranges(const InputRecord& r) {
  if (r.type != 0 && r.type != 2 && r.type != 3 && r.type != 4) return InputReject::type;
  if (r.time < 0) return InputReject::time;
  if (r.carid < 0) return InputReject::carid;
  // The speed is not checked here: out of range, a report is still used (input_warning), and
  // queries do not use the field at all.
  switch (static_cast<InputType>(r.type)) {
    case InputType::position_report:
      if (r.xway < 0) return InputReject::xway;
      if (!in_range(r.lane, 0, 4)) return InputReject::lane;
      if (!in_range(r.dir, 0, 1)) return InputReject::dir;
      if (!in_range(r.seg, 0, 99)) return InputReject::seg;
      if (!in_range(r.pos, 0, 527999)) return InputReject::pos;
      break;
    case InputType::daily_expenditure:
      if (r.xway < 0) return InputReject::xway;
      if (r.qid < 0) return InputReject::qid;
      if (!in_range(r.day, 1, 69)) return InputReject::day;
      break;
    case InputType::account_balance:
    case InputType::travel_time:
      if (r.qid < 0) return InputReject::qid;
      break;
  }
  return InputReject::none;
}

}  // namespace

const char* input_reject_name(InputReject reason) {
  switch (reason) {
    case InputReject::none:
      return "none";
    case InputReject::field_count:
      return "field_count";
    case InputReject::not_integer:
      return "not_integer";
    case InputReject::type:
      return "type";
    case InputReject::time:
      return "time";
    case InputReject::carid:
      return "carid";
    case InputReject::xway:
      return "xway";
    case InputReject::lane:
      return "lane";
    case InputReject::dir:
      return "dir";
    case InputReject::seg:
      return "seg";
    case InputReject::pos:
      return "pos";
    case InputReject::qid:
      return "qid";
    case InputReject::day:
      return "day";
  }
  return "unknown";
}

InputReject parse_input_line(std::string_view line, InputRecord& record) {
  std::int32_t* fields[InputRecord::kFields] = {
      &record.type,  &record.time, &record.carid, &record.speed, &record.xway,
      &record.lane,  &record.dir,  &record.seg,   &record.pos,   &record.qid,
      &record.sinit, &record.send, &record.dow,   &record.tod,   &record.day};
  const char* p = line.data();
  const char* end = p + line.size();
  for (int i = 0; i < InputRecord::kFields; ++i) {
    if (i > 0) {
      if (p == end) return InputReject::field_count;
      ++p;  // the ',' read_field stopped at
    }
    if (!read_field(p, end, *fields[i])) return InputReject::not_integer;
  }
  if (p != end) return InputReject::field_count;
  return check_ranges(record);
}

namespace {

std::string whose(const InputRecord& r) {
  const char* what = "record";
  switch (static_cast<InputType>(r.type)) {
    case InputType::position_report:
      what = "position report";
      break;
    case InputType::account_balance:
      what = "account-balance query";
      break;
    case InputType::daily_expenditure:
      what = "daily-expenditure query";
      break;
    case InputType::travel_time:
      what = "travel-time query";
      break;
  }
  return std::string(what) + " of car " + std::to_string(r.carid) + " at time " +
         std::to_string(r.time);
}

std::string outside(const char* field, std::int32_t value, const char* range,
                    const InputRecord& r) {
  return std::string(field) + " " + std::to_string(value) + " is outside " + range + " (" +
         whose(r) + ")";
}

std::string negative(const char* field, std::int32_t value, const InputRecord& r) {
  return std::string(field) + " " + std::to_string(value) + " is negative (" + whose(r) + ")";
}

}  // namespace

std::string input_reject_message(InputReject reason, const InputRecord& r) {
  switch (reason) {
    case InputReject::none:
      return "valid";
    case InputReject::field_count:
      return "not 15 comma-separated fields";
    case InputReject::not_integer:
      return "a field is empty, not a decimal integer, or does not fit 32 bits";
    case InputReject::type:
      return "type " + std::to_string(r.type) + " is not 0, 2, 3 or 4";
    case InputReject::time:
      return "time " + std::to_string(r.time) + " is negative";
    case InputReject::carid:
      return "carid " + std::to_string(r.carid) + " is negative";
    case InputReject::xway:
      return negative("xway", r.xway, r);
    case InputReject::lane:
      return outside("lane", r.lane, "0..4", r);
    case InputReject::dir:
      return outside("dir", r.dir, "0..1", r);
    case InputReject::seg:
      return outside("seg", r.seg, "0..99", r);
    case InputReject::pos:
      return outside("pos", r.pos, "0..527999", r);
    case InputReject::qid:
      return negative("qid", r.qid, r);
    case InputReject::day:
      return outside("day", r.day, "1..69", r);
  }
  return "unknown";
}

InputWarning input_warning(const InputRecord& r) {
  if (r.type == static_cast<std::int32_t>(InputType::position_report) && !speed_in_range(r.speed))
    return InputWarning::speed;
  return InputWarning::none;
}

std::string input_warning_message(InputWarning warning, const InputRecord& r) {
  switch (warning) {
    case InputWarning::none:
      return "the whole record is used";
    case InputWarning::speed:
      return "speed " + std::to_string(r.speed) + " of the " + whose(r) +
             " is outside 0..100: the report is kept, its speed is left out of the segment "
             "statistics";
  }
  return "unknown";
}

void InputRejectTally::add(InputReject reason, std::uint64_t line_number) {
  auto index = static_cast<std::size_t>(reason);
  ++total_;
  ++counts_[index];
  if (first_[index].size() < kKeptLines) first_[index].push_back(line_number);
}

void InputRejectTally::save(SnapshotWriter& out) const {
  out.write_u64(total_);
  write_trivial_array(out, std::span<const std::uint64_t>(counts_));
  for (const auto& lines : first_)
    write_trivial_array(out, std::span<const std::uint64_t>(lines));
}

void InputRejectTally::restore(SnapshotReader& in) {
  total_ = in.read_u64("the rejected lines");
  read_trivial_array_into(in, std::span<std::uint64_t>(counts_), "the rejected lines by reason");
  for (auto& lines : first_) {
    lines = read_trivial_array<std::uint64_t>(in, "the first rejected lines");
    if (lines.size() > kKeptLines) in.reject("the first rejected lines", "more than are kept");
  }
}

}  // namespace cwf::lr
