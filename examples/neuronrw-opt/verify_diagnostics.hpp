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
// driver (the standard library's regex backtracks and recurses per character). No designator:
// this line; @+N / @-N: N lines below / above; @N: line N of the file (clang's form; MLIR has
// none); @above / @below: the nearest line above / below that holds no expectation; @unknown: a
// diagnostic without location.
//
// Blanks (spaces, tabs) may separate the kind, the designator and
// `{{`. When a line holds several `expected-`, the first that has this form is the line's one.
//
// Malformed expectations. An *attempted* expectation is an `expected-` that starts a word (not
// after a letter, digit, `_`, `-`, `.` or `$`), is followed by a word (a letter, then letters,
// digits, `_` and `-`), and then either by `@` or `{` (blanks allowed between) or by a `{{`
// anywhere later on its line. A line whose attempted expectation is not one — an unknown kind
// (`expected-bogus {{x}}`), a bad designator (`@+-1`, `@`, `@42x`, a line outside the file), no
// `{{` after the kind or designator, a `{{` not closed by the `}}` that ends the line
// (`{{x}`, `-re {{a`), an `-re` pattern that does not compile — is an error located at its
// `expected-` (FILE:LINE:COL, the run exits 1) saying what is wrong and the valid form. Prose
// such as `the expected-output is below` is not an attempt, so it is never flagged; a line that
// holds an expectation and also another attempt is read as its expectation, as before.
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

namespace verify_detail {

inline bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_word_char(char c) { return is_letter(c) || is_digit(c) || c == '_' || c == '-'; }
inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// The most characters of a kind word or a designator read (a valid one has at most 12): a longer
/// one is malformed anyway, and the bound keeps a line of many `expected-` linear to read.
inline constexpr std::size_t max_word = 32;

/// What one `expected-` of a line is (scan_expectation).
struct scanned {
  enum { none, complete, malformed } what = none;
  severity sev = severity::error;
  bool re = false;
  bool has_designator = false;
  std::string_view designator;  ///< after the '@'
  std::string_view text;        ///< between the `{{` and the `}}` that ends the line
  std::string why;              ///< malformed: what is wrong
};

inline constexpr std::string_view form =
    "(the form is expected-KIND[-re][@DESIGNATOR] {{TEXT}} at the end of the line, KIND one of error, "
    "warning, remark, note)";

/// Reads the `expected-` at `pos` of `line` (trailing blanks removed); `last_open` is the line's
/// last `{{` (npos: none). Complete: an expectation's syntax (its designator and regex are checked
/// by the caller). Malformed: an attempted expectation (see the header comment) that is not one.
/// None: anything else, ordinary text. Reads O(max_word) characters before the text.
inline scanned scan_expectation(std::string_view line, std::size_t pos, std::size_t last_open) {
  scanned r;
  const std::size_t w = pos + 9;  // after "expected-"
  std::size_t i = w;
  while (i < line.size() && i - w < max_word && is_word_char(line[i])) ++i;
  const std::string_view word = line.substr(w, i - w);
  const bool long_word = i < line.size() && is_word_char(line[i]);
  std::size_t j = i;
  while (j < line.size() && is_blank(line[j])) ++j;
  const bool boundary = pos == 0 || !(is_word_char(line[pos - 1]) || line[pos - 1] == '.' || line[pos - 1] == '$');
  const bool attempt = boundary && !word.empty() && is_letter(word[0]) &&
                       ((j < line.size() && (line[j] == '@' || line[j] == '{')) ||
                        (last_open != std::string_view::npos && last_open >= i));
  const auto fail = [&](std::string why) {
    if (attempt) r.what = scanned::malformed, r.why = std::move(why);
    return r;
  };
  const std::string spelled = "expected-" + std::string(word) + (long_word ? "..." : "");
  std::string_view kind = word;
  if (!long_word && kind.ends_with("-re")) r.re = true, kind.remove_suffix(3);
  if (long_word) kind = {};
  if (kind == "error") r.sev = severity::error;
  else if (kind == "warning") r.sev = severity::warning;
  else if (kind == "remark") r.sev = severity::remark;
  else if (kind == "note") r.sev = severity::note;
  else
    return fail("malformed expectation: '" + spelled +
                "' is not a kind of expectation (expected-error, expected-warning, expected-remark or "
                "expected-note, each optionally with -re)");
  i = j;
  std::string head = spelled;
  if (i < line.size() && line[i] == '@') {
    const std::size_t b = ++i;
    while (i < line.size() && i - b < max_word && !is_blank(line[i]) && line[i] != '{') ++i;
    r.has_designator = true;
    r.designator = line.substr(b, i - b);
    head += "@" + std::string(r.designator);
    if (i < line.size() && !is_blank(line[i]) && line[i] != '{')
      return fail("malformed expectation: the designator of '" + spelled + "' is too long " + std::string(form));
    while (i < line.size() && is_blank(line[i])) ++i;
  }
  if (!line.substr(i).starts_with("{{"))
    return fail("malformed expectation: '" + head + "' is not followed by '{{' " + std::string(form));
  if (!line.ends_with("}}") || line.size() < i + 4)
    return fail("malformed expectation: the '{{' after '" + head + "' is not closed by '}}' at the end of the line " +
                std::string(form));
  r.what = scanned::complete;
  r.text = line.substr(i + 2, line.size() - 2 - (i + 2));
  return r;
}

}  // namespace verify_detail

