#include "linear_road/validation.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

#include "linear_road/answer_file.hpp"
#include "linear_road/answer_keys.hpp"
#include "linear_road/car_trips.hpp"
#include "linear_road/expected_perl.hpp"
#include "linear_road/integer_file.hpp"
#include "linear_road/perl_balance_adjustments.hpp"
#include "linear_road/perl_segment_index.hpp"

namespace cwf::lr {

namespace {

// Adds one difference of `kind` to `report`, keeping the first `show` of each kind.
void note(TypeReport& report, DifferenceKind kind, std::size_t show, Difference difference) {
  switch (kind) {
    case DifferenceKind::missing:
      ++report.missing;
      break;
    case DifferenceKind::wrong:
      ++report.wrong;
      break;
    case DifferenceKind::extra_explained:
      ++report.extra_explained;
      break;
    case DifferenceKind::extra_unexplained:
      ++report.extra_unexplained;
      break;
    case DifferenceKind::late:
      ++report.late;
      break;
  }
  auto& kept = report.examples[static_cast<std::size_t>(kind)];
  if (kept.size() < show) kept.push_back(std::move(difference));
}

// Walks `expected` and `actual`, both sorted by key, pairing equal keys in order. An actual
// answer whose key was already paired is a duplicate: extra.
template <class E, class A, class KeyE, class KeyA, class OnPair, class OnMissing, class OnExtra>
void join_by_key(const std::vector<E>& expected, const std::vector<A>& actual, KeyE key_e,
                 KeyA key_a, OnPair on_pair, OnMissing on_missing, OnExtra on_extra) {
  std::size_t i = 0, j = 0;
  while (i < expected.size() || j < actual.size()) {
    if (j == actual.size() || (i < expected.size() && key_e(expected[i]) < key_a(actual[j]))) {
      on_missing(expected[i++]);
    } else if (i == expected.size() || key_a(actual[j]) < key_e(expected[i])) {
      on_extra(actual[j++]);
    } else {
      on_pair(expected[i++], actual[j++]);
    }
  }
}

template <class T, class Key>
void sort_by(std::vector<T>& v, Key key) {
  std::stable_sort(v.begin(), v.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
}

auto toll_key = [](const TollNotification& a) { return car_time_key(a.carid, a.time); };
auto alert_key = [](const AccidentAlert& a) { return time_car_key(a.time, a.carid); };
auto qid_key = [](const auto& a) { return static_cast<std::uint32_t>(a.qid); };

void sort_answers(AnswerFile& answers) {
  sort_by(answers.tolls, toll_key);
  sort_by(answers.alerts, alert_key);
  sort_by(answers.balances, qid_key);
  sort_by(answers.alternative_balances, qid_key);
  sort_by(answers.expenditures, qid_key);
}

// Answers that left the system later than the response-time limit allows.
template <class Answer>
void check_late(const std::vector<Answer>& answers, Seconds limit, std::size_t show,
                TypeReport& report) {
  for (const Answer& a : answers)
    if (a.emit - a.time > limit)
      note(report, DifferenceKind::late, show,
           {"emit <= time + " + std::to_string(limit), format_answer(a),
            "answered " + std::to_string(a.emit - a.time) + " s after the input"});
}

void check_all_late(const AnswerFile& actual, std::size_t show,
                    std::array<TypeReport, kAnswerTypes>& types) {
  check_late(actual.tolls, kTollAlertBalanceLimit, show, types[0]);
  check_late(actual.alerts, kTollAlertBalanceLimit, show, types[1]);
  check_late(actual.balances, kTollAlertBalanceLimit, show, types[2]);
  check_late(actual.expenditures, kExpenditureLimit, show, types[3]);
}

// ---- Expected answers in the product format (expected.out, ValidateMTBQ's out) ----

// Extra acceptable balances per qid: ValidateMTBQ's `5` lines and its unstable answers.
struct AlternativeBalance {
  std::int32_t qid;
  std::int64_t balance;
};

bool is_alternative(const std::vector<AlternativeBalance>& alternatives, std::int32_t qid,
                    std::int64_t balance) {
  auto it = std::lower_bound(alternatives.begin(), alternatives.end(), qid,
                             [](const AlternativeBalance& a, std::int32_t q) { return a.qid < q; });
  for (; it != alternatives.end() && it->qid == qid; ++it)
    if (it->balance == balance) return true;
  return false;
}

struct ExactRules {
  bool compare_result_time = true;  // ValidateMTBQ's alternatives have other result times
  std::vector<AlternativeBalance> alternatives;
};

void compare_exact(const AnswerFile& expected, const AnswerFile& actual, const ExactRules& rules,
                   std::size_t show, std::array<TypeReport, kAnswerTypes>& types) {
  auto missing = [&](TypeReport& r) {
    return [&r, show](const auto& e) {
      note(r, DifferenceKind::missing, show, {format_answer(e), "-", ""});
    };
  };
  auto extra = [&](TypeReport& r) {
    return [&r, show](const auto& a) {
      note(r, DifferenceKind::extra_unexplained, show, {"-", format_answer(a), ""});
    };
  };
  auto judge = [&](TypeReport& r, bool equal, const auto& e, const auto& a) {
    if (equal) {
      ++r.matched;
    } else {
      note(r, DifferenceKind::wrong, show, {format_answer(e), format_answer(a), ""});
    }
  };
  types[0].expected = expected.tolls.size();
  join_by_key(
      expected.tolls, actual.tolls, toll_key, toll_key,
      [&](const TollNotification& e, const TollNotification& a) {
        judge(types[0], e.lav == a.lav && e.toll == a.toll, e, a);
      },
      missing(types[0]), extra(types[0]));
  types[1].expected = expected.alerts.size();
  join_by_key(
      expected.alerts, actual.alerts, alert_key, alert_key,
      [&](const AccidentAlert& e, const AccidentAlert& a) {
        judge(types[1], e.xway == a.xway && e.accident_seg == a.accident_seg && e.dir == a.dir, e,
              a);
      },
      missing(types[1]), extra(types[1]));
  types[2].expected = expected.balances.size();
  join_by_key(
      expected.balances, actual.balances, qid_key, qid_key,
      [&](const BalanceAnswer& e, const BalanceAnswer& a) {
        bool same_time =
            e.time == a.time && (!rules.compare_result_time || e.result_time == a.result_time);
        bool balance_ok =
            e.balance == a.balance || is_alternative(rules.alternatives, a.qid, a.balance);
        judge(types[2], same_time && balance_ok, e, a);
      },
      missing(types[2]), extra(types[2]));
  types[3].expected = expected.expenditures.size();
  join_by_key(
      expected.expenditures, actual.expenditures, qid_key, qid_key,
      [&](const ExpenditureAnswer& e, const ExpenditureAnswer& a) {
        judge(types[3], e.time == a.time && e.toll == a.toll, e, a);
      },
      missing(types[3]), extra(types[3]));
}

// `type,qid,time,answers_per_run` with answers `resulttime:balance;...`, after a header line.
void read_unstable_balances(const std::string& path, MalformedLines& malformed,
                            std::vector<AlternativeBalance>& alternatives) {
  actors::LineReader reader;
  if (!reader.open(path)) throw DataFileError("cannot open " + path);
  std::string_view line;
  while (reader.next(line)) {
    if (line.empty() || line.front() == 't') continue;  // the header
    std::int64_t head[3];
    std::size_t third_comma = 0;
    for (int commas = 0; commas < 3 && third_comma != std::string_view::npos; ++commas)
      third_comma = line.find(',', commas == 0 ? 0 : third_comma + 1);
    if (third_comma == std::string_view::npos ||
        split_integers(line.substr(0, third_comma), head, 3) != 3) {
      malformed.add(path, reader.line_number(), line, "expected type,qid,time,answers");
      continue;
    }
    std::string_view runs = line.substr(third_comma + 1);
    while (!runs.empty()) {
      std::size_t end = runs.find(';');
      std::string_view run = runs.substr(0, end);
      std::int64_t answer[2];
      std::string colon_free(run);
      std::replace(colon_free.begin(), colon_free.end(), ':', ',');
      if (split_integers(colon_free, answer, 2) == 2) {
        alternatives.push_back({static_cast<std::int32_t>(head[1]), answer[1]});
      } else {
        malformed.add(path, reader.line_number(), line, "an answer is not resulttime:balance");
        break;
      }
      if (end == std::string_view::npos) break;
      runs.remove_prefix(end + 1);
    }
  }
  if (!reader.error().empty()) throw DataFileError(path + ": " + reader.error());
}

std::array<TypeReport, kAnswerTypes> mtbq_agreement(const std::string& mtbq_path,
                                                    const std::string& dir,
                                                    const AnswerFile& actual,
                                                    MalformedLines& malformed) {
  AnswerFile mtbq = read_answer_file(mtbq_path, AnswerDialect::validate_mtbq, malformed);
  sort_answers(mtbq);
  ExactRules rules;
  rules.compare_result_time = false;
  for (const BalanceAnswer& b : mtbq.alternative_balances)
    rules.alternatives.push_back({b.qid, b.balance});
  if (auto unstable = find_data_file(dir, kMtbqUnstableFile))
    read_unstable_balances(*unstable, malformed, rules.alternatives);
  std::stable_sort(rules.alternatives.begin(), rules.alternatives.end(),
                   [](const auto& a, const auto& b) { return a.qid < b.qid; });
  std::array<TypeReport, kAnswerTypes> types;
  types[0].actual = actual.tolls.size();
  types[1].actual = actual.alerts.size();
  types[2].actual = actual.balances.size();
  types[3].actual = actual.expenditures.size();
  compare_exact(mtbq, actual, rules, 0, types);
  return types;
}

// ---- The Perl validator's tables ----

std::string perl_line(const PerlTollRow& r) {
  return "perl " + std::to_string(r.time) + "," + std::to_string(r.carid) + "," +
         std::to_string(r.dir) + "," + std::to_string(r.seg) + "," + std::to_string(r.lav) + "," +
         std::to_string(r.toll) + "," + std::to_string(r.accident_seg) +
         " (time,carid,dir,seg,lav,toll,accidentseg)";
}

// A query's acceptable answers in the Perl table (one or two, rarely more).
struct PerlBalance {
  std::int32_t qid;
  std::int32_t carid;
  Seconds query_time;
  std::vector<std::int64_t> balances;
};

std::string perl_line(const PerlBalance& b) {
  std::string answers;
  for (std::int64_t v : b.balances)
    answers += (answers.empty() ? "" : " or ") + std::to_string(v);
  return "perl qid " + std::to_string(b.qid) + ", car " + std::to_string(b.carid) + " at " +
         std::to_string(b.query_time) + ": balance " + answers;
}

std::string perl_line(const PerlExpenditureRow& r) {
  return "perl " + std::to_string(r.carid) + "," + std::to_string(r.day) + "," +
         std::to_string(r.balance) + "," + std::to_string(r.qid) + " (carid,day,balance,qid)";
}

std::vector<PerlBalance> group_balances(std::vector<PerlBalanceRow> rows) {
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.qid < b.qid; });
  std::vector<PerlBalance> grouped;
  for (const PerlBalanceRow& r : rows) {
    if (grouped.empty() || grouped.back().qid != r.qid)
      grouped.push_back({r.qid, r.carid, r.query_time, {}});
    grouped.back().balances.push_back(r.balance);
  }
  return grouped;
}

struct PendingBalance {
  const PerlBalance* expected;
  BalanceAnswer actual;
};

// Classifies a toll notification or alert that Perl does not have. It is explained when it is
// for a car's segment entry in a later trip, in a segment for which Perl's one row (keyed by
// dir, seg, carid) is from an earlier trip.
Difference explain_extra(std::int32_t carid, Seconds time, const CarTrips* trips,
                         const PerlSegmentIndex* index, std::string actual_line, bool& explained) {
  explained = false;
  Difference d{"-", std::move(actual_line), ""};
  if (!trips) {
    d.note = "no input to explain it";
    return d;
  }
  const ReportPlace* place = trips->place(carid, time);
  if (!place) {
    d.note = "no position report of car " + std::to_string(carid) + " at " + std::to_string(time);
    return d;
  }
  const PerlSegmentRow* row = index->find(carid, place->dir, place->seg);
  std::string where = "dir " + std::to_string(place->dir) + " seg " + std::to_string(place->seg);
  if (place->trip == 0) {
    d.note = "first trip of the car, " + where;
  } else if (place->segment_start != time || place->lane == kExitLane) {
    d.note = "not a segment entry (" + where + " since " + std::to_string(place->segment_start) +
             ", lane " + std::to_string(place->lane) + ")";
  } else if (!row || row->time >= place->trip_start) {
    d.note = "re-entered at " + std::to_string(place->trip_start) +
             " but Perl has no earlier row for " + where;
  } else {
    explained = true;
    d.note = "re-entering car: trip " + std::to_string(place->trip + 1) + " from " +
             std::to_string(place->trip_start) + "; Perl's row for " + where + " is from " +
             std::to_string(row->time);
  }
  return d;
}

void compare_with_perl(const ValidationOptions& options, const AnswerFile& actual,
                       ValidationReport& report) {
  ExpectedPerl perl = load_expected_perl(options.expected_dir, report.malformed);
  const std::size_t show = options.show;
  auto& types = report.types;

  // Type 0: one row per (dir, seg, carid), matched by (carid, time).
  std::vector<TollNotification> extra_tolls;
  sort_by(perl.tolls, [](const PerlTollRow& r) { return car_time_key(r.carid, r.time); });
  types[0].expected = perl.tolls.size();
  join_by_key(
      perl.tolls, actual.tolls, [](const PerlTollRow& r) { return car_time_key(r.carid, r.time); },
      toll_key,
      [&](const PerlTollRow& e, const TollNotification& a) {
        // Perl's lav -1 (no data in the five minutes before) is the product's 0.
        std::int32_t lav = e.lav < 0 ? 0 : e.lav;
        if (a.lav == lav && a.toll == e.toll) {
          ++types[0].matched;
        } else {
          note(types[0], DifferenceKind::wrong, show, {perl_line(e), format_answer(a), ""});
        }
      },
      [&](const PerlTollRow& e) {
        note(types[0], DifferenceKind::missing, show, {perl_line(e), "-", ""});
      },
      [&](const TollNotification& a) { extra_tolls.push_back(a); });

  // Type 1: the toll rows with an accident segment, matched by (time, carid).
  std::vector<PerlTollRow> alerts;
  for (const PerlTollRow& r : perl.tolls)
    if (r.accident_seg != -1) alerts.push_back(r);
  sort_by(alerts, [](const PerlTollRow& r) { return time_car_key(r.time, r.carid); });
  std::vector<AccidentAlert> extra_alerts;
  types[1].expected = alerts.size();
  join_by_key(
      alerts, actual.alerts, [](const PerlTollRow& r) { return time_car_key(r.time, r.carid); },
      alert_key,
      [&](const PerlTollRow& e, const AccidentAlert& a) {
        if (a.accident_seg == e.accident_seg && a.dir == e.dir) {
          ++types[1].matched;
        } else {
          note(types[1], DifferenceKind::wrong, show, {perl_line(e), format_answer(a), ""});
        }
      },
      [&](const PerlTollRow& e) {
        note(types[1], DifferenceKind::missing, show, {perl_line(e), "-", ""});
      },
      [&](const AccidentAlert& a) { extra_alerts.push_back(a); });

  // Type 2: any of the query's acceptable answers; others wait for the exit-toll check.
  std::vector<PerlBalance> balances = group_balances(std::move(perl.balances));
  std::vector<PendingBalance> pending_balances;
  types[2].expected = balances.size();
  join_by_key(
      balances, actual.balances, qid_key, qid_key,
      [&](const PerlBalance& e, const BalanceAnswer& a) {
        if (a.time != e.query_time) {
          note(types[2], DifferenceKind::wrong, show,
               {perl_line(e), format_answer(a), "different query time"});
        } else if (std::find(e.balances.begin(), e.balances.end(), a.balance) != e.balances.end()) {
          ++types[2].matched;
        } else {
          pending_balances.push_back({&e, a});
        }
      },
      [&](const PerlBalance& e) {
        note(types[2], DifferenceKind::missing, show, {perl_line(e), "-", ""});
      },
      [&](const BalanceAnswer& a) {
        note(types[2], DifferenceKind::extra_unexplained, show, {"-", format_answer(a), ""});
      });

  // Type 3: by qid.
  sort_by(perl.expenditures, qid_key);
  types[3].expected = perl.expenditures.size();
  join_by_key(
      perl.expenditures, actual.expenditures, qid_key, qid_key,
      [&](const PerlExpenditureRow& e, const ExpenditureAnswer& a) {
        if (a.toll == e.balance) {
          ++types[3].matched;
        } else {
          note(types[3], DifferenceKind::wrong, show, {perl_line(e), format_answer(a), ""});
        }
      },
      [&](const PerlExpenditureRow& e) {
        note(types[3], DifferenceKind::missing, show, {perl_line(e), "-", ""});
      },
      [&](const ExpenditureAnswer& a) {
        note(types[3], DifferenceKind::extra_unexplained, show, {"-", format_answer(a), ""});
      });

  // The input explains extras (re-entering cars) and balances (see perl_balance_adjustments).
  std::optional<CarTrips> trips;
  std::optional<PerlSegmentIndex> index;
  bool needs_input = !extra_tolls.empty() || !extra_alerts.empty() || !pending_balances.empty();
  std::string input = options.input_path;
  if (input.empty()) input = find_data_file(options.expected_dir, kInputFile).value_or("");
  if (needs_input && !input.empty()) {
    std::vector<std::uint64_t> wanted;
    for (const auto& a : extra_tolls)
      wanted.push_back(car_time_key(a.carid, a.time));
    for (const auto& a : extra_alerts)
      wanted.push_back(car_time_key(a.carid, a.time));
    for (const auto& p : pending_balances)
      wanted.push_back(car_time_key(p.expected->carid, p.expected->query_time));
    std::sort(wanted.begin(), wanted.end());
    trips = CarTrips::read(input, wanted, report.malformed);
    index.emplace(perl.tolls);
    report.input_path = input;
  } else if (needs_input) {
    report.notes.push_back("no input file: extras and balance differences cannot be explained");
  }
  const CarTrips* trips_ptr = trips ? &*trips : nullptr;
  const PerlSegmentIndex* index_ptr = index ? &*index : nullptr;
  std::vector<CarToll> reentry_tolls;
  for (const TollNotification& a : extra_tolls) {
    bool explained = false;
    Difference d =
        explain_extra(a.carid, a.time, trips_ptr, index_ptr, format_answer(a), explained);
    if (explained && a.toll > 0) reentry_tolls.push_back({a.carid, a.time, a.toll});
    note(types[0], explained ? DifferenceKind::extra_explained : DifferenceKind::extra_unexplained,
         show, std::move(d));
  }
  for (const AccidentAlert& a : extra_alerts) {
    bool explained = false;
    Difference d =
        explain_extra(a.carid, a.time, trips_ptr, index_ptr, format_answer(a), explained);
    note(types[1], explained ? DifferenceKind::extra_explained : DifferenceKind::extra_unexplained,
         show, std::move(d));
  }
  if (!trips) {
    for (const PendingBalance& p : pending_balances)
      note(types[2], DifferenceKind::wrong, show,
           {perl_line(*p.expected), format_answer(p.actual), ""});
    return;
  }
  PerlBalanceAdjuster adjuster(*trips, *index, std::move(reentry_tolls));
  report.notes.push_back("input: " + std::to_string(trips->position_reports()) +
                         " position reports, " + std::to_string(trips->reentries()) +
                         " re-entries, " + std::to_string(adjuster.exit_charges()) +
                         " exit-segment tolls charged by Perl");
  for (const PendingBalance& p : pending_balances) {
    BalanceAdjustments adjustments = adjuster.at(p.expected->carid, p.expected->query_time);
    AdjustedMatch match = match_adjusted(p.expected->balances, adjustments, p.actual.balance);
    if (match.matched) {
      ++types[2].matched;
      ++types[2].matched_adjusted;
      types[2].matched_less_exit_tolls += match.less_exit_tolls;
      types[2].matched_plus_reentry_tolls += match.plus_reentry_tolls;
      types[2].matched_plus_exit_lane_move_toll += match.plus_exit_lane_move_toll;
      continue;
    }
    std::string why;
    auto add = [&why](const char* what, std::int64_t v) {
      if (v != 0) why += (why.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(v);
    };
    add("exit-segment tolls", adjustments.exit_tolls);
    add("re-entry tolls", adjustments.reentry_tolls);
    add("exit-lane move toll", adjustments.exit_lane_move_toll);
    note(types[2], DifferenceKind::wrong, show,
         {perl_line(*p.expected), format_answer(p.actual), why});
  }
}

}  // namespace

ValidationReport validate_answers(const ValidationOptions& options) {
  ValidationReport report;
  report.expected_dir = options.expected_dir;
  report.actual_path = options.actual_path;
  report.show = options.show;
  auto product_expected = find_data_file(options.expected_dir, kExpectedProductFile);
  bool perl = has_expected_perl(options.expected_dir);
  if (!product_expected && !perl)
    throw DataFileError(options.expected_dir + " holds no expected answers (neither " +
                        kExpectedProductFile + " nor " + kPerlTollFile + ", plain or .xz)");

  AnswerFile actual =
      read_answer_file(options.actual_path, AnswerDialect::product, report.malformed);
  sort_answers(actual);
  report.types[0].actual = actual.tolls.size();
  report.types[1].actual = actual.alerts.size();
  report.types[2].actual = actual.balances.size();
  report.types[3].actual = actual.expenditures.size();
  check_all_late(actual, options.show, report.types);

  if (product_expected) {
    report.reference = std::string(kExpectedProductFile) + " (exact comparison)";
    AnswerFile expected =
        read_answer_file(*product_expected, AnswerDialect::product, report.malformed);
    sort_answers(expected);
    compare_exact(expected, actual, ExactRules{}, options.show, report.types);
    return report;
  }
  report.reference = "the Perl validator's tables (expected-perl-*)";
  compare_with_perl(options, actual, report);
  if (auto mtbq = find_data_file(options.expected_dir, kMtbqFile))
    report.mtbq = mtbq_agreement(*mtbq, options.expected_dir, actual, report.malformed);
  return report;
}

}  // namespace cwf::lr
