// Cost of keeping a guard current as announcements arrive (Singh §4.3): simplifying the held
// guard by each announcement (Guard::announce_happened) against recomputing it from scratch by
// Definition 2 on the dependencies residuated by everything announced so far, in the same run.
//   order/*      : Klein's e < f, guard of f (◇~e + □e), announcement ~e
//   example4/*   : Example 4's three dependencies, guard of c_book, announcements ~c_buy, s_cancel
//   sequence6/*  : e1·e2·…·e6, guard of e6 (□e1 ∧ … ∧ □e5), announcements e1 … e5
//   sequence6x3/*: the same with e6 also under e6·g1·g2 and ~e6 + h (a wider guard)
// Both variants must end with the same guard (else SkipWithError). Reported as ns per
// announcement; 5 repetitions by default, aggregates only; the median ratio is printed at the end.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "actors/guards/event_parser.hpp"
#include "actors/guards/guard_synthesis.hpp"
#include "actors/guards/residuation.hpp"
#include "bench/median_reporter.hpp"

namespace {

using namespace cwf::guards;

struct Case {
  std::vector<std::string> dependencies;
  Literal target;
  std::vector<Literal> announcements;
};

const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> all = {
      {"order", {{"~e + ~f + e.f"}, {"f", false}, {{"e", true}}}},
      {"example4",
       {{"~s_buy + s_book", "~c_buy + c_book.c_buy", "~c_book + c_buy + s_cancel"},
        {"c_book", false},
        {{"c_buy", true}, {"s_cancel", false}}}},
      {"sequence6",
       {{"e1.e2.e3.e4.e5.e6"},
        {"e6", false},
        {{"e1", false}, {"e2", false}, {"e3", false}, {"e4", false}, {"e5", false}}}},
      {"sequence6x3",
       {{"e1.e2.e3.e4.e5.e6", "~e6 + e6.g1.g2", "~e6 + h"},
        {"e6", false},
        {{"e1", false}, {"e2", false}, {"e3", false}, {"e4", false}, {"e5", false}}}},
  };
  return all;
}

std::vector<EventExpr> parse_all(const std::vector<std::string>& texts) {
  std::vector<EventExpr> out;
  for (const std::string& text : texts)
    out.push_back(normalise(parse_event_expression(text)));
  return out;
}

void BM_Announce(benchmark::State& state, std::string name, bool recompute) {
  const Case& c = cases().at(name);
  const std::vector<EventExpr> dependencies = parse_all(c.dependencies);
  const Guard initial = guard_in_workflow(dependencies, c.target);
  std::string final_text;
  for (auto _ : state) {
    if (recompute) {
      std::vector<EventExpr> residual = dependencies;
      Guard g = initial;
      for (const Literal& l : c.announcements) {
        for (EventExpr& d : residual)
          d = residuate(d, l);
        g = guard_in_workflow(residual, c.target);
        benchmark::DoNotOptimize(g);
      }
      final_text = g.text();
    } else {
      Guard g = initial;
      for (const Literal& l : c.announcements) {
        g.announce_happened(l);
        benchmark::DoNotOptimize(g);
      }
      final_text = g.text();
    }
  }
  // Both ways must agree on the guard left after the last announcement.
  Guard expected = initial;
  for (const Literal& l : c.announcements)
    expected.announce_happened(l);
  std::vector<EventExpr> residual = dependencies;
  for (const Literal& l : c.announcements)
    for (EventExpr& d : residual)
      d = residuate(d, l);
  if (expected.text() != guard_in_workflow(residual, c.target).text())
    state.SkipWithError(("the two ways disagree: " + expected.text()).c_str());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(c.announcements.size()));
}

class RatioReporter final : public cwf_bench::MedianReporter {
 public:
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nMedians of this run, ns per announcement:\n");
    std::printf("  %-12s %12s %12s %9s\n", "case", "simplify", "recompute", "ratio");
    for (const auto& [name, c] : cases()) {
      double simplify = rate(name + "/simplify"), recompute = rate(name + "/recompute");
      if (simplify <= 0 || recompute <= 0) continue;
      std::printf("  %-12s %12.0f %12.0f %8.1fx\n", name.c_str(), 1e9 / simplify, 1e9 / recompute,
                  simplify / recompute);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  cwf_bench::initialize_with_defaults(
      argc, argv, {"--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"});
  for (const auto& [name, c] : cases()) {
    benchmark::RegisterBenchmark((name + "/simplify").c_str(), BM_Announce, name, false)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((name + "/recompute").c_str(), BM_Announce, name, true)
        ->Unit(benchmark::kMicrosecond);
  }
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
