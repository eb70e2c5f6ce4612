// `cwf run --process K/N`: the part of the workflow that process K of N runs, its links to the
// others over NATS (docs/workflow-yaml.md, "Processes"; runtime/graph/process_placement.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "cli/arguments.hpp"
#include "runtime/graph/process_placement.hpp"
#include "runtime/graph/workflow.hpp"

namespace cwf::cli {

inline constexpr const char* kProcessValuedOptions[] = {"process", "nats", "run-id", "place"};

struct ProcessOptions {
  std::optional<int> process, processes;  // set with --process
  std::string nats = "nats://127.0.0.1:4222";
  std::string run_id = "run";
  std::map<std::string, int> place;  // --place NAME=K

  // Throws UsageError for a malformed option, or --nats/--run-id/--place without --process.
  static ProcessOptions parse(const Arguments& args);
  bool enabled() const { return process.has_value(); }
  // With --process: replaces `workflow` by the part this process runs (the file's placement,
  // then --place). Throws WorkflowError for a placement that does not fit the workflow.
  void apply(std::unique_ptr<Workflow>& workflow) const;
  // Whether `part` (after apply) runs `actor`, or one of its replicas.
  static bool runs(const Workflow& part, const std::string& actor);
};

}  // namespace cwf::cli
