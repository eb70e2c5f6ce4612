#include "actors/eca/history_query.hpp"

#include <algorithm>
#include <fstream>

#include "actors/eca/occurrence.hpp"
#include "runtime/values/json_lines.hpp"

namespace cwf::eca {

std::vector<Value> query_history(std::istream& in, const std::string& file_name,
                                 const HistoryFilter& filter) {
  JsonLinesReader lines(in);
  std::vector<Value> matches;
  Value record;
  std::string error;
  while (lines.next(record, error)) {
    if (!error.empty()) throw HistoryError(lines.where(file_name) + "invalid JSON: " + error);
    Value occurrence;
    const Value* type = record.is_record() ? record.field("type") : nullptr;
    if (!type || !type->is_string())
      throw HistoryError(lines.where(file_name) +
                         "expected an event occurrence (a JSON object with a string "
                         "'type'), got " +
                         lines.line().substr(0, 80));
    try {
      occurrence = to_occurrence(record, 0);
    } catch (const std::invalid_argument& e) {
      // A field of the wrong kind (`"time": 1.5`): reported like any other bad line.
      throw HistoryError(lines.where(file_name) + e.what());
    }
    if (filter.type && occurrence_type(occurrence) != *filter.type) continue;
    if (filter.instance && field(occurrence, kInstance).to_text() != *filter.instance) continue;
    matches.push_back(std::move(occurrence));
  }
  std::stable_sort(matches.begin(), matches.end(), [](const Value& a, const Value& b) {
    return occurrence_time(a) < occurrence_time(b);
  });
  return matches;
}

std::vector<Value> query_history_file(const std::string& path, const HistoryFilter& filter) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw HistoryError(path + ": cannot open the history file");
  return query_history(in, path, filter);
}

}  // namespace cwf::eca
