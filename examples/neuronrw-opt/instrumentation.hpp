// instrumentation.hpp — what mlir-opt's pass instrumentation prints, in its layouts, on stderr:
//
// --mlir-print-ir-before-all / -after-all / -after-change / -after-failure: the IR around each
// pass under a header naming the pass (its display name and its pipeline name), followed by two
// blank lines:
//   // -----// IR Dump After ScheduleFusion (schedule-fusion) //----- //
//   // -----// IR Dump After FusionToComposite Failed (fusion-to-composite) //----- //
// (-after-change prints only after passes that changed the IR; host programs are dumped as host
// programs under the same header.)
//
// --mlir-timing: one wall-time report per input (per chunk with --split-input-file), in
// mlir-opt's default (tree) layout: Parser (reading and verifying the input), each pass in
// pipeline order (its run and the verification of its output), Output (printing), Rest, Total.
//
// --mlir-pass-statistics: one report per input (per chunk), mlir-opt's pipeline layout: each
// pass by display name, its counters sorted by name, `(S) VALUE NAME - DESCRIPTION` with the
// values right-aligned and the names left-aligned.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "passes.hpp"

namespace neuronrw_opt {

inline const std::string& report_rule() {
  static const std::string rule = "===" + std::string(73, '-') + "===\n";
  return rule;
}

/// The banner of a report: the rule, the title centred in 80 columns, the rule.
inline std::string report_banner(std::string_view title) {
  return report_rule() + std::string((80 - title.size()) / 2, ' ') + std::string(title) + "\n" + report_rule();
}

inline std::string ir_dump_header(std::string_view when, const pass_spec& p, bool failed = false) {
  return "// -----// IR Dump " + std::string(when) + " " + std::string(p.display) + (failed ? " Failed" : "") + " (" +
         std::string(p.name) + ") //----- //\n";
}

/// Wall-clock rows of one report.
class timing_report {
 public:
  using clock = std::chrono::steady_clock;
  timing_report() : start_(clock::now()) {}

  /// Adds `seconds` to the row `name` (rows keep their first-seen order).
  void add(const std::string& name, double seconds) { rows_.emplace_back(name, seconds); }

  void print(std::ostream& os) const {
    const double total = std::chrono::duration<double>(clock::now() - start_).count();
    double sum = 0;
    for (const auto& r : rows_) sum += r.second;
    auto row = [&](double t, std::string_view name) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%10.4f (%5.1f%%)  ", t, total > 0 ? 100.0 * t / total : 100.0);
      os << buf << name << "\n";
    };
    char head[80];
    std::snprintf(head, sizeof head, "  Total Execution Time: %.4f seconds\n\n", total);
    os << report_banner("... Execution time report ...") << head << "  ----Wall Time----  ----Name----\n";
    for (const auto& r : rows_) row(r.second, r.first);
    row(std::max(0.0, total - sum), "Rest");
    row(total, "Total");
  }

 private:
  clock::time_point start_;
  std::vector<std::pair<std::string, double>> rows_;
};

/// Seconds since `t0`.
inline double seconds_since(timing_report::clock::time_point t0) {
  return std::chrono::duration<double>(timing_report::clock::now() - t0).count();
}

/// The statistics of one pass run.
struct pass_statistics {
  const pass_spec* pass = nullptr;
  std::vector<statistic> stats;
};

inline void print_statistics(std::ostream& os, const std::vector<pass_statistics>& runs) {
  os << report_banner("... Pass statistics report ...");
  for (const auto& r : runs) {
    os << r.pass->display << "\n";
    auto stats = r.stats;
    std::sort(stats.begin(), stats.end(), [](const statistic& a, const statistic& b) { return a.name < b.name; });
    std::size_t name_w = 0, value_w = 0;
    for (const auto& s : stats) {
      name_w = std::max(name_w, s.name.size());
      value_w = std::max(value_w, std::to_string(s.value).size());
    }
    for (const auto& s : stats) {
      const std::string v = std::to_string(s.value);
      os << "  (S) " << std::string(value_w - v.size(), ' ') << v << " " << s.name
         << std::string(name_w - s.name.size(), ' ') << " - " << s.description << "\n";
    }
  }
  os << "\n";
}

}  // namespace neuronrw_opt
