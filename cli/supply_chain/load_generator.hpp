// The supply chain's load generator (`cwf supply-chain load`, docs/applications.md): the roles of
// seed 002 §4.7.1 played by programs against a running workflows/supply_chain/supply_chain.yaml.
// Customers "randomly pick some products from a list and submit them as an order" over the
// orders WebSocket; one manager per warehouse "wakes up in intervals and services orders from
// its work list" (its warehouse's WebSocket), answering each item shipped, or out of stock with a
// given probability. Every order must come back as one shipping notice whose counts match what
// the managers answered: an order without its notice when the time is up is missing, a notice
// that disagrees is wrong, and either makes the run fail.
//
// Everything runs on one Boost.Asio event loop on the calling thread (Beast WebSocket clients).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "runtime/time/clock.hpp"

namespace cwf::cli::supply_chain {

struct LoadOptions {
  std::string host = "127.0.0.1";
  unsigned short orders_port = 8441;
  unsigned short notices_port = 8442;
  unsigned short answers_port = 8446;
  // One manager per warehouse, each reading its work list from its port.
  std::vector<std::pair<std::string, unsigned short>> warehouses = {
      {"north", 8443}, {"south", 8444}, {"east", 8445}};
  int customers = 20;
  double orders_per_second = 1;                 // per customer, on average (exponential gaps)
  Duration service_every = 500 * kMillisecond;  // how often a manager services the work list
  double out_of_stock = 0.02;                   // chance that an item is reported out of stock
  Duration run_for = 60 * kSecond;              // customers place orders this long
  Duration grace = 30 * kSecond;                // then notices may take this long to arrive
  Duration report_every = 10 * kSecond;
  std::uint64_t seed = 1;
};

struct LoadReport {
  std::uint64_t orders = 0;        // placed
  std::uint64_t items = 0;         // in those orders
  std::uint64_t answered = 0;      // items the managers answered
  std::uint64_t out_of_stock = 0;  // of those, reported out of stock
  std::uint64_t notices = 0;       // for orders placed here, the first one each
  std::uint64_t missing = 0;       // orders with no notice in time
  std::uint64_t wrong = 0;         // notices whose counts disagree with the answers
  std::uint64_t duplicates = 0;    // a second notice for one order
  std::uint64_t foreign = 0;       // notices for orders placed by someone else (a browser)
  double latency_p50_ms = 0, latency_p99_ms = 0, latency_max_ms = 0;  // order to notice
  double seconds = 0;                                                 // the whole run
  std::vector<std::string> problems;  // connection failures, the first missing and wrong orders

  bool complete() const {
    return missing == 0 && wrong == 0 && duplicates == 0 && problems.empty();
  }
};

// Runs the roles until run_for has passed and then every order has its notice (or grace has
// passed); prints a line of progress every report_every to `progress`.
LoadReport run_load(const LoadOptions& options, std::ostream& progress);

}  // namespace cwf::cli::supply_chain
