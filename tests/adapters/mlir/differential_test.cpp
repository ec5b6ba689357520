// Differential tests of the MLIR adapter: every ScheduleFusion and FusionToComposite input of the
// test suite runs through the reference IR and through the real MLIR passes, and both results,
// printed by MLIR's printer, must be identical.
//
// The inputs are found at run time in the source tree, so a new file is covered without editing
// this test:
//   - tests/corpus/schedule_fusion/*.mlir (not the .expected. goldens), with their
//     `// schedule-fusion-options:` budget and pattern directives;
//   - tests/corpus/*.mlir holding a fusion or a collective;
//   - examples/mlir/*.mlir;
//   - every raw string literal of tests/passes/*_test.cpp that the reference IR parses and
//     verifies and that holds a fusion or a collective (the FusionToComposite tests' inputs,
//     accepted and refused, live there).
// Each runs four pipelines: schedule-fusion, fusion-to-composite, schedule-fusion then
// fusion-to-composite, and the composites flavour. For each:
//   - the MLIR output equals the reference IR's output reparsed and printed by MLIR; a mismatch
//     prints both texts;
//   - mlir::verify accepts both, and every use is properly dominated (DominanceInfo and the
//     library's view through the adapter's traits agree);
//   - the pass fails exactly when the reference IR refuses (FusionToComposite problems), with the
//     same errors in the same order on the same lines, and the refused module is unchanged;
//   - ScheduleFusion's remarks (remarks=true) are the reference plan's refusals, in order;
//   - a plan without clusters (e.g. only refusals) leaves the printed text unchanged;
//   - the dry run (dry-run=true) changes nothing and reports the reference plan: its cluster
//     count and its refusals, in order.
// The examples' schedule-fusion + fusion-to-composite output also equals the driver's goldens
// (tests/driver/golden/*.pipeline) after MLIR reprints them.
#include <algorithm>
#include <array>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "support/files.hpp"

#include "adapters/mlir/differential_support.hpp"

namespace {

namespace fs = std::filesystem;

using neuronrw::testing::read_file;

/// Whether `text` holds a fusion or a collective (by op name; comments count too, harmlessly).
bool has_fusion_or_collective(std::string_view text) {
  for (std::string_view w : {"fusion", "all_gather", "reduce_scatter", "all_reduce", "all_to_all", "collective_permute"})
    if (text.find(w) != std::string_view::npos) return true;
  return false;
}

struct input {
  std::string name;  ///< path relative to the source root, with `:LINE` for a raw string
  std::string text;
  bool from_file;  ///< a whole file: the reference IR must accept it
};

std::vector<fs::path> sorted_files(const fs::path& dir, std::string_view ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// The raw string literals (R"(...)", R"delim(...)delim") of a C++ file, with their lines.
std::vector<std::pair<std::size_t, std::string>> raw_strings(const std::string& src) {
  std::vector<std::pair<std::size_t, std::string>> out;
  for (std::size_t at = src.find("R\""); at != std::string::npos; at = src.find("R\"", at + 1)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(src[at - 1])) || src[at - 1] == '_')) continue;
    const std::size_t open = src.find('(', at + 2);
    if (open == std::string::npos || open - (at + 2) > 16) continue;
    const std::string delim = src.substr(at + 2, open - (at + 2));
    if (delim.find_first_of(" \\)\"\n") != std::string::npos) continue;
    const std::string close = ")" + delim + "\"";
    const std::size_t end = src.find(close, open + 1);
    if (end == std::string::npos) break;
    const auto line = static_cast<std::size_t>(std::count(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
    out.emplace_back(line, src.substr(open + 1, end - open - 1));
    at = end;
  }
  return out;
}

std::vector<input> all_inputs() {
  const fs::path root = diff::source_dir();
  std::vector<input> in;
  auto rel = [&](const fs::path& p) { return fs::relative(p, root).generic_string(); };
  for (const auto& p : sorted_files(root / "tests/corpus/schedule_fusion", ".mlir"))
    if (p.filename().string().find(".expected.") == std::string::npos) in.push_back({rel(p), read_file(p), true});
  for (const auto& p : sorted_files(root / "tests/corpus", ".mlir"))
    if (auto t = read_file(p); has_fusion_or_collective(t)) in.push_back({rel(p), std::move(t), true});
  for (const auto& p : sorted_files(root / "examples/mlir", ".mlir")) in.push_back({rel(p), read_file(p), true});
  for (const auto& p : sorted_files(root / "tests/passes", ".cpp")) {
    if (p.filename().string().find("_test.cpp") == std::string::npos) continue;
    for (auto& [line, text] : raw_strings(read_file(p)))
      if (has_fusion_or_collective(text)) in.push_back({rel(p) + ":" + std::to_string(line), std::move(text), false});
  }
  return in;
}

/// What one run covered, summed over every input.
struct tally {
  std::size_t runs = 0, skipped_raw = 0, clusters = 0, unchanged = 0, refusal_only = 0, f2c_refused = 0,
              changed = 0, dry_runs = 0, located_errors = 0, nothing_found = 0;
  std::map<std::string, std::size_t> codes;  // ScheduleFusion refusal codes seen
};

std::string expected_remark(diff::pipeline p, const diff::scenario& s, const diff::refusal& r) {
  std::string arg = s.moe ? "neuronrw-test-moe" : "neuronrw-schedule-fusion";
  if (p == diff::pipeline::composites) arg += "-composites";
  return arg + " refused this candidate: " + r.code + ": " + r.message;
}

std::vector<std::string> messages(const std::vector<diff::diag>& ds, mlir::DiagnosticSeverity sev,
                                  std::string_view prefix = {}) {
  std::vector<std::string> out;
  for (const auto& d : ds)
    if (d.severity == sev && std::string_view(d.message).starts_with(prefix)) out.push_back(d.message);
  return out;
}

/// The remarks of a pass that found no op of its kinds (docs/kinds.md), and the others.
bool nothing_found(const std::string& m) { return m.find(": no op of kind ") != std::string::npos; }
std::vector<std::string> without_nothing_found(std::vector<std::string> v) {
  std::erase_if(v, nothing_found);
  return v;
}
std::size_t count_nothing_found(const std::vector<std::string>& v) {
  return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), nothing_found));
}

