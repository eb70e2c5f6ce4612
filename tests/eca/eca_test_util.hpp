// Helpers for the ECA tests: occurrences in one line, random streams of them for the property
// tests, and a detector that records what it detects as "TYPE@seconds[component types]".
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "actors/eca/event_detector.hpp"
#include "actors/eca/occurrence.hpp"

namespace cwf::eca::testing {

inline Value occ(const std::string& type, Value instance, double seconds, Value params = {}) {
  static std::int64_t next_id = 1;
  OccurrenceSpec spec;
  spec.type = type;
  spec.site = "test";
  spec.id = next_id++;
  spec.time = static_cast<Timestamp>(seconds * 1e9);
  spec.instance = std::move(instance);
  spec.params = std::move(params);
  return make_occurrence(std::move(spec));
}

// A random stream for the property tests: `length` occurrences of `types`, each of one of
// `instances` instances named prefix0, prefix1, ..., at whole seconds from 1 on; with `ties`,
// one in three keeps the previous timestamp (equal timestamps now and then).
inline std::vector<Value> random_stream(std::mt19937& rng, int length,
                                        const std::vector<std::string>& types,
                                        const std::string& prefix, unsigned instances, bool ties) {
  std::vector<Value> stream;
  double t = 0;
  for (int i = 0; i < length; ++i) {
    if (!ties || rng() % 3) t += 1;
    const std::string& type = types[rng() % types.size()];
    stream.push_back(occ(type, Value(prefix + std::to_string(rng() % instances)), t));
  }
  return stream;
}

// "TYPE" for primitives; "TYPE[c1 c2]" for composites, components by their own description.
inline std::string describe(const Value& o) {
  std::string text(occurrence_type(o));
  const auto& components = field(o, kComponents).as_array();
  if (components.empty()) return text;
  text += '[';
  for (std::size_t i = 0; i < components.size(); ++i) {
    if (i) text += ' ';
    text += describe(components[i]);
    text += '@' + std::to_string(occurrence_time(components[i]) / 1'000'000'000);
  }
  return text + ']';
}

// A detector for some expressions that records the occurrences of those expressions.
class Recorder {
 public:
  explicit Recorder(std::vector<std::string> expressions, bool same_instance = true) {
    auto graph = std::make_shared<DetectorGraph>();
    for (const auto& e : expressions)
      roots_.push_back(graph->add(*parse_event_expression(e)));
    detector_ = std::make_unique<EventDetector>(graph, DetectorOptions{same_instance});
  }
  void feed(const Value& o) {
    detector_->process(o, [&](int node, const Value& found) { record(node, found); });
  }
  void feed(const std::vector<Value>& stream) {
    for (const Value& o : stream)
      feed(o);
  }
  void advance(double seconds) {
    detector_->advance_to(static_cast<Timestamp>(seconds * 1e9),
                          [&](int node, const Value& found) { record(node, found); });
  }
  std::vector<std::string> seen;
  std::vector<Value> occurrences;
  EventDetector& detector() { return *detector_; }
  int root(std::size_t i) const { return roots_[i]; }

 private:
  void record(int node, const Value& found) {
    for (int r : roots_)
      if (r == node) {
        seen.push_back(describe(found));
        occurrences.push_back(found);
      }
  }
  std::vector<int> roots_;
  std::unique_ptr<EventDetector> detector_;
};

}  // namespace cwf::eca::testing
