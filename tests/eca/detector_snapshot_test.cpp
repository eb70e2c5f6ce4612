// Checkpoints of the composite event detector: on random streams, a detector saved after any
// prefix and restored into a fresh one detects on the rest exactly what the uninterrupted one
// detects, and a restored detector saves the bytes it was restored from.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "eca_test_util.hpp"
#include "runtime/snapshot/snapshot_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::eca {
namespace {

using testing::describe;
using testing::occ;

// Chronicle pairs (SEQ, CON), absences over an instance's own interval (REP with a deadline) and
// over an interval a time event opens for every instance (a shared interval).
const std::vector<std::string> kExpressions = {"SEQ(REQ(a), REQ(b))", "CON(REQ(a), REQ(b))",
                                               "REP(RPL(a.Done), REQ(a), 30 s)",
                                               "REP(REQ(b), TIME(tick), 20 s)"};

struct Detector {
  explicit Detector(const std::string& site) {
    auto graph = std::make_shared<DetectorGraph>();
    for (const std::string& e : kExpressions)
      roots.push_back(graph->add(*parse_event_expression(e)));
    DetectorOptions options;
    options.site = site;
    detector = std::make_unique<EventDetector>(graph, options);
  }
  void feed(const Value& occurrence) {
    detector->process(occurrence, [&](int node, const Value& found) {
      for (int r : roots)
        if (r == node)
          seen.push_back(describe(found) + "@" + std::to_string(occurrence_time(found)));
    });
  }
  std::vector<std::uint8_t> saved() const {
    SnapshotWriter out;
    detector->save(out);
    return out.take_bytes();
  }
  std::vector<int> roots;
  std::unique_ptr<EventDetector> detector;
  std::vector<std::string> seen;
};

std::vector<Value> random_stream(std::mt19937& rng, int length) {
  const char* types[] = {"REQ(a)", "REQ(b)", "RPL(a.Done)", "TIME(tick)"};
  std::vector<Value> stream;
  double t = 0;
  for (int i = 0; i < length; ++i) {
    t += static_cast<double>(rng() % 12);
    std::string type = types[rng() % 4];
    Value instance = type == "TIME(tick)" ? Value() : Value("w" + std::to_string(rng() % 3));
    stream.push_back(occ(type, std::move(instance), t));
  }
  return stream;
}

TEST(DetectorSnapshot, ARestoredDetectorDetectsWhatTheUninterruptedOneDoesAtEveryCut) {
  std::mt19937 rng(20261126);
  int detected = 0, cuts_with_deadlines = 0;
  for (int round = 0; round < 40; ++round) {
    std::vector<Value> stream = random_stream(rng, 40);
    Detector whole("whole-" + std::to_string(round));
    for (const Value& o : stream)
      whole.feed(o);
    detected += static_cast<int>(whole.seen.size());
    for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
      // A site of its own, so that the occurrence ids the pair hands out are theirs alone.
      const std::string site = "cut-" + std::to_string(round) + "-" + std::to_string(cut);
      Detector before(site), after(site);
      for (std::size_t i = 0; i < cut; ++i)
        before.feed(stream[i]);
      std::vector<std::uint8_t> bytes = before.saved();
      SnapshotReader in(bytes);
      after.detector->restore(in);
      EXPECT_EQ(in.remaining(), 0u);
      EXPECT_EQ(after.saved(), bytes) << "round " << round << ", cut " << cut;
      cuts_with_deadlines += after.detector->active_instances() > 0;
      after.seen = before.seen;
      for (std::size_t i = cut; i < stream.size(); ++i)
        after.feed(stream[i]);
      ASSERT_EQ(after.seen, whole.seen) << "round " << round << ", cut " << cut;
    }
  }
  // The streams compose (the property is not checked on nothing).
  EXPECT_GT(detected, 200);
  EXPECT_GT(cuts_with_deadlines, 500);
}

TEST(DetectorSnapshot, StateOfOtherExpressionsIsRefused) {
  Detector original("refused-a");
  original.feed(occ("REQ(a)", Value("w0"), 1));
  std::vector<std::uint8_t> bytes = original.saved();
  auto graph = std::make_shared<DetectorGraph>();
  graph->add(*parse_event_expression("REQ(a)"));
  EventDetector other(graph, DetectorOptions{});
  SnapshotReader in(bytes);
  EXPECT_THROW(other.restore(in), SnapshotError);
}

}  // namespace
}  // namespace cwf::eca