std::string lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

void check_one(mlir::MLIRContext& ctx, const input& in, diff::pipeline p, tally& t) {
  const diff::scenario s = diff::read_directives(in.text);
  INFO("input " << in.name << ", pipeline " << diff::name(p));
  const diff::ref_outcome r = diff::run_ref(in.text, in.name, p, s);
  if (!r.parsed) {
    // A raw string may be a fragment or a deliberately bad input; a corpus file must parse.
    CHECK_MESSAGE(!in.from_file, "the reference IR refuses the input: " << r.error);
    ++t.skipped_raw;
    return;
  }
  ++t.runs;
  std::string errors;
  // MLIR without the StableHLO dialect reads no custom form: such an input reaches it as the
  // reference IR prints it generic (the same module; docs/stablehlo.md).
  const std::string& mlir_text = r.custom_forms ? r.input : in.text;
  auto m = mlir_test::parse(ctx, mlir_text, &errors);
  REQUIRE_MESSAGE(m, "MLIR cannot parse an input the reference IR accepts:\n" << errors);
  const std::string before = mlir_test::print(m->getOperation());
  CHECK(mlir_test::canonical(ctx, r.input) == before);  // both parsers read the same module

  std::vector<diff::diag> ds;
  const bool ok = diff::run(*m, diff::pipeline_text(p, s, diff::runs_schedule_fusion(p) ? "remarks=true" : ""), ds);
  const std::string got = mlir_test::print(m->getOperation());
  errors.clear();
  auto ref_out = mlir_test::parse(ctx, r.output, &errors);
  REQUIRE_MESSAGE(ref_out, "MLIR cannot parse the reference IR's output:\n" << errors << r.output);
  const std::string want = mlir_test::print(ref_out->getOperation());

  // The outputs.
  INFO("diagnostics of the MLIR pipeline:\n" << diff::str(ds));
  if (got != want) MESSAGE("mismatch\n--- reference IR, printed by MLIR ---\n" << want << "--- MLIR adapter ---\n" << got);
  CHECK(got == want);
  CHECK(ok == r.ok);
  CHECK(diff::verify_errors(m->getOperation()) == "");
  CHECK(diff::verify_errors(ref_out->getOperation()) == "");
  CHECK(r.verify_errors == "");
  CHECK(diff::dominance_report(m->getOperation()) == "");

  // ScheduleFusion's remarks: the reference plan's refusals, in order.
  std::vector<std::string> want_remarks;
  for (const auto& x : r.refused) {
    want_remarks.push_back(expected_remark(p, s, x));
    ++t.codes[x.code];
  }
  const auto remarks = messages(ds, mlir::DiagnosticSeverity::Remark);
  CHECK(lines(without_nothing_found(remarks)) == lines(want_remarks));
  // With remarks on, ScheduleFusion says when it found no op of its kinds, as on the reference IR.
  const std::size_t nothing = r.missing_kinds.empty() ? 0u : 1u;
  if (diff::runs_schedule_fusion(p)) CHECK(count_nothing_found(remarks) == nothing);
  t.nothing_found += count_nothing_found(remarks);

  // FusionToComposite's refusals: the same errors at the same places; the module unchanged.
  const auto errs = messages(ds, mlir::DiagnosticSeverity::Error);
  std::vector<std::string> want_errs;
  for (const auto& x : r.problems) want_errs.push_back("neuronrw-fusion-to-composite: " + x.code + ": " + x.message);
  CHECK(lines(errs) == lines(want_errs));
  std::size_t k = 0;
  for (const auto& d : ds) {
    if (d.severity != mlir::DiagnosticSeverity::Error) continue;
    // Lines only: MLIR locates an op at its name (`%z = "mhlo.negate"` at the quote), the
    // reference IR at the start of the statement (the `%`).
    if (k < r.problems.size() && d.file == "-") {  // a position in the input text (MLIR names it "-")
      INFO("error " << k << ": " << d.message);
      CHECK(d.line == r.problems[k].line);
      ++t.located_errors;
    }
    ++k;
  }
  if (!r.ok) {
    ++t.f2c_refused;
    if (p == diff::pipeline::fusion_to_composite) CHECK(got == before);
  }

  // A plan without clusters changes nothing; nor does a dry run.
  if (diff::runs_schedule_fusion(p)) {
    t.clusters += r.clusters;
    if (r.clusters == 0 && !r.refused.empty()) ++t.refusal_only;
    if (r.clusters == 0 && p != diff::pipeline::schedule_then_f2c) CHECK(got == before);
  }
  if (got == before)
    ++t.unchanged;
  else
    ++t.changed;
  if (p == diff::pipeline::schedule_fusion || p == diff::pipeline::composites) {
    auto dry = mlir_test::parse(ctx, mlir_text);
    REQUIRE(dry);
    std::vector<diff::diag> dd;
    CHECK(diff::run(*dry, diff::pipeline_text(p, s, "dry-run=true"), dd));
    CHECK(mlir_test::print(dry->getOperation()) == before);
    std::string arg = s.moe ? "neuronrw-test-moe" : "neuronrw-schedule-fusion";
    if (p == diff::pipeline::composites) arg += "-composites";
    CHECK(messages(dd, mlir::DiagnosticSeverity::Remark, arg + ": cluster ").size() == r.clusters);
    CHECK(lines(messages(dd, mlir::DiagnosticSeverity::Remark, arg + " refused")) == lines(want_remarks));
    CHECK(messages(dd, mlir::DiagnosticSeverity::Remark).size() == r.clusters + r.refused.size() + nothing);
    CHECK(messages(dd, mlir::DiagnosticSeverity::Error).empty());
    ++t.dry_runs;
  }
}

}  // namespace

