// The dissertation's window and time semantics (Neophytou, "Continuous Workflows: From Model to
// Enactment System", section 3.2.2), run through `cwf` on small workflows under every director,
// policy and worker count (kEveryDirector) and on both clocks, each against one output computed
// by hand from the text and docs/workflow-yaml.md (#windows): the same result everywhere.
//
// Cases that only replay data use event timestamps and no pacing, so they cannot depend on
// timing. Cases about time-driven decisions (formation timeouts, the closing of wave windows
// before later events, source timers) need a source that waits: it is paced on the clock, and
// every two things the expected output orders are at least 150 ms apart on it, which the virtual
// clock keeps exactly and the real clock keeps unless the machine stalls that long.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "process.hpp"

namespace cwf::testing {
namespace {

namespace fs = std::filesystem;

struct SemanticsCase {
  std::string name;
  std::string workflow;                     // workflow.yaml
  std::map<std::string, std::string> data;  // further files beside it
  std::vector<std::string> expected;        // every line, each stream in its order
  // Empty: the output is `expected` line for line. Otherwise its lines fall into streams (the
  // first group this regular expression captures), which interleave in any order; each stream
  // keeps its own order.
  std::string streams = {};
  // Pairs of lines of different streams: the first is printed before the second.
  std::vector<std::pair<std::string, std::string>> before = {};
  int status = 0;
};

// ---- 1. A token step with a time size looks back -------------------------------------------
// Item 5 of the size/step combinations (dissertation section 3.2.2.1): "Every x tokens produce a
// window of size y seconds. For example, if an activity requires the last 5 seconds worth of
// data, for each token entering the queue, then it would define the step as 1 token and the size
// as 5 seconds." Window k ends at the (k*x)-th token (0-based: the 1st, the (x+1)-th, ...), at
// time t, and holds the events in (t - 5 s, t] that arrived up to it.
//
// Events at 0, 2, 5, 7, 8, 14 and 19 s:
//   step 1 token:  t=0 (-5,0] {0}; t=2 (-3,2] {0,2}; t=5 (0,5] {2,5} (0 is out: the start is
//                  open); t=7 (2,7] {5,7}; t=8 (3,8] {5,7,8}; t=14 (9,14] {14}; t=19 (14,19] {19}.
//   step 2 tokens: the 1st, 3rd, 5th and 7th tokens: t=0 {0}; t=5 {2,5}; t=8 {5,7,8}; t=19 {19}.
// Expiry (CWP6: "The queues emit events on this queue whenever the step function is applied on
// the window"): after the window at t the events at or before t - 5 s can be in no later window
// and leave, oldest first: t=5: 0; t=7: 2; t=14: 5, 7, 8; t=19: 14. 19 could still be in the next
// window; no step is applied after the end of input, so it stays.
const SemanticsCase kLookBack = {
    "look_back",
    R"yaml(name: look-back
actors:
  readings: {type: jsonl_source, path: readings.jsonl, time: /s}
  seconds: {type: map, expression: /s}
  each:
    type: expression
    emit: "concat('each token (', str(window_start / 1000000000), ', ', str(window_end / 1000000000), '] ', str(window))"
  every_2:
    type: expression
    emit: "concat('every 2 tokens (', str(window_start / 1000000000), ', ', str(window_end / 1000000000), '] ', str(window))"
  left: {type: map, expression: "concat('expired ', str(/))"}
  out: {type: stdout, format: text}
connections:
  - readings -> seconds
  - {from: seconds, to: each, window: {size: 5 s, step: 1 token, expired_to: left.in}}
  - {from: seconds, to: every_2, window: {size: 5 s, step: 2 tokens}}
  - each -> out
  - every_2 -> out
  - left -> out
)yaml",
    {{"readings.jsonl",
      "{\"s\": 0}\n{\"s\": 2}\n{\"s\": 5}\n{\"s\": 7}\n{\"s\": 8}\n{\"s\": 14}\n{\"s\": 19}\n"}},
    {"each token (-5, 0] [0]", "each token (-3, 2] [0,2]", "each token (0, 5] [2,5]",
     "each token (2, 7] [5,7]", "each token (3, 8] [5,7,8]", "each token (9, 14] [14]",
     "each token (14, 19] [19]", "every 2 tokens (-5, 0] [0]", "every 2 tokens (0, 5] [2,5]",
     "every 2 tokens (3, 8] [5,7,8]", "every 2 tokens (14, 19] [19]", "expired 0", "expired 2",
     "expired 5", "expired 7", "expired 8", "expired 14"},
    "^(each|every|expired)"};

// ---- 2. Expired events leave oldest first, for every kind of window --------------------------
// "When events expire they are pushed to an expired items queue" (section 3.2.2); CWP6: "The
// queues emit events on this queue whenever the step function is applied on the window. Any event
// that came before the current window starting event is emitted in this queue." Used events that
// were not deleted (no delete_used here) expire too; they leave in the order they arrived.
//
// Six orders, split into items (each order one wave, its items at the order's time):
//   W1 at 1 s: 11, 12   W2 at 3 s: 21   W3 at 12 s: 31, 32, 33   W4 at 14 s: 41
//   W5 at 25 s: 51, 52  W6 at 31 s: 61
// Windows (docs/workflow-yaml.md: the step places window k's lower bound, the size takes from it;
// no step: the window of each event looks back from it) and what expires, in order:
//   k01 1 token / 4 tokens: tokens 0, 4, 8: [11] [32] [52]; after each window the tokens before
//       the next lower bound (4, 8, 12) leave: all ten, in arrival order.
//   k02 5 s / 2 tokens (looks back from tokens 0, 2, 4, 6, 8): [11] (12 arrives after it)
//       [11,12,21] (-2,3] [31,32] (7,12] [31,32,33,41] (9,14] [51,52] (20,25]; after t=12: 11, 12,
//       21 (at or before 7 s); after t=25: 31, 32, 33, 41. 51, 52, 61 could be in the next window.
//   k03 1 wave / 1 token: every token, its wave from it on: [11,12] [12] [21] [31,32,33] [32,33]
//       [33] [41] [51,52] [52] [61]; each leaves after its own window: all ten.
//   k04 2 tokens / 10 s: periods [0,10) [10,20) [20,30) [30,40), the first 2 tokens of each:
//       [11,12] [31,32] [51,52] [61]; each period's events leave at its step: all ten.
//   k05 5 s / 10 s: [0,5) [10,15) [20,25) [30,35): [11,12,21] [31,32,33,41] [] [61]; all ten.
//   k06 1 wave / 10 s: the first wave with an event in each period: [11,12] [31,32,33] [51,52]
//       [61]; all ten (21 and 41 in no window).
//   k07 3 tokens / 1 wave: every wave, 3 tokens from its first on: [11,12,21] [21,31,32]
//       [31,32,33] [41,51,52] [51,52,61] [61] (partial, at the end of input); all ten.
//   k08 10 s / 1 wave: every wave, 10 s from its first event: [1,11) [11,12,21]; [3,13)
//       [21,31,32,33]; [12,22) [31,32,33,41]; [14,24) [41]; [25,35) [51,52,61]; [31,41) [61];
//       all ten.
//   k09 1 wave / 2 waves: W1, W3, W5: [11,12] [31,32,33] [51,52]; all ten.
//   k10 2 tokens, no step: the last 2 tokens at every token: [11] [11,12] [12,21] [21,31] [31,32]
//       [32,33] [33,41] [41,51] [51,52] [52,61]; a token leaves when the next window no longer
//       holds it, one at a time: 11 ... 52; 61 stays.
//   k11 5 s, no step: (t-5, t] at every token: [11] [11,12] [11,12,21] [31] [31,32] [31,32,33]
//       [31,32,33,41] [51] [51,52] [61]; at 12 s: 11, 12, 21; at 25 s: 31, 32, 33, 41; at 31 s:
//       51, 52 (several at once, oldest first); 61 stays.
//   k12 2 waves, no step: at every token, the last 2 waves as far as they arrived: [11] [11,12]
//       [11,12,21] [21,31] [21,31,32] [21,31,32,33] [31,32,33,41] [41,51] [41,51,52]
//       [51,52,61]; W1 leaves at 31 (W3), W2 at 41 (W4), W3 at 51 (W5), W4 at 61 (W6).
const std::vector<std::pair<std::string, std::string>> kExpiryKinds = {
    {"k01", "size: 1 token, step: 4 tokens"},
    {"k02", "size: 5 s, step: 2 tokens"},
    {"k03", "size: 1 wave, step: 1 token"},
    {"k04", "size: 2 tokens, step: 10 s"},
    {"k05", "size: 5 s, step: 10 s"},
    {"k06", "size: 1 wave, step: 10 s"},
    {"k07", "size: 3 tokens, step: 1 wave"},
    {"k08", "size: 10 s, step: 1 wave"},
    {"k09", "size: 1 wave, step: 2 waves"},
    {"k10", "size: 2 tokens"},
    {"k11", "size: 5 s"},
    {"k12", "size: 2 waves"},
};

std::string expiry_workflow() {
  std::string actors =
      "name: expiry\nactors:\n"
      "  orders: {type: jsonl_source, path: orders.jsonl, time: /s}\n"
      "  items: {type: split, path: /items}\n"
      "  out: {type: stdout, format: text}\n";
  std::string connections = "connections:\n  - orders -> items\n";
  for (const auto& [kind, window] : kExpiryKinds) {
    actors += "  " + kind + ": {type: expression, emit: \"concat('" + kind +
              " window ', str(window))\"}\n";
    actors += "  " + kind + "_left: {type: map, expression: \"concat('" + kind +
              " expired ', str(/))\"}\n";
    connections += "  - {from: items, to: " + kind + ", window: {" + window +
                   ", expired_to: " + kind + "_left.in}}\n";
    connections += "  - " + kind + " -> out\n  - " + kind + "_left -> out\n";
  }
  return actors + connections;
}

std::vector<std::string> expiry_expected() {
  const std::vector<std::string> all = {"11", "12", "21", "31", "32", "33", "41", "51", "52", "61"};
  auto first = [&all](std::size_t n) {
    return std::vector<std::string>(all.begin(), all.begin() + n);
  };
  const std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> kinds =
      {
          {"k01", {{"[11]", "[32]", "[52]"}, all}},
          {"k02", {{"[11]", "[11,12,21]", "[31,32]", "[31,32,33,41]", "[51,52]"}, first(7)}},
          {"k03",
           {{"[11,12]", "[12]", "[21]", "[31,32,33]", "[32,33]", "[33]", "[41]", "[51,52]", "[52]",
             "[61]"},
            all}},
          {"k04", {{"[11,12]", "[31,32]", "[51,52]", "[61]"}, all}},
          {"k05", {{"[11,12,21]", "[31,32,33,41]", "[]", "[61]"}, all}},
          {"k06", {{"[11,12]", "[31,32,33]", "[51,52]", "[61]"}, all}},
          {"k07",
           {{"[11,12,21]", "[21,31,32]", "[31,32,33]", "[41,51,52]", "[51,52,61]", "[61]"}, all}},
          {"k08",
           {{"[11,12,21]", "[21,31,32,33]", "[31,32,33,41]", "[41]", "[51,52,61]", "[61]"}, all}},
          {"k09", {{"[11,12]", "[31,32,33]", "[51,52]"}, all}},
          {"k10",
           {{"[11]", "[11,12]", "[12,21]", "[21,31]", "[31,32]", "[32,33]", "[33,41]", "[41,51]",
             "[51,52]", "[52,61]"},
            first(9)}},
          {"k11",
           {{"[11]", "[11,12]", "[11,12,21]", "[31]", "[31,32]", "[31,32,33]", "[31,32,33,41]",
             "[51]", "[51,52]", "[61]"},
            first(9)}},
          {"k12",
           {{"[11]", "[11,12]", "[11,12,21]", "[21,31]", "[21,31,32]", "[21,31,32,33]",
             "[31,32,33,41]", "[41,51]", "[41,51,52]", "[51,52,61]"},
            first(7)}},
      };
  std::vector<std::string> lines;
  for (const auto& [kind, expected] : kinds) {
    for (const std::string& window : expected.first)
      lines.push_back(kind + " window " + window);
    for (const std::string& item : expected.second)
      lines.push_back(kind + " expired " + item);
  }
  return lines;
}

const SemanticsCase kExpiry = {
    "expiry_oldest_first",
    expiry_workflow(),
    {{"orders.jsonl",
      "{\"s\": 1, \"items\": [11, 12]}\n{\"s\": 3, \"items\": [21]}\n"
      "{\"s\": 12, \"items\": [31, 32, 33]}\n{\"s\": 14, \"items\": [41]}\n"
      "{\"s\": 25, \"items\": [51, 52]}\n{\"s\": 31, \"items\": [61]}\n"}},
    expiry_expected(),
    "^(k\\d+ \\w+)"};

// ---- 3. A formation timeout closes a time window when no later event comes -------------------
// Section 3.2.2.1, "Window formation timeout": "a timeout to close a time-based window after
// T x x amount of time, where x is the size of the window ... if the event, which closes the
// window, does not arrive before the timeout, the window is automatically closed at the timeout,
// producing whatever events are currently within the window. Any event arriving after the
// timeout, which is also after the window's upper bound, with a timestamp before the upper bound,
// will be discarded". docs/workflow-yaml.md: on the clock, the timeout is the window's end + T x
// size, related to event time by the lag seen when the latest event arrived.
//
// Readings paced on the clock (the first at the clock's start): 1 at 0 ms and 2 at 100 ms reach
// the windows; 3 at 1050 ms goes elsewhere (printed); 4, stamped 200 ms, comes right after 3.
// Tumbling 300 ms windows:
//   prompt (T = 1): [0,300) closes at 600 ms with [1,2]; the empty [300,600) at 900 ms, both
//       before 3 is printed at 1050 ms; at 1050 ms 4 is late for [0,300) (closed) and discarded
//       (counted: exit status 3). [600,900) would close at 1200 ms, but the input ends at 1050 ms
//       and no event reached 600 ms, so it never opens.
//   patient (T = 20): [0,300) would close at 6300 ms; 4 arrives in time: [1,2,4] at the end.
const SemanticsCase kFormationTimeout = {
    "formation_timeout",
    R"yaml(name: formation-timeout
actors:
  readings: {type: jsonl_source, path: readings.jsonl, time: /ms, time_unit: ms, pace: real}
  to_windows: {type: filter, where: "/n != 3"}
  elsewhere: {type: filter, where: "/n == 3"}
  n: {type: map, expression: /n}
  prompt:
    type: expression
    emit: "concat('T=1 [', str(window_start / 1000000), ', ', str(window_end / 1000000), ') ', str(window))"
  patient:
    type: expression
    emit: "concat('T=20 [', str(window_start / 1000000), ', ', str(window_end / 1000000), ') ', str(window))"
  said: {type: map, expression: "concat('event 3 at ', str(/ms), ' ms')"}
  out: {type: stdout, format: text}
connections:
  - readings -> to_windows
  - readings -> elsewhere
  - to_windows -> n
  - {from: n, to: prompt, window: {size: 300 ms, step: 300 ms}}
  - {from: n, to: patient, window: {size: 300 ms, step: 300 ms, timeout: 20}}
  - elsewhere -> said
  - prompt -> out
  - patient -> out
  - said -> out
)yaml",
    {{"readings.jsonl",
      "{\"ms\": 0, \"n\": 1}\n{\"ms\": 100, \"n\": 2}\n{\"ms\": 1050, \"n\": 3}\n"
      "{\"ms\": 200, \"n\": 4}\n"}},
    {"T=1 [0, 300) [1,2]", "T=1 [300, 600) []", "T=20 [0, 300) [1,2,4]", "event 3 at 1050 ms"},
    "^(T=1|T=20|event)",
    {{"T=1 [0, 300) [1,2]", "event 3 at 1050 ms"}, {"T=1 [300, 600) []", "event 3 at 1050 ms"}},
    3};

