// Writing an experiment's results: the per-second CSV, the summary (CSV and markdown) with each
// configuration's breaking point, and the gnuplot plots.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "experiments/harness.hpp"

namespace cwf::experiments {

namespace fs = std::filesystem;

namespace {

std::string number(double value, int precision = 6) {
  std::ostringstream text;
  text << std::setprecision(precision) << value;
  return text.str();
}
std::string optional_number(const std::optional<double>& value) {
  return value ? number(*value) : "";
}

struct Summary {
  std::string configuration;
  int runs = 0, broke = 0;
  double breaking_second = 0, breaking_rate = 0;   // means over the runs that broke
  double response_mean_s = 0, response_p99_s = 0;  // means over the runs
  double peak_input_rate = 0;
};

std::vector<Summary> summarise(const ExperimentResult& result) {
  std::vector<Summary> rows;
  for (const std::string& name : result.configurations) {
    Summary s;
    s.configuration = name;
    for (const RunResult& run : result.runs) {
      if (run.configuration != name) continue;
      ++s.runs;
      s.response_mean_s += run.response_mean_s;
      s.response_p99_s += run.response_p99_s;
      // Peak input: the highest 10-second mean.
      for (std::size_t i = 0; i < run.seconds.size(); ++i) {
        std::size_t from = i >= 9 ? i - 9 : 0;
        double sum = 0;
        for (std::size_t j = from; j <= i; ++j)
          sum += run.seconds[j].input_rate;
        s.peak_input_rate = std::max(s.peak_input_rate, sum / static_cast<double>(i - from + 1));
      }
      if (run.breaking.broke) {
        ++s.broke;
        s.breaking_second += run.breaking.second;
        s.breaking_rate += run.breaking.input_rate;
      }
    }
    if (s.runs > 0) {
      s.response_mean_s /= s.runs;
      s.response_p99_s /= s.runs;
    }
    if (s.broke > 0) {
      s.breaking_second /= s.broke;
      s.breaking_rate /= s.broke;
    }
    rows.push_back(s);
  }
  return rows;
}

std::string file_name(const std::string& configuration) {
  std::string name;
  for (char c : configuration)
    name += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return name;
}

}  // namespace

std::vector<std::string> result_columns(const std::vector<std::string>& actors) {
  std::vector<std::string> columns = {"experiment",   "configuration",   "repetition",
                                      "second",       "input_rate",      "output_rate",
                                      "responses",    "response_mean_s", "response_p99_s",
                                      "source_lag_s", "delay_s",         "queue_total"};
  for (const std::string& actor : actors)
    columns.push_back("queue_" + actor);
  for (const std::string& actor : actors)
    columns.push_back("cpu_" + actor);
  return columns;
}

std::string write_results(const ExperimentResult& result, const std::string& out_dir,
                          std::ostream& log) {
  fs::path dir(out_dir);
  fs::create_directories(dir);

  {
    std::ofstream csv(dir / "results.csv");
    std::vector<std::string> columns = result_columns(result.actors);
    for (std::size_t i = 0; i < columns.size(); ++i)
      csv << (i ? "," : "") << columns[i];
    csv << "\n";
    for (const RunResult& run : result.runs)
      for (const RunSecond& row : run.seconds) {
        csv << result.name << "," << run.configuration << "," << run.repetition << "," << row.second
            << "," << number(row.input_rate) << "," << number(row.output_rate) << ","
            << row.responses << "," << optional_number(row.response_mean_s) << ","
            << optional_number(row.response_p99_s) << "," << number(row.source_lag_s) << ","
            << optional_number(row.delay_s) << "," << row.queue_total;
        for (std::uint64_t q : row.queue)
          csv << "," << q;
        for (double c : row.cpu)
          csv << "," << number(c, 4);
        csv << "\n";
      }
  }

  std::vector<Summary> summary = summarise(result);
  std::ostringstream md;
  md << "| configuration | runs | broke | breaking second | input rate at break (tuples/s) | "
        "peak input (tuples/s) | mean response (s) | p99 response (s) |\n"
        "|---|---|---|---|---|---|---|---|\n";
  {
    std::ofstream csv(dir / "summary.csv");
    csv << "experiment,configuration,runs,broke,breaking_second,breaking_input_rate,"
           "peak_input_rate,response_mean_s,response_p99_s\n";
    for (const Summary& s : summary) {
      csv << result.name << "," << s.configuration << "," << s.runs << "," << s.broke << ","
          << (s.broke ? number(s.breaking_second) : "") << ","
          << (s.broke ? number(s.breaking_rate) : "") << "," << number(s.peak_input_rate) << ","
          << number(s.response_mean_s) << "," << number(s.response_p99_s) << "\n";
      md << "| " << s.configuration << " | " << s.runs << " | " << s.broke << " | "
         << (s.broke ? number(s.breaking_second, 4) : "did not break") << " | "
         << (s.broke ? number(s.breaking_rate, 4) : "-") << " | " << number(s.peak_input_rate, 4)
         << " | " << number(s.response_mean_s, 3) << " | " << number(s.response_p99_s, 3) << " |\n";
    }
  }
  std::ofstream(dir / "summary.md") << "# " << result.name << "\n\n" << md.str();

  // Plot data: per configuration and second, the means over the repetitions.
  std::ostringstream response_plot, input_plot;
  bool first = true;
  for (const std::string& name : result.configurations) {
    std::map<int, std::pair<double, int>> delay, input;
    for (const RunResult& run : result.runs) {
      if (run.configuration != name) continue;
      for (const RunSecond& row : run.seconds) {
        input[row.second].first += row.input_rate;
        ++input[row.second].second;
        if (row.delay_s) {
          delay[row.second].first += *row.delay_s;
          ++delay[row.second].second;
        }
      }
    }
    std::string data = "series-" + file_name(name) + ".dat";
    std::ofstream out(dir / data);
    out << "# second input_rate delay_s (means over the repetitions; - : no answer)\n";
    for (const auto& [second, sum] : input) {
      out << second << " " << number(sum.first / sum.second) << " ";
      auto d = delay.find(second);
      out << (d == delay.end() ? std::string("-") : number(d->second.first / d->second.second))
          << "\n";
    }
    response_plot << (first ? "" : ", ") << "'" << data << "' using 1:3 with lines lw 2 title '"
                  << name << "'";
    input_plot << (first ? "" : ", ") << "'" << data << "' using 1:2 with lines title '" << name
               << "'";
    first = false;
  }
  {
    std::ofstream gp(dir / "plot.gp");
    gp << "# gnuplot plot.gp (run in this folder)\n"
       << "set terminal pngcairo size 900,540 noenhanced\n"
       << "set datafile missing '-'\n"
       << "set key top left\n"
       << "set grid\n"
       << "set xlabel 'experiment time (s)'\n"
       << "set output 'response.png'\n"
       << "set title '" << result.name
       << ": response time of tolls and alerts (mean per second; source lag if larger)'\n"
       << "set ylabel 'response time (s)'\n"
       << "set logscale y\n"
       << "set arrow from graph 0, first " << result.response_limit_s << " to graph 1, first "
       << result.response_limit_s << " nohead dt 2\n"
       << "plot " << response_plot.str() << "\n"
       << "unset arrow\n"
       << "unset logscale y\n"
       << "set output 'input.png'\n"
       << "set title '" << result.name << ": input rate (tuples released per second)'\n"
       << "set ylabel 'tuples/s'\n"
       << "plot " << input_plot.str() << "\n";
  }
  std::string command = "cd '" + dir.string() + "' && gnuplot plot.gp 2>gnuplot.log";
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    log << "gnuplot is not installed: plots not drawn (" << (dir / "plot.gp").string() << ")\n";
  else if (std::system(command.c_str()) != 0)
    log << "gnuplot failed; see " << (dir / "gnuplot.log").string() << "\n";
  return md.str();
}

}  // namespace cwf::experiments
