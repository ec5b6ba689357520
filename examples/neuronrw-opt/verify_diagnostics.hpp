// verify_diagnostics.hpp — --verify-diagnostics, as MLIR's SourceMgrDiagnosticVerifierHandler does
// it: the input's comments say which diagnostics the run must produce,
//
//   // expected-error@+1 {{expected ')'}}            (MLIR input; `#` comments in host programs:
//   # expected-remark@below {{refused this candidate}}  the pattern is found anywhere in a line)
//
// `expected-(error|warning|remark|note)(-re)?(@+N|@-N|@N|@above|@below|@unknown)? {{TEXT}}` at the
// end of a line; TEXT is a substring of the message (with `-re`, `{{regex}}` parts inside TEXT
// are POSIX extended regexes, the rest literal). The regexes run on RE2: linear in the message,
// no recursion, a bounded program size, so a hostile pattern or message cannot hang or crash the
// driver (std::regex backtracks and recurses per character). No designator: this line; @+N /
// @-N: N lines below / above; @N: line N of the file (clang's form; MLIR has none); @above /
// @below: the nearest line above / below that holds no expectation; @unknown: a diagnostic
// without location.
//
// Every produced diagnostic (notes too, each on its own) is matched against the expectations of
// its line: same severity and substring → matched (one expectation may match several identical
// diagnostics, as in MLIR). The expectations are indexed by line once (sorted, file order kept
// within a line), so a diagnostic costs a binary search plus the expectations of its own line:
// a chunk of D diagnostics and E expectations (at most a few per line) verifies in
// O((D + E) log E), where a scan of every expectation per diagnostic took 5.6 s at D = E = 100K.
// Otherwise the verifier reports, as errors, in MLIR's words:
//   FILE:L:C: error: unexpected remark: MESSAGE                         (at the diagnostic)
//   FILE:L:C: error: 'remark' diagnostic emitted when expecting a 'error'  (at the expectation)
//   FILE:L:C: error: expected error "TEXT" was not produced             (at the expectation,
//                                                                        tildes under TEXT's length)
// The first two come as the diagnostics arrive, the last when the chunk ends. With
// `--verify-diagnostics=only-expected` unexpected diagnostics are ignored (only missing ones fail).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <re2/re2.h>

#include "diagnostics_render.hpp"

namespace neuronrw_opt {

struct expectation {
  severity sev = severity::error;
  std::uint32_t line = 0;    ///< the line it applies to (0: @unknown)
  std::uint32_t at_line = 0; ///< where it is written
  std::uint32_t at_col = 0;  ///< column of `expected-`
  std::string text;
  std::shared_ptr<const re2::RE2> re;  ///< `-re` only
  bool matched = false;

  bool match(std::string_view message) const {
    if (re) return re2::RE2::PartialMatch(re2::StringPiece(message.data(), message.size()), *re);
    return message.find(text) != std::string_view::npos;
  }
};

namespace verify_detail {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// RE2's program size limit for one expectation (its default is 8 MiB; an expectation is one
/// line of a comment, so 1 MiB is far above any real one and bounds a hostile one).
inline constexpr std::int64_t regex_max_mem = std::int64_t{1} << 20;

/// `text` with `{{re}}` parts as regexes and the rest escaped (MLIR's computeRegex), compiled
/// with POSIX extended syntax (no Perl classes or lookarounds, as llvm::Regex); nullptr and `why`
/// when it does not compile.
inline std::shared_ptr<const re2::RE2> to_regex(std::string_view text, std::string& why) {
  std::string rx;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto open = text.find("{{", i);
    const std::string_view lit = text.substr(i, open == std::string_view::npos ? std::string_view::npos : open - i);
    for (char c : lit) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) rx += '\\';
      rx += c;
    }
    if (open == std::string_view::npos) break;
    const auto close = text.find("}}", open + 2);
    if (close == std::string_view::npos) return why = "found start of regex with no end '}}'", nullptr;
    rx += "(" + std::string(text.substr(open + 2, close - open - 2)) + ")";
    i = close + 2;
  }
  re2::RE2::Options options;
  options.set_posix_syntax(true);
  options.set_longest_match(false);
  options.set_log_errors(false);
  options.set_max_mem(regex_max_mem);
  auto compiled = std::make_shared<const re2::RE2>(rx, options);
  if (!compiled->ok()) {
    why = "invalid regex: " + compiled->error();
    return nullptr;
  }
  return compiled;
}

}  // namespace verify_detail