// The same for the other windows that close by time (docs/workflow-yaml.md, `timeout`: "at the
// latest T x size (T x step when the size is not a time) after its end"), T = 1, empty windows
// suppressed. Readings 1 at 0 ms and 2 at 100 ms reach the windows; 3 at 1000 ms goes elsewhere;
// 4, stamped 50 ms, right after it, is late for each of them (4 late events: exit status 3).
//   parity (300 ms tumbling, one group per n % 2): [0,300) of group 1 holds [1], of group 0 [2];
//       both time out at 600 ms, in the order the groups began.
//   sliding (300 ms every 100 ms): [0,300) [1,2] at 600 ms; [100,400) [2] at 700 ms (after the
//       first timed out, the next times out in turn); [200,500) is empty.
//   tokens (3 tokens every 300 ms): [0,300) has 2 tokens only; it closes at 300 + 300 = 600 ms.
//   per wave (300 ms from each wave, each reading its own wave): [0,300) [1,2] at 600 ms,
//       [100,400) [2] at 700 ms.
// Everything is printed before 3 at 1000 ms.
const SemanticsCase kTimeoutsPerKind = {
    "formation_timeout_every_kind",
    R"yaml(name: formation-timeouts
actors:
  readings: {type: jsonl_source, path: readings.jsonl, time: /ms, time_unit: ms, pace: real}
  to_windows: {type: filter, where: "/n != 3"}
  elsewhere: {type: filter, where: "/n == 3"}
  n: {type: map, expression: /n}
  parity:
    type: expression
    emit: "concat('parity ', str(group), ' [', str(window_start / 1000000), ', ', str(window_end / 1000000), ') ', str(window))"
  sliding:
    type: expression
    emit: "concat('sliding [', str(window_start / 1000000), ', ', str(window_end / 1000000), ') ', str(window))"
  tokens:
    type: expression
    emit: "concat('tokens [', str(window_start / 1000000), ', ', str(window_end / 1000000), ') ', str(window))"
  per_wave:
    type: expression
    emit: "concat('per wave [', str(window_start / 1000000), ', ', str(window_end / 1000000), ') ', str(window))"
  said: {type: map, expression: "concat('event 3 at ', str(/ms), ' ms')"}
  out: {type: stdout, format: text}
connections:
  - readings -> to_windows
  - readings -> elsewhere
  - to_windows -> n
  - {from: n, to: parity, window: {size: 300 ms, step: 300 ms, group_by: "/ % 2", suppress_empty: true}}
  - {from: n, to: sliding, window: {size: 300 ms, step: 100 ms, suppress_empty: true}}
  - {from: n, to: tokens, window: {size: 3 tokens, step: 300 ms, suppress_empty: true}}
  - {from: n, to: per_wave, window: {size: 300 ms, step: 1 wave}}
  - elsewhere -> said
  - parity -> out
  - sliding -> out
  - tokens -> out
  - per_wave -> out
  - said -> out
)yaml",
    {{"readings.jsonl",
      "{\"ms\": 0, \"n\": 1}\n{\"ms\": 100, \"n\": 2}\n{\"ms\": 1000, \"n\": 3}\n"
      "{\"ms\": 50, \"n\": 4}\n"}},
    {"parity 1 [0, 300) [1]", "parity 0 [0, 300) [2]", "sliding [0, 300) [1,2]",
     "sliding [100, 400) [2]", "tokens [0, 300) [1,2]", "per wave [0, 300) [1,2]",
     "per wave [100, 400) [2]", "event 3 at 1000 ms"},
    "^(parity|sliding|tokens|per wave|event)",
    {{"parity 0 [0, 300) [2]", "event 3 at 1000 ms"},
     {"sliding [100, 400) [2]", "event 3 at 1000 ms"},
     {"tokens [0, 300) [1,2]", "event 3 at 1000 ms"},
     {"per wave [100, 400) [2]", "event 3 at 1000 ms"}},
    3};