/// The expectations written in `src`'s lines [first_line, last_line]. A malformed one (a bad
/// regex, an @ offset outside the file, an attempted expectation that is not one) is reported
/// through `bad` and counts as a failure. O(characters of those lines): src.line is O(1).
inline std::vector<expectation> parse_expectations(const source_text& src, std::uint32_t first_line,
                                                   std::uint32_t last_line, std::vector<diagnostic>& bad) {
  using verify_detail::is_digit;
  using verify_detail::scanned;
  std::vector<expectation> out;
  std::uint32_t last_plain = first_line - 1;  // the nearest line above without an expectation
  std::vector<std::size_t> for_next;          // @below ones waiting for a plain line
  for (std::uint32_t ln = first_line; ln <= last_line; ++ln) {
    auto line_opt = src.line(ln);
    if (!line_opt) break;
    std::string_view line = *line_opt;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    // The first `expected-KIND...{{...}}` whose `}}` ends the line (MLIR's regex, searched); when
    // there is none, the first attempted one is malformed.
    std::optional<expectation> e;
    bool consumed = false;  // the line held an expectation that was reported as malformed
    std::optional<diagnostic> first_malformed;
    const std::size_t last_open = line.rfind("{{");
    for (std::size_t pos = line.find("expected-"); pos != std::string_view::npos && !e && !consumed;
         pos = line.find("expected-", pos + 1)) {
      scanned s = verify_detail::scan_expectation(line, pos, last_open);
      const auto col = static_cast<std::uint32_t>(pos + 1);
      const auto where = [&](std::string msg) {
        bad.push_back(diagnostic{src.name(), {ln, col}, std::move(msg)});
      };
      if (s.what == scanned::none) continue;
      if (s.what == scanned::malformed) {
        if (!first_malformed) first_malformed = diagnostic{src.name(), {ln, col}, std::move(s.why)};
        continue;
      }
      expectation x;
      x.sev = s.sev;
      x.at_line = ln;
      x.at_col = col;
      x.line = ln;
      x.text = std::string(s.text);
      if (s.re) {
        std::string why;
        x.re = verify_detail::to_regex(x.text, why);
        if (!x.re) {
          where(why);
          consumed = true;
          break;
        }
      }
      if (s.has_designator) {
        const std::string_view designator = s.designator;
        bool ok = !designator.empty();
        if (designator == "above") {
          x.line = last_plain;
        } else if (designator == "below") {
          x.line = 0;
          for_next.push_back(out.size());
        } else if (designator == "unknown") {
          x.line = 0;
        } else if (ok) {
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
          consumed = true;
          break;
        }
      }
      e = std::move(x);
    }
    if (!e && !consumed && first_malformed) {
      bad.push_back(std::move(*first_malformed));
      consumed = true;
    }
    if (!e && !consumed) {
      for (std::size_t k : for_next) out[k].line = ln;
      for_next.clear();
      last_plain = ln;
      continue;
    }
    if (e) out.push_back(std::move(*e));
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
