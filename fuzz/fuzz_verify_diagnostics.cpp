// fuzz_verify_diagnostics — neuronrw-opt's --verify-diagnostics (examples/neuronrw-opt/
// verify_diagnostics.hpp) on arbitrary file text.
//
// Input: one option byte, then the file's text. Option bits: 1 verifies with only-expected
// (unexpected diagnostics ignored), 2 reads the text as a host program instead of reference IR.
// parse_expectations reads the whole file; the diagnostics fed to diagnostic_verifier are the
// parser's own (its error, or the verifier's diagnostics of what it read; a host program's
// warnings) plus synthetic ones derived from the expectations: at each expectation's line, one
// with its severity and its text as the message (a match), every third one with another severity
// (a near-miss), one without location, one in another file, and one with a note. Properties (a
// violation prints what differs and traps):
//   - no crash, no sanitizer report, whatever the text;
//   - every malformed-expectation error is located inside the file, with a message;
//   - every error the verifier renders (`fuzz.mlir:L:C: error: ...`) is located inside the file;
//   - the verdict and the rendered text equal those of a plain scan of every expectation per
//     diagnostic (the quadratic matcher the line index replaced): same matches, near-misses,
//     error order;
//   - the result is deterministic: a second run gives the same verdict and text.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include "common.hpp"
#include "diagnostics_render.hpp"
#include "verify_diagnostics.hpp"