// The same inside a sub-workflow, whose director runs only when its actor fires: its windows
// time out on the same clock, and close at the end of the input like any others. Two stages, one
// on the default inner director and one threaded, each with a 300 ms tumbling window (T = 1,
// empty windows suppressed) and a 5-token window. Readings 1 at 0 ms and 2 at 100 ms enter both;
// 3 at 1000 ms goes elsewhere. [0,300) [1,2] times out at 600 ms, before 3 is printed; the
// 5-token window holds [1,2] when the input ends (section 3.2.2.1, combination 4, and
// docs/workflow-yaml.md: at the end of input every window whose lower bound was reached closes).
const SemanticsCase kSubWorkflow = {
    "sub_workflow_windows",
    R"yaml(name: sub-workflow-windows
actors:
  readings: {type: jsonl_source, path: readings.jsonl, time: /ms, time_unit: ms, pace: real}
  to_stages: {type: filter, where: "/n != 3"}
  elsewhere: {type: filter, where: "/n == 3"}
  n: {type: map, expression: /n}
  scheduled: {workflow: stage.yaml}
  threaded: {workflow: stage.yaml, director: {type: threaded}}
  from_scheduled: {type: map, expression: "concat('scheduled: ', /)"}
  from_threaded: {type: map, expression: "concat('threaded: ', /)"}
  said: {type: map, expression: "concat('event 3 at ', str(/ms), ' ms')"}
  out: {type: stdout, format: text}
connections:
  - readings -> to_stages
  - readings -> elsewhere
  - to_stages -> n
  - n -> scheduled
  - n -> threaded
  - scheduled -> from_scheduled
  - threaded -> from_threaded
  - elsewhere -> said
  - from_scheduled -> out
  - from_threaded -> out
  - said -> out
)yaml",
    {{"readings.jsonl",
      "{\"ms\": 0, \"n\": 1}\n{\"ms\": 100, \"n\": 2}\n{\"ms\": 1000, \"n\": 3}\n"},
     {"stage.yaml", R"yaml(name: stage
inputs: [numbers]
outputs: [results]
actors:
  timed:
    type: expression
    emit: "concat('[', str(window_start / 1000000), ', ', str(window_end / 1000000), ') ', str(window))"
  counted: {type: expression, emit: "concat('5 tokens ', str(window))"}
connections:
  - {from: numbers, to: timed, window: {size: 300 ms, step: 300 ms, suppress_empty: true}}
  - {from: numbers, to: counted, window: {size: 5 tokens, step: 5 tokens}}
  - timed -> results
  - counted -> results
)yaml"}},
    {"scheduled: [0, 300) [1,2]", "scheduled: 5 tokens [1,2]", "threaded: [0, 300) [1,2]",
     "threaded: 5 tokens [1,2]", "event 3 at 1000 ms"},
    "^(scheduled: \\[|scheduled: 5|threaded: \\[|threaded: 5|event)",
    {{"scheduled: [0, 300) [1,2]", "event 3 at 1000 ms"},
     {"threaded: [0, 300) [1,2]", "event 3 at 1000 ms"}}};

