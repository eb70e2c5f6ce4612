// `cwf gsm`: GSM business-artifact models: their PAC rules, their dependency graph, and the
// synthetic models of the scaling experiments.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>

#include "actors/gsm/compiled_model.hpp"
#include "actors/gsm/synthetic_models.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::cli {

namespace {

constexpr const char* kUsage =
    "usage: cwf gsm COMMAND ...\n"
    "\n"
    "GSM business artifacts (docs/gsm.md).\n"
    "\n"
    "commands:\n"
    "  rules FILE [--keep-vacuous]   the PAC rules of a model, grouped by template, with counts\n"
    "  graph FILE [--keep-vacuous]   the polarized dependency graph as Graphviz dot\n"
    "  events FILE                   per incoming event type: what it may update, its ePDG (the\n"
    "                                graph nodes it can reach) and the rules a B-step evaluates\n"
    "  generate seq K | split N [-o FILE]\n"
    "                                a synthetic model (docs/gsm.md, Synthetic models): K stages\n"
    "                                in sequence, or one stage whose close opens N stages\n"
    "  help [COMMAND]                this text, or the usage of COMMAND\n"
    "\n"
    "Exit status: 0 done, 1 the output could not be written, 2 bad usage or a model that does\n"
    "not load (the message names its file:line:column).\n"
    "\n"
    "--keep-vacuous keeps the reopening rules whose guard has `not m` as a top-level conjunct for\n"
    "a milestone m of the same stage; they never fire and are omitted by default.\n";

// `cwf gsm COMMAND --help`: the line of kUsage about COMMAND, with the options they share.
std::string subcommand_usage(const std::string& command) {
  if (command == "rules")
    return "usage: cwf gsm rules FILE [--keep-vacuous]\n"
           "  the PAC rules of a GSM model (docs/gsm.md), grouped by template, with counts\n";
  if (command == "graph")
    return "usage: cwf gsm graph FILE [--keep-vacuous]\n"
           "  the polarized dependency graph of a GSM model as Graphviz dot\n";
  if (command == "events")
    return "usage: cwf gsm events FILE\n"
           "  per incoming event type: what it may update, its ePDG (the graph nodes it can\n"
           "  reach) and the rules a B-step evaluates\n";
  return "usage: cwf gsm generate seq K | split N [-o FILE]\n"
         "  a synthetic GSM model: K stages in sequence, or one stage whose close opens N stages\n"
         "  (the scaling experiments of docs/gsm.md); standard output unless -o FILE\n";
}

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

struct ModelArguments {
  std::string file;
  gsm::RuleOptions options;
};

// FILE and --keep-vacuous, in any order; false after printing the problem.
bool parse_model_arguments(const Words& args, const std::string& command, ModelArguments& parsed,
                           std::ostream& err) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--keep-vacuous") {
      parsed.options.keep_vacuous = true;
    } else if (!args[i].empty() && args[i][0] == '-') {
      err << "cwf gsm " << command << ": unknown option '" << args[i]
          << "' (expected --keep-vacuous)\n";
      return false;
    } else if (parsed.file.empty()) {
      parsed.file = args[i];
    } else {
      err << "cwf gsm " << command << ": one model file expected, got '" << parsed.file << "' and '"
          << args[i] << "'\n";
      return false;
    }
  }
  if (parsed.file.empty()) {
    err << "cwf gsm " << command << ": which model? (cwf gsm " << command
        << " FILE.yaml [--keep-vacuous])\n";
    return false;
  }
  return true;
}

int rules_command(const gsm::CompiledModel& compiled, std::ostream& out) {
  const gsm::Model& model = compiled.model();
  const gsm::RuleSet& set = compiled.rules();
  out << model.name << ": " << set.rules.size() << " PAC rules";
  if (set.vacuous_omitted > 0)
    out << " (" << set.vacuous_omitted
        << " vacuous reopening rules omitted; --keep-vacuous lists them)";
  out << ", " << compiled.super_rules().size() << " super rules, " << model.status_count()
      << " status attributes, " << model.data.size() << " data attributes, " << model.events.size()
      << " event types, " << compiled.graph().strata() << " strata in the dependency graph\n";
  std::size_t width_pre = 0, width_ante = 0;
  for (const gsm::PacRule& rule : set.rules) {
    width_pre = std::max(width_pre, gsm::literal_text(model, rule.prerequisite).size());
    width_ante = std::max(width_ante, gsm::antecedent_text(model, rule).size());
  }
  std::size_t number = 0;
  for (std::size_t t = 0; t < gsm::kRuleTemplates; ++t) {
    const auto kind = static_cast<gsm::RuleTemplate>(t);
    out << "\n" << gsm::template_purpose(kind) << ": " << set.count(kind) << "\n";
    for (const gsm::PacRule& rule : set.rules) {
      if (rule.kind != kind) continue;
      std::string n = std::to_string(++number);
      out << std::string(n.size() < 4 ? 4 - n.size() : 0, ' ') << n << "  "
          << pad(gsm::literal_text(model, rule.prerequisite), width_pre) << " | "
          << pad(gsm::antecedent_text(model, rule), width_ante) << " | "
          << pad(gsm::change_text(model, rule.consequent), 10) << "  "
          << gsm::rule_origin(model, rule) << "\n";
    }
  }
  return 0;
}