/// The expectations written in `src`'s lines [first_line, last_line]. A malformed one (a bad
/// regex, an @ offset outside the file) is reported through `bad` and counts as a failure.
inline std::vector<expectation> parse_expectations(const source_text& src, std::uint32_t first_line,
                                                   std::uint32_t last_line, std::vector<diagnostic>& bad) {
  using verify_detail::is_digit;
  std::vector<expectation> out;
  std::uint32_t last_plain = first_line - 1;  // the nearest line above without an expectation
  std::vector<std::size_t> for_next;          // @below ones waiting for a plain line
  for (std::uint32_t ln = first_line; ln <= last_line; ++ln) {
    auto line_opt = src.line(ln);
    if (!line_opt) break;
    std::string_view line = *line_opt;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    // The last `expected-KIND...{{...}}` whose `}}` ends the line (MLIR's regex, searched).
    std::optional<expectation> e;
    for (std::size_t pos = line.find("expected-"); pos != std::string_view::npos && !e;
         pos = line.find("expected-", pos + 1)) {
      std::size_t i = pos + 9;
      severity s;
      if (line.substr(i).starts_with("error")) s = severity::error, i += 5;
      else if (line.substr(i).starts_with("warning")) s = severity::warning, i += 7;
      else if (line.substr(i).starts_with("remark")) s = severity::remark, i += 6;
      else if (line.substr(i).starts_with("note")) s = severity::note, i += 4;
      else continue;
      const bool re = line.substr(i).starts_with("-re");
      if (re) i += 3;
      while (i < line.size() && line[i] == ' ') ++i;
      std::string_view designator;
      if (i < line.size() && line[i] == '@') {
        const std::size_t b = ++i;
        if (i < line.size() && (line[i] == '+' || line[i] == '-')) ++i;
        while (i < line.size() && (is_digit(line[i]) || (line[i] >= 'a' && line[i] <= 'z'))) ++i;
        designator = line.substr(b, i - b);
      }
      while (i < line.size() && line[i] == ' ') ++i;
      if (!line.substr(i).starts_with("{{") || !line.ends_with("}}") || line.size() < i + 4) continue;
      expectation x;
      x.sev = s;
      x.at_line = ln;
      x.at_col = static_cast<std::uint32_t>(pos + 1);
      x.line = ln;
      x.text = std::string(line.substr(i + 2, line.size() - 2 - (i + 2)));
      const auto where = [&](std::string msg) {
        bad.push_back(diagnostic{src.name(), {ln, x.at_col}, std::move(msg)});
      };
      if (re) {
        std::string why;
        x.re = verify_detail::to_regex(x.text, why);
        if (!x.re) {
          where(why);
          e = expectation{};  // consumed: not an expectation
          e->line = UINT32_MAX;
          break;
        }
      }
      if (!designator.empty()) {
        bool ok = true;
        if (designator == "above") {
          x.line = last_plain;
        } else if (designator == "below") {
          x.line = 0;
          for_next.push_back(out.size());
        } else if (designator == "unknown") {
          x.line = 0;
        } else {
          const bool rel = designator[0] == '+' || designator[0] == '-';
          const std::string_view digits = rel ? designator.substr(1) : designator;
          std::uint64_t n = 0;
          for (char c : digits) ok = ok && is_digit(c), n = n * 10 + static_cast<std::uint64_t>(c - '0');
          ok = ok && !digits.empty() && digits.size() < 10;
          if (ok) {
            const std::int64_t target = rel ? static_cast<std::int64_t>(ln) + (designator[0] == '+' ? 1 : -1) * static_cast<std::int64_t>(n)
                                            : static_cast<std::int64_t>(n);
            ok = target >= 1 && target <= static_cast<std::int64_t>(src.line_count());
            if (ok) x.line = static_cast<std::uint32_t>(target);
          }
        }
        if (!ok) {
          where("bad designator '@" + std::string(designator) +
                "' (expected @+N, @-N, @N inside the file, @above, @below or @unknown)");
          e = expectation{};
          e->line = UINT32_MAX;
          break;
        }
      }
      e = std::move(x);
    }
    if (!e) {
      for (std::size_t k : for_next) out[k].line = ln;
      for_next.clear();
      last_plain = ln;
      continue;
    }
    if (e->line != UINT32_MAX) out.push_back(std::move(*e));
  }
  // A dangling @below applies past the chunk: it can never match (MLIR: the buffer's end).
  for (std::size_t k : for_next) out[k].line = last_line + 1;
  return out;
}