// An event behind the latest one is late when an earlier event closed its window, whatever the
// director: "an event belonging to the next window has to appear to close the current window"
// and a later event "with a timestamp before the upper bound, will be discarded" (section
// 3.2.2.1). 200 readings at 0, 1, ..., 199 s, except the 101st, stamped 50 s: by then the
// reading at 60 s has closed [50 s, 60 s). Tumbling 10 s windows: 10 readings each, 9 in
// [100 s, 110 s); the 101st is late (exit status 3). More readings than the source reads per
// firing, so that the windows before it are closed but not all handed to the actor yet, in an
// order that differs between directors.
std::string out_of_order_readings() {
  std::string lines;
  for (int i = 0; i < 200; ++i)
    lines += "{\"s\": " + std::to_string(i == 100 ? 50 : i) + "}\n";
  return lines;
}

std::vector<std::string> out_of_order_expected() {
  std::vector<std::string> lines;
  for (int start = 0; start < 200; start += 10)
    lines.push_back("[" + std::to_string(start) + " s, " + std::to_string(start + 10) + " s) " +
                    (start == 100 ? "9" : "10") + " readings");
  return lines;
}

const SemanticsCase kOutOfOrder = {"late_after_a_later_event",
                                   R"yaml(name: late-after-a-later-event
actors:
  readings: {type: jsonl_source, path: readings.jsonl, time: /s}
  count:
    type: expression
    emit: "concat('[', str(window_start / 1000000000), ' s, ', str(window_end / 1000000000), ' s) ', str(len(window)), ' readings')"
  out: {type: stdout, format: text}
connections:
  - {from: readings, to: count, window: {size: 10 s, step: 10 s}}
  - count -> out
)yaml",
                                   {{"readings.jsonl", out_of_order_readings()}},
                                   out_of_order_expected(),
                                   "",
                                   {},
                                   3};

