// Reading an event history file (one occurrence per JSON line, as eca_history writes it) and
// selecting occurrences by workflow instance and type, in the order they happened.
#pragma once

#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/values/value.hpp"

namespace cwf::eca {

struct HistoryFilter {
  std::optional<std::string> instance;  // compared with the instance's text ("42" matches 42)
  std::optional<std::string> type;      // the exact occurrence type
};

// what(): "FILE:LINE: message".
class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The matching occurrences sorted by timestamp; occurrences with equal timestamps stay in the
// order they were recorded.
std::vector<Value> query_history(std::istream& in, const std::string& file_name,
                                 const HistoryFilter& filter);
std::vector<Value> query_history_file(const std::string& path, const HistoryFilter& filter);

}  // namespace cwf::eca