/// Matches the diagnostics of one chunk against its expectations and reports mismatches.
class diagnostic_verifier {
 public:
  diagnostic_verifier(std::ostream& err, const source_text& src, std::vector<expectation> expected,
                      bool only_expected)
      : err_(err), src_(src), expected_(std::move(expected)), only_expected_(only_expected) {
    // The expectations by the line they apply to, in file order within a line: a diagnostic
    // meets only its line's (a binary search), in the order a scan of all of them would.
    by_line_.resize(expected_.size());
    for (std::size_t k = 0; k < by_line_.size(); ++k) by_line_[k] = k;
    std::stable_sort(by_line_.begin(), by_line_.end(),
                     [&](std::size_t a, std::size_t b) { return expected_[a].line < expected_[b].line; });
  }

  /// A diagnostic of the run (its notes are matched one by one).
  void process(const diagnostic& d) {
    process_one(d);
    for (const auto& n : d.notes) process(n);
  }

  /// Reports the expectations nothing matched; true when the chunk verified.
  bool finish() {
    for (auto& e : expected_) {
      if (e.matched) continue;
      ok_ = false;
      render(err_,
             diagnostic{src_.name(), {e.at_line, e.at_col},
                        "expected " + std::string(to_string(e.sev)) + " \"" + e.text + "\" was not produced"},
             &src_, e.text.empty() ? 1 : e.text.size());
    }
    return ok_;
  }
  void fail() { ok_ = false; }

 private:
  std::ostream& err_;
  const source_text& src_;
  std::vector<expectation> expected_;
  std::vector<std::size_t> by_line_;  ///< indices into expected_, by line, then file order
  bool only_expected_;
  bool ok_ = true;

  void process_one(const diagnostic& d) {
    // A located diagnostic meets the expectations of its line; one without a location, the
    // @unknown ones; one located in another file, none.
    const bool located = d.loc.known();
    const bool here = !located || d.file == src_.name();
    const std::uint32_t line = located ? d.loc.line : 0;
    expectation* near = nullptr;
    auto k = here ? std::partition_point(by_line_.begin(), by_line_.end(),
                                         [&](std::size_t i) { return expected_[i].line < line; })
                  : by_line_.end();
    for (; k != by_line_.end() && expected_[*k].line == line; ++k) {
      expectation& e = expected_[*k];
      if (!e.match(d.message)) continue;
      if (e.sev == d.sev) {
        e.matched = true;
        return;
      }
      near = &e;
    }
    if (only_expected_) return;
    ok_ = false;
    if (near) {
      render(err_,
             diagnostic{src_.name(), {near->at_line, near->at_col},
                        "'" + std::string(to_string(d.sev)) + "' diagnostic emitted when expecting a '" +
                            std::string(to_string(near->sev)) + "'"},
             &src_);
      return;
    }
    render(err_, diagnostic{d.file, d.loc, "unexpected " + std::string(to_string(d.sev)) + ": " + d.message}, &src_);
  }
};

}  // namespace neuronrw_opt