// ---- 4. A wave window closes as soon as its wave is complete --------------------------------
// Combination 9 (section 3.2.2.1): "Every x waves produce a window of size y waves ... an
// order_completion activity needs to synchronize the responses from the warehouse belonging to
// the same order to notify the user of its completion." A wave is complete when all of it has
// arrived or been replaced by a punctuation (docs/workflow-yaml.md): here the filter drops item 2
// of order A and sends a punctuation in its place.
//
// Orders paced on the clock: A (items 1, 2, 3) at 0 ms, B (item 4) at 500 ms. A's window [1,3]
// is complete at 0 ms and printed before B arrives; B's arrival is printed by another branch.
const SemanticsCase kWaveWindow = {
    "wave_window_closes_when_complete",
    R"yaml(name: wave-window
actors:
  orders: {type: jsonl_source, path: orders.jsonl, time: /ms, time_unit: ms, pace: real}
  items: {type: split, path: /items}
  kept: {type: filter, where: "/ != 2"}
  complete: {type: expression, emit: "concat('order complete ', str(window))"}
  later: {type: filter, where: "/order == 'B'"}
  arrived: {type: map, expression: "concat('order ', /order, ' arrived at ', str(/ms), ' ms')"}
  out: {type: stdout, format: text}
connections:
  - orders -> items
  - items -> kept
  - {from: kept, to: complete, window: {size: 1 wave, step: 1 wave}}
  - orders -> later
  - later -> arrived
  - complete -> out
  - arrived -> out
)yaml",
    {{"orders.jsonl",
      "{\"ms\": 0, \"order\": \"A\", \"items\": [1, 2, 3]}\n"
      "{\"ms\": 500, \"order\": \"B\", \"items\": [4]}\n"}},
    {"order complete [1,3]", "order complete [4]", "order B arrived at 500 ms"},
    "^(order complete|order B)",
    {{"order complete [1,3]", "order B arrived at 500 ms"}}};

