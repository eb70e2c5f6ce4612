// `cwf supply-chain load`: plays the customers and warehouse managers of the supply chain against
// a running workflows/supply_chain/supply_chain.yaml (cli/supply_chain/load_generator.hpp).
#include <cmath>
#include <exception>
#include <iomanip>
#include <ostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/supply_chain/load_generator.hpp"
#include "runtime/time/duration.hpp"

namespace cwf::cli {

namespace {

const char* kUsage =
    "usage: cwf supply-chain load [--for DURATION] [--customers N] [--rate ORDERS_PER_S]\n"
    "           [--out-of-stock P] [--service-every DURATION] [--grace DURATION] [--seed N]\n"
    "           [--host ADDRESS] [--orders PORT] [--notices PORT] [--answers PORT]\n"
    "           [--warehouse NAME=PORT]...\n"
    "  plays the customers and warehouse managers of workflows/supply_chain/supply_chain.yaml\n"
    "  (which must be running) for a while, then waits for every order's shipping notice:\n"
    "  --for 60s of orders (default), --customers 20 placing --rate 1 order/s each on average,\n"
    "  one manager per warehouse (north=8443 south=8444 east=8445 unless --warehouse is given)\n"
    "  servicing its work list every --service-every 500ms and reporting an item out of stock\n"
    "  with probability --out-of-stock 0.02; notices may take --grace 30s after the last order.\n"
    "  Prints progress every 10 s and a summary; exits 0 when every order got one notice that\n"
    "  agrees with the managers' answers, 3 when one is missing or wrong, 1 when a connection\n"
    "  fails, 2 for bad usage.\n";

unsigned short port_of(const std::string& text, const char* option) {
  double port = parse_number(text, option);
  if (port < 1 || port > 65535 || port != std::floor(port))
    throw UsageError(std::string("--") + option + " expects a port from 1 to 65535 (got '" + text +
                     "')");
  return static_cast<unsigned short>(port);
}

Duration duration_of(const std::string& text, const char* option) {
  std::string reason;
  auto duration = try_parse_duration(text, &reason);
  if (!duration || *duration < 0)
    throw UsageError(std::string("--") + option + " expects a duration such as 30s (got '" + text +
                     "')");
  return *duration;
}

int load(const Words& words, std::ostream& out, std::ostream& err) {
  supply_chain::LoadOptions options;
  try {
    Arguments args(words, {},
                   {"for", "customers", "rate", "out-of-stock", "service-every", "grace", "seed",
                    "host", "orders", "notices", "answers", "warehouse"});
    if (!args.positional().empty())
      throw UsageError("unexpected argument '" + args.positional().front() + "'");
    if (auto v = args.value("for")) options.run_for = duration_of(*v, "for");
    if (auto v = args.value("grace")) options.grace = duration_of(*v, "grace");
    if (auto v = args.value("service-every")) {
      options.service_every = duration_of(*v, "service-every");
      if (options.service_every == 0) throw UsageError("--service-every must be above 0");
    }
    if (auto v = args.value("customers")) {
      double n = parse_number(*v, "customers");
      if (n < 0 || n > 10000 || n != std::floor(n))
        throw UsageError("--customers expects a whole number from 0 to 10000 (got '" + *v + "')");
      options.customers = static_cast<int>(n);
    }
    if (auto v = args.value("rate")) {
      options.orders_per_second = parse_number(*v, "rate");
      if (!(options.orders_per_second > 0)) throw UsageError("--rate must be above 0");
    }
    if (auto v = args.value("out-of-stock")) {
      options.out_of_stock = parse_number(*v, "out-of-stock");
      if (options.out_of_stock < 0 || options.out_of_stock > 1)
        throw UsageError("--out-of-stock expects a probability from 0 to 1 (got '" + *v + "')");
    }
    if (auto v = args.value("seed"))
      options.seed = static_cast<std::uint64_t>(parse_number(*v, "seed"));
    if (auto v = args.value("host")) options.host = *v;
    if (auto v = args.value("orders")) options.orders_port = port_of(*v, "orders");
    if (auto v = args.value("notices")) options.notices_port = port_of(*v, "notices");
    if (auto v = args.value("answers")) options.answers_port = port_of(*v, "answers");
    if (!args.values("warehouse").empty()) {
      options.warehouses.clear();
      for (const std::string& given : args.values("warehouse")) {
        auto equals = given.find('=');
        if (equals == std::string::npos || equals == 0)
          throw UsageError("--warehouse expects NAME=PORT (got '" + given + "')");
        options.warehouses.emplace_back(given.substr(0, equals),
                                        port_of(given.substr(equals + 1), "warehouse"));
      }
    }
  } catch (const UsageError& e) {
    err << "cwf supply-chain load: " << e.what() << '\n' << kUsage;
    return 2;
  }
  supply_chain::LoadReport report;
  try {
    report = supply_chain::run_load(options, out);
  } catch (const std::exception& e) {
    err << "cwf supply-chain load: " << e.what() << '\n';
    return 1;
  }
  out << std::fixed << std::setprecision(1) << "supply-chain load: " << options.customers
      << " customers, " << options.warehouses.size() << " managers, " << report.seconds
      << " s\n  orders " << report.orders << " (" << report.items << " items), notices "
      << report.notices << ", missing " << report.missing << ", wrong " << report.wrong
      << ", duplicate " << report.duplicates << "\n  items answered " << report.answered
      << " (out of stock " << report.out_of_stock << "), notices for other customers "
      << report.foreign << "\n  order to notice: p50 " << report.latency_p50_ms << " ms, p99 "
      << report.latency_p99_ms << " ms, max " << report.latency_max_ms << " ms\n";
  for (const std::string& problem : report.problems)
    err << "cwf supply-chain load: " << problem << '\n';
  if (report.complete()) return 0;
  bool connection_failed = report.missing == 0 && report.wrong == 0 && report.duplicates == 0;
  return connection_failed ? 1 : 3;
}

}  // namespace

int supply_chain_command(const Words& words, std::ostream& out, std::ostream& err) {
  if (words.empty() || words[0] == "help" || wants_help(words)) {
    (words.empty() ? err : out) << kUsage;
    return words.empty() ? 2 : 0;
  }
  Words rest(words.begin() + 1, words.end());
  if (words[0] == "load") return load(rest, out, err);
  err << "cwf supply-chain: unknown command '" << words[0] << "'\n" << kUsage;
  return 2;
}

}  // namespace cwf::cli