namespace {

namespace opt = neuronrw_opt;

constexpr std::string_view file = "fuzz.mlir";

/// The diagnostics the run would have: the parser's and synthetic ones at the expectations.
std::vector<opt::diagnostic> diagnostics_of(std::string_view text, const std::vector<opt::expectation>& expected,
                                            bool host) {
  std::vector<opt::diagnostic> out;
  if (host) {
    auto r = neuronrw::host::parse_program(text, file);
    if (!r.ok()) out.push_back(r.error);
    for (auto& w : r.warnings) out.push_back(w);
  } else {
    auto r = neuronrw::ref::parse(text, file);
    if (!r.ok()) out.push_back(r.error);
    else
      for (auto& d : neuronrw::ref::verify(*r.value)) out.push_back(d);
  }
  std::size_t k = 0;
  for (const auto& e : expected) {
    const neuronrw::source_loc at = e.line == 0 ? neuronrw::source_loc{} : neuronrw::source_loc{e.line, 1};
    out.push_back(opt::diagnostic{std::string(file), at, e.text, e.sev});
    if (k++ % 3 == 0)
      out.push_back(opt::diagnostic{std::string(file), at, e.text,
                                    e.sev == opt::severity::error ? opt::severity::remark : opt::severity::error});
  }
  out.push_back(opt::diagnostic{std::string(file), {}, "a diagnostic without location"});
  out.push_back(opt::diagnostic{"other.mlir", {1, 1}, "a diagnostic of another file"});
  opt::diagnostic with_note{std::string(file), {1, 1}, "a diagnostic with a note"};
  with_note.notes.push_back(opt::diagnostic{std::string(file), {}, "its note", opt::severity::note});
  out.push_back(std::move(with_note));
  return out;
}

struct outcome {
  bool ok = true;
  std::string text;
};

/// The verifier as the driver runs it on one chunk that is the whole file.
outcome verify(const opt::source_text& src, bool only_expected, bool host) {
  std::ostringstream err;
  std::vector<opt::diagnostic> bad;
  auto expected = opt::parse_expectations(src, 1, src.line_count(), bad);
  for (const auto& b : bad) {
    if (b.message.empty()) fuzz::violation("a malformed expectation's error has no message: " + b.str());
    if (!fuzz::located_inside(src.text(), b.loc))
      fuzz::violation("a malformed expectation's error is not located inside the file: " + b.str());
  }
  const auto ds = diagnostics_of(src.text(), expected, host);
  opt::diagnostic_verifier verifier(err, src, std::move(expected), only_expected);
  for (const auto& b : bad) opt::render(err, b, &src), verifier.fail();
  for (const auto& d : ds) verifier.process(d);
  const bool ok = verifier.finish();
  return {ok, err.str()};
}

/// The same with every expectation scanned per diagnostic, as before the line index.
outcome verify_by_scan(const opt::source_text& src, bool only_expected, bool host) {
  std::ostringstream err;
  std::vector<opt::diagnostic> bad;
  auto expected = opt::parse_expectations(src, 1, src.line_count(), bad);
  const auto ds = diagnostics_of(src.text(), expected, host);
  bool ok = bad.empty();
  for (const auto& b : bad) opt::render(err, b, &src);
  const auto one = [&](const opt::diagnostic& d) {
    const bool located = d.loc.known();
    const bool here = !located || d.file == src.name();
    opt::expectation* near = nullptr;
    for (auto& e : expected) {
      if (!here || e.line != (located ? d.loc.line : 0) || !e.match(d.message)) continue;
      if (e.sev == d.sev) {
        e.matched = true;
        return;
      }
      near = &e;
    }
    if (only_expected) return;
    ok = false;
    if (near)
      opt::render(err,
                  opt::diagnostic{src.name(), {near->at_line, near->at_col},
                                  "'" + std::string(to_string(d.sev)) + "' diagnostic emitted when expecting a '" +
                                      std::string(to_string(near->sev)) + "'"},
                  &src);
    else
      opt::render(err, opt::diagnostic{d.file, d.loc, "unexpected " + std::string(to_string(d.sev)) + ": " + d.message},
                  &src);
  };
  for (const auto& d : ds) {
    one(d);
    for (const auto& n : d.notes) one(n);
  }
  for (const auto& e : expected) {
    if (e.matched) continue;
    ok = false;
    opt::render(err,
                opt::diagnostic{src.name(), {e.at_line, e.at_col},
                                "expected " + std::string(to_string(e.sev)) + " \"" + e.text + "\" was not produced"},
                &src, e.text.empty() ? 1 : e.text.size());
  }
  return {ok, err.str()};
}

/// Reads the rendered output back: each diagnostic is its first line, then (when it is located in
/// the file and the line exists) the source line and the caret line. Every located one of the
/// file must be inside it. (A source line holds no line break; neither does a message here.)
void check_rendered(const opt::source_text& src, std::string_view out) {
  const std::string prefix = std::string(file) + ":";
  std::size_t pos = 0;
  while (pos < out.size()) {
    std::size_t eol = out.find('\n', pos);
    if (eol == std::string_view::npos) fuzz::violation("the rendered text does not end with a line break", out);
    const std::string_view line = out.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.starts_with("other.mlir:")) continue;  // the diagnostic of another file, unexpected
    if (!line.starts_with(prefix)) fuzz::violation("a rendered line is not a diagnostic of the file", line);
    std::size_t i = prefix.size();
    const auto number = [&](std::uint32_t& n) {
      const std::size_t b = i;
      std::uint64_t v = 0;
      while (i < line.size() && line[i] >= '0' && line[i] <= '9' && i - b < 10) v = v * 10 + static_cast<std::uint64_t>(line[i++] - '0');
      n = static_cast<std::uint32_t>(v);
      return i > b && v <= UINT32_MAX;
    };
    neuronrw::source_loc loc;
    if (line.substr(i).starts_with(" ")) continue;  // no location: nothing more was rendered
    if (!number(loc.line) || line[i++] != ':' || !number(loc.col) || line.substr(i, 2) != ": ")
      fuzz::violation("a rendered diagnostic's location does not read as LINE:COL", line);
    if (!fuzz::located_inside(src.text(), loc))
      fuzz::violation("a rendered error is not located inside the file", line);
    if (src.line(loc.line)) {  // its source line and caret follow
      for (int k = 0; k < 2; ++k) {
        eol = out.find('\n', pos);
        if (eol == std::string_view::npos) fuzz::violation("a rendered diagnostic lacks its source or caret line", out);
        pos = eol + 1;
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool only_expected = (flags & 1) != 0, host = (flags & 2) != 0;
  const opt::source_text src(std::string(file), text);

  const outcome first = verify(src, only_expected, host);
  const outcome second = verify(src, only_expected, host);
  if (first.ok != second.ok || first.text != second.text)
    fuzz::violation("verifying the file twice gave different results", first.text, second.text);
  const outcome scan = verify_by_scan(src, only_expected, host);
  if (first.ok != scan.ok || first.text != scan.text)
    fuzz::violation(first.ok != scan.ok ? "the line index and a scan of every expectation disagree on the verdict"
                                        : "the line index and a scan of every expectation report differently",
                    first.text, scan.text);
  check_rendered(src, first.text);
  return 0;
}