// ---- 5. Timers fire in the order of their times ---------------------------------------------
// Sources that wait for a time on the clock (fire_again_at): a generator every 300 ms from the
// start (0, 300, 600 ms) and two time events 150 ms and 450 ms after the start. Whatever the
// director, each fires when the clock reaches its time, after everything due earlier: the lines
// come in the order of the times.
const SemanticsCase kTimers = {
    "timers_in_time_order",
    R"yaml(name: timers
actors:
  ticks: {type: generator, count: 3, interval: 300 ms, value: "concat('tick ', str(i * 300), ' ms')"}
  early: {type: eca_time_events, name: early, after: 150 ms}
  late: {type: eca_time_events, name: late, after: 450 ms}
  said: {type: map, expression: "concat('time event ', /type)"}
  out: {type: stdout, format: text}
connections:
  - ticks -> out
  - early -> said
  - late -> said
  - said -> out
)yaml",
    {},
    {"tick 0 ms", "time event TIME(early)", "tick 300 ms", "time event TIME(late)", "tick 600 ms"}};

// ---- 6. What a time step's window of N tokens did not take expires, however it arrived ------
// CWP6 (section 3.2.2.2): events no window uses leave the queue on its expired route. A window
// of 1 token every 10 s takes the first reading of each period; the others of the period are in
// no window. Whether they were already queued when the period's window was formed (a source
// reading many lines per firing) or arrive after it (one line per firing, as here) must not
// matter: they expire, oldest first, and none is late.
//   readings at 1, 4, 8 | 12, 15 | 31, 33 s: sampled 1, 4, 6; expired 2, 3, 5, 7.
const SemanticsCase kSampleExpires = {
    "sample_expires_what_it_does_not_take",
    R"yaml(name: sample-expires
actors:
  readings: {type: jsonl_source, path: readings.jsonl, time: /s, batch: 1}
  sample: {type: expression, emit: "concat('sampled ', str(/seq), ' at ', str(/s), ' s')"}
  skipped: {type: map, expression: "concat('expired ', str(/seq), ' at ', str(/s), ' s')"}
  out: {type: stdout, format: text}
connections:
  - from: readings
    to: sample
    window: {size: 1 token, step: 10 s, delete_used: true, suppress_empty: true,
             expired_to: skipped.in}
  - sample -> out
  - skipped -> out
)yaml",
    {{"readings.jsonl",
      "{\"seq\": 1, \"s\": 1}\n{\"seq\": 2, \"s\": 4}\n{\"seq\": 3, \"s\": 8}\n"
      "{\"seq\": 4, \"s\": 12}\n{\"seq\": 5, \"s\": 15}\n{\"seq\": 6, \"s\": 31}\n"
      "{\"seq\": 7, \"s\": 33}\n"}},
    {"sampled 1 at 1 s", "sampled 4 at 12 s", "sampled 6 at 31 s", "expired 2 at 4 s",
     "expired 3 at 8 s", "expired 5 at 15 s", "expired 7 at 33 s"},
    "^(sampled|expired)"};

