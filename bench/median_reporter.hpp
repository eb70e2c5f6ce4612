// What every benchmark program shares: a console reporter that keeps the median (or the single
// run) of each benchmark for a summary of ratios printed after the table, and the command line
// with the program's defaults first, so that flags the user gives win.
#pragma once

#include <benchmark/benchmark.h>

#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cwf_bench {

class MedianReporter : public benchmark::ConsoleReporter {
 public:
  struct Median {
    double rate = 0;           // items_per_second, 0 when the benchmark sets none
    double wall = 0, cpu = 0;  // per iteration, in the benchmark's time unit
    std::map<std::string, double> counters;
  };

  explicit MedianReporter(OutputOptions options = OO_Defaults) : ConsoleReporter(options) {}
  // A benchmark reported an error (SkipWithError): the program should fail.
  bool failed() const { return failed_; }
  const std::map<std::string, Median>& medians() const { return medians_; }
  const Median* find(const std::string& name) const {
    auto it = medians_.find(name);
    return it == medians_.end() ? nullptr : &it->second;
  }
  // items_per_second of `name`, 0 when it did not run.
  double rate(const std::string& name) const {
    const Median* m = find(name);
    return m ? m->rate : 0;
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) {
        failed_ = true;
        continue;
      }
      bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      bool single = run.run_type == Run::RT_Iteration && run.repetitions <= 1;
      if (!median && !single) continue;
      Median m;
      for (const auto& [name, counter] : run.counters)
        m.counters[name] = counter.value;
      auto it = run.counters.find("items_per_second");
      if (it != run.counters.end()) m.rate = it->second.value;
      m.wall = run.GetAdjustedRealTime();
      m.cpu = run.GetAdjustedCPUTime();
      medians_[run.run_name.function_name] = std::move(m);
    }
  }

 private:
  std::map<std::string, Median> medians_;
  bool failed_ = false;
};

// benchmark::Initialize with `defaults` before the user's arguments.
inline void initialize_with_defaults(int argc, char** argv,
                                     std::initializer_list<const char*> defaults) {
  std::vector<std::string> storage(defaults.begin(), defaults.end());
  std::vector<char*> args{argv[0]};
  for (std::string& d : storage)
    args.push_back(d.data());
  for (int i = 1; i < argc; ++i)
    args.push_back(argv[i]);
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
}

}  // namespace cwf_bench