int events_command(const gsm::CompiledModel& compiled, std::ostream& out) {
  const gsm::Model& model = compiled.model();
  std::size_t longest = 0, total = 0;
  for (std::size_t e = 0; e < model.events.size(); ++e) {
    longest = std::max(longest, compiled.epdg(static_cast<int>(e)).size());
    total += compiled.epdg(static_cast<int>(e)).size();
  }
  char average[32];
  std::snprintf(average, sizeof average, "%.2f",
                model.events.empty() ? 0.0 : static_cast<double>(total) / model.events.size());
  out << model.name << ": " << model.events.size() << " event types, "
      << compiled.graph().node_count() << " graph nodes; ePDG nodes: longest " << longest
      << ", average " << average << "\n";
  for (std::size_t e = 0; e < model.events.size(); ++e) {
    const gsm::EventType& event = model.events[e];
    std::string updates;
    if (event.updates_all) {
      updates = model.data.empty() ? "-" : "all";
    } else {
      for (int d : event.updates)
        updates += (updates.empty() ? "" : ",") + model.data[static_cast<std::size_t>(d)].name;
      if (updates.empty()) updates = "-";
    }
    out << "\n"
        << event.name << (model.creating_events_declared && event.creates ? " (creates)" : "")
        << ": updates " << updates << "; ePDG " << compiled.epdg(static_cast<int>(e)).size()
        << " nodes, " << compiled.plan(static_cast<int>(e)).size() << " rules\n ";
    for (int node : compiled.epdg(static_cast<int>(e)))
      out << " " << gsm::node_name(model, node);
    out << "\n";
  }
  return 0;
}

int generate_command(const Words& args, std::ostream& out, std::ostream& err) {
  std::string kind, output;
  long count = 0;
  std::size_t i = 1;
  for (; i < args.size(); ++i) {
    if (args[i] == "-o" || args[i] == "--output") {
      if (i + 1 == args.size()) {
        err << "cwf gsm generate: " << args[i] << " needs a file name\n";
        return 2;
      }
      output = args[++i];
    } else if (kind.empty()) {
      kind = args[i];
    } else if (count == 0) {
      try {
        std::size_t used = 0;
        count = std::stol(args[i], &used);
        if (used != args[i].size()) count = 0;
      } catch (const std::exception&) {
        count = 0;
      }
      if (count < 1 || count > 10000) {
        err << "cwf gsm generate: expected a number of stages from 1 to 10000, got '" << args[i]
            << "'\n";
        return 2;
      }
    } else {
      err << "cwf gsm generate: unexpected argument '" << args[i] << "'\n";
      return 2;
    }
  }
  if ((kind != "seq" && kind != "split") || count == 0) {
    err << "cwf gsm generate: expected 'seq K' or 'split N' (e.g. cwf gsm generate seq 10)\n";
    return 2;
  }
  const std::string yaml = kind == "seq" ? gsm::sequence_model_yaml(static_cast<int>(count))
                                         : gsm::split_model_yaml(static_cast<int>(count));
  if (output.empty()) {
    out << yaml;
    return 0;
  }
  std::ofstream file(output, std::ios::binary);
  file << yaml;
  if (!file.flush()) {
    err << "cwf gsm generate: cannot write " << output << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int gsm_command(const Words& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? err : out) << kUsage;
    return args.empty() ? 2 : 0;
  }
  if (args.size() > 1 && args[0] == "help") {
    Words asked(args.begin() + 1, args.end());
    asked.push_back("--help");
    return gsm_command(asked, out, err);
  }
  const std::string& command = args[0];
  bool known =
      command == "rules" || command == "graph" || command == "events" || command == "generate";
  if (known && wants_help(args)) {
    out << subcommand_usage(command);
    return 0;
  }
  if (command == "generate") return generate_command(args, out, err);
  if (command != "rules" && command != "graph" && command != "events") {
    err << "cwf gsm: unknown command '" << command << "'\n\n" << kUsage;
    return 2;
  }
  ModelArguments parsed;
  if (!parse_model_arguments(args, command, parsed, err)) return 2;
  std::shared_ptr<const gsm::CompiledModel> compiled;
  try {
    compiled = gsm::CompiledModel::load(parsed.file, parsed.options);
  } catch (const LoadError& e) {
    err << e.what() << "\n";
    return 2;  // a file that does not load, as for every command (see `cwf help`)
  }
  if (command == "rules") return rules_command(*compiled, out);
  if (command == "events") return events_command(*compiled, out);
  out << compiled->graph().to_dot(compiled->model());
  return 0;
}

}  // namespace cwf::cli