// ---- 7. Windows on a cycle close in the order of their times ---------------------------------
// A window's results that come back round a cycle of connections fall into its later windows.
// Once the source is done, no event comes from outside, but events still come round: the end of
// input must not close every window at once, or the first of a round's events to come back would
// close its window alone and the others would be late. Time moves to each window's end instead
// (docs/workflow-yaml.md, "End of input"). Two readings at 0 and 100 ms; each window's result
// comes back twice, by a short path and a long one, one round later, for two more rounds:
//   [0, 300): the 2 readings; [300, 600): 2 (round 1); [600, 900): 2 (round 2).
// ---- Groups that end when quiet (window key `idle`) -------------------------------------------
// docs/workflow-yaml.md, "Windows": a group whose latest event is `idle` or more behind the port's
// latest ends as it would at the end of input (its partial windows close, what is left expires)
// and its key's next event starts a new group. Cars report every 30 s; windows of each car's
// last two reports ({2 tokens, step 1 token, group_by /car}), idle 60 s:
//   car 1 at 0, 30; car 2 at 30, 60; car 3 at 120 (car 1 has been quiet 90 s, car 2 exactly
//   60 s: both end, each with its partial window [30], [60]); car 1 again at 150, 180: a new
//   group, whose first window is [150 180], not [30 150].
// Expired, per car in arrival order: 0 after [0 30], 30 after car 1's last window [30]; 30 and
// 60 for car 2; 150 after [150 180]; at the end of input the partial windows [180] and [120]
// close, and their events leave after them as every used event does.
const SemanticsCase kIdleGroups = {
    "idle_groups",
    R"yaml(name: idle-groups
actors:
  reports: {type: jsonl_source, path: reports.jsonl, time: /s}
  pairs:
    type: expression
    emit: "concat('car ', str(group), ':', str(window[0]/s), if(len(window) > 1, concat(' ', str(window[1]/s)), ''))"
  left: {type: map, expression: "concat('expired car ', str(/car), ':', str(/s))"}
  out: {type: stdout, format: text}
connections:
  - {from: reports, to: pairs, window: {size: 2 tokens, step: 1 token, group_by: /car, idle: 60 s, expired_to: left.in}}
  - pairs -> out
  - left -> out
)yaml",
    {{"reports.jsonl",
      "{\"car\": 1, \"s\": 0}\n{\"car\": 1, \"s\": 30}\n{\"car\": 2, \"s\": 30}\n"
      "{\"car\": 2, \"s\": 60}\n{\"car\": 3, \"s\": 120}\n{\"car\": 1, \"s\": 150}\n"
      "{\"car\": 1, \"s\": 180}\n"}},
    {"car 1:0 30", "car 1:30", "car 1:150 180", "car 1:180", "car 2:30 60", "car 2:60", "car 3:120",
     "expired car 1:0", "expired car 1:30", "expired car 1:150", "expired car 1:180",
     "expired car 2:30", "expired car 2:60", "expired car 3:120"},
    "^((?:expired )?car [0-9])"};

