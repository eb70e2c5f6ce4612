#include "actors/eca/history_query.hpp"

#include <algorithm>
#include <fstream>

#include "actors/eca/occurrence.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::eca {

std::vector<Value> query_history(std::istream& in, const std::string& file_name,
                                 const HistoryFilter& filter) {
  JsonParser parser;
  std::vector<Value> matches;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    auto where = [&] { return file_name + ":" + std::to_string(number) + ": "; };
    Value record, occurrence;
    try {
      record = parser.parse(line);
    } catch (const JsonError& e) {
      throw HistoryError(where() + "invalid JSON: " + e.what());
    }
    const Value* type = record.is_record() ? record.field("type") : nullptr;
    if (!type || !type->is_string())
      throw HistoryError(where() +
                         "expected an event occurrence (a JSON object with a string "
                         "'type'), got " +
                         line.substr(0, 80));
    try {
      occurrence = to_occurrence(record, 0);
    } catch (const std::invalid_argument& e) {
      // A field of the wrong kind (`"time": 1.5`): reported like any other bad line.
      throw HistoryError(where() + e.what());
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