TEST_CASE("differential: every ScheduleFusion / FusionToComposite input, four pipelines, reference IR == MLIR") {
  diff::register_all();
  auto ctx = mlir_test::make_context();
  const auto inputs = all_inputs();
  std::size_t files = 0;
  for (const auto& in : inputs) files += in.from_file;
  tally t;
  for (const auto& in : inputs)
    for (auto p : diff::all_pipelines) check_one(*ctx, in, p, t);

  std::string codes;
  for (const auto& [c, n] : t.codes) codes += " " + c + "=" + std::to_string(n);
  MESSAGE(files << " files and " << (inputs.size() - files) << " raw strings; " << t.runs << " runs ("
                << t.skipped_raw / diff::all_pipelines.size() << " raw strings the reference IR refuses, skipped), "
                << t.changed << " changed the module, " << t.unchanged << " did not; " << t.clusters << " clusters, "
                << t.refusal_only << " ScheduleFusion runs with only refusals, " << t.f2c_refused
                << " FusionToComposite refusals (" << t.located_errors << " errors compared with their line), " << t.dry_runs << " dry runs, " << t.nothing_found
                << " nothing-found remarks; refusal codes:" << codes);
  // The inputs are all there, and they cover what the differential must see.
  CHECK(files >= 35);
  CHECK(t.runs >= 4 * 60);
  CHECK(t.clusters > 50);
  CHECK(t.refusal_only > 0);
  CHECK(t.nothing_found > 0);
  CHECK(t.f2c_refused > 0);
  CHECK(t.located_errors > 0);
  for (std::string_view c : {"no_producer_operand", "already_fused", "producer_claimed", "different_block",
                             "budget_exceeded", "non_convex", "splits_cluster"})
    CHECK_MESSAGE(t.codes.count(std::string(c)), "no input refuses with " << c);
}

TEST_CASE("the examples through the MLIR passes equal the driver's goldens (schedule-fusion, fusion-to-composite)") {
  diff::register_all();
  auto ctx = mlir_test::make_context();
  const fs::path root = diff::source_dir();
  std::size_t n = 0;
  for (const auto& p : sorted_files(root / "examples/mlir", ".mlir")) {
    const fs::path golden = root / "tests/driver/golden" / (p.filename().string() + ".pipeline");
    if (!fs::exists(golden)) continue;
    INFO(p.filename().string());
    auto m = mlir_test::parse(*ctx, read_file(p));
    REQUIRE(m);
    std::vector<diff::diag> ds;
    CHECK(diff::run(*m, diff::pipeline_text(diff::pipeline::schedule_then_f2c, {}), ds));
    CHECK(ds.empty());
    const std::string got = mlir_test::print(m->getOperation());
    const std::string want = mlir_test::canonical(*ctx, read_file(golden));
    if (got != want) MESSAGE("mismatch\n--- golden, printed by MLIR ---\n" << want << "--- MLIR adapter ---\n" << got);
    CHECK(got == want);
    CHECK(diff::verify_errors(m->getOperation()) == "");
    ++n;
  }
  CHECK(n >= 3);
}