const SemanticsCase kCycle = {
    "cycle_windows_close_in_time_order",
    R"yaml(name: cycle-windows
actors:
  readings: {type: jsonl_source, path: readings.jsonl, time: /ms, time_unit: ms}
  rounds:
    type: expression
    emit: "{round: window[0]/round, n: len(window), from: window_start / 1000000, to: window_end / 1000000}"
  said: {type: map, expression: "concat('round ', str(/round), ': ', str(/n), ' events in [', str(/from), ', ', str(/to), ') ms')"}
  again: {type: filter, where: "/round < 2"}
  short: {type: map, expression: "{round: /round + 1}"}
  long: {type: map, expression: "{round: /round + 1}"}
  longer: {type: map, expression: "{round: /round}"}
  out: {type: stdout, format: text}
connections:
  - {from: readings, to: rounds, window: {size: 300 ms, step: 300 ms, suppress_empty: true}}
  - rounds -> said
  - said -> out
  - rounds -> again
  - again -> short
  - again -> long
  - long -> longer
  - short -> rounds
  - longer -> rounds
)yaml",
    {{"readings.jsonl", "{\"ms\": 0, \"round\": 0}\n{\"ms\": 100, \"round\": 0}\n"}},
    {"round 0: 2 events in [0, 300) ms", "round 1: 2 events in [300, 600) ms",
     "round 2: 2 events in [600, 900) ms"}};

const std::vector<SemanticsCase> kCases = {
    kLookBack,   kExpiry,     kFormationTimeout, kTimeoutsPerKind, kSubWorkflow, kIdleGroups,
    kOutOfOrder, kWaveWindow, kTimers,           kSampleExpires,   kCycle};

std::map<std::string, std::vector<std::string>> by_stream(const std::vector<std::string>& lines,
                                                          const std::string& streams) {
  std::regex pattern(streams);
  std::map<std::string, std::vector<std::string>> result;
  for (const std::string& line : lines) {
    std::smatch match;
    result[std::regex_search(line, match, pattern) ? match[1].str() : ""].push_back(line);
  }
  return result;
}

struct SemanticsRun {
  const SemanticsCase* semantics;
  std::string director;
  std::string clock;
};

void PrintTo(const SemanticsRun& run, std::ostream* out) {
  *out << run.semantics->name << " " << run.director << " " << run.clock;
}

std::vector<SemanticsRun> every_run() {
  std::vector<SemanticsRun> runs;
  for (const SemanticsCase& c : kCases)
    for (const std::string& director : kEveryDirector)
      for (const char* clock : {"virtual", "real"})
        runs.push_back({&c, director, clock});
  return runs;
}

std::string run_label(const SemanticsRun& run) {
  return run.semantics->name + "_" + director_label(run.director) + "_" + run.clock;
}

class WindowSemantics : public ::testing::TestWithParam<SemanticsRun> {};

TEST_P(WindowSemantics, GiveTheHandComputedOutput) {
  const SemanticsRun& run = GetParam();
  const SemanticsCase& c = *run.semantics;
  const fs::path folder =
      fs::path(::testing::TempDir()) /
      ("cwf_window_semantics_" + std::to_string(::getpid()) + "_" + run_label(run));
  fs::create_directories(folder);
  std::ofstream(folder / "workflow.yaml") << c.workflow;
  for (const auto& [name, text] : c.data)
    std::ofstream(folder / name) << text;

  std::vector<std::string> args = {"run", (folder / "workflow.yaml").string()};
  for (const std::string& a : director_args(run.director))
    args.push_back(a);
  args.push_back("--clock");
  args.push_back(run.clock);
  ProcessResult result = run_cwf(args);
  fs::remove_all(folder);

  ASSERT_EQ(result.status, c.status) << result.err;
  std::vector<std::string> lines = lines_of(result.out);
  if (c.streams.empty()) {
    EXPECT_EQ(lines, c.expected);
  } else {
    EXPECT_EQ(by_stream(lines, c.streams), by_stream(c.expected, c.streams));
  }
  for (const auto& [first, second] : c.before) {
    auto a = std::find(lines.begin(), lines.end(), first);
    auto b = std::find(lines.begin(), lines.end(), second);
    ASSERT_TRUE(a != lines.end() && b != lines.end()) << result.out;
    EXPECT_LT(a - lines.begin(), b - lines.begin())
        << "\"" << first << "\" is printed after \"" << second << "\":\n"
        << result.out;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDirectorAndClock, WindowSemantics, ::testing::ValuesIn(every_run()),
                         [](const auto& info) { return run_label(info.param); });

}  // namespace
}  // namespace cwf::testing
