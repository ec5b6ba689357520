// diagnostics_render.hpp — how the driver prints the library's diagnostics (neuronrw/diagnostic.hpp:
// severity, location, message, notes), the way clang and mlir-opt do: the
// `FILE:LINE:COL: SEVERITY: MESSAGE` line, then the offending source line and a caret under the
// column, then each note the same way.
//
//   t.mlir:3:18: error: expected ')' to end operand list
//     %0 = "foo.bar"( : () -> i32
//                     ^
//
// Tabs before the column are kept as tabs in the caret line, so the caret stays under its
// character whatever the terminal's tab width (mlir-opt expands them to 8 columns instead); a
// multi-byte UTF-8 character counts as one column of the caret line. A diagnostic without a
// location, or whose file is not the input, prints its first line only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/diagnostic.hpp>

namespace neuronrw_opt {

/// What the parsers, verifiers and passes report, and what the driver itself says about a run:
/// the library's diagnostic. Notes belong to the diagnostic they explain.
using neuronrw::diagnostic;
using neuronrw::severity;

/// The end of the line that starts at `b`: the first "\n" or "\r" from there, or the text's end.
/// A line ends at "\n", "\r\n" or a lone "\r", as the parsers count lines.
inline std::size_t line_end(std::string_view text, std::size_t b) {
  const std::size_t e = text.find_first_of("\r\n", b);
  return e == std::string_view::npos ? text.size() : e;
}

/// The start of the line after the line end at `e` ("\r\n" is one line end).
inline std::size_t next_line(std::string_view text, std::size_t e) {
  return e + (text[e] == '\r' && e + 1 < text.size() && text[e + 1] == '\n' ? 2 : 1);
}

/// The input's text, split into lines on demand, for the source line under a diagnostic.
class source_text {
 public:
  source_text() = default;
  source_text(std::string name, std::string_view text) : name_(std::move(name)), text_(text) {
    starts_.push_back(0);
    for (std::size_t e = line_end(text_, 0); e < text_.size(); e = line_end(text_, starts_.back()))
      starts_.push_back(next_line(text_, e));
  }
  const std::string& name() const noexcept { return name_; }
  std::string_view text() const noexcept { return text_; }
  /// Line `n` (from 1) without its line break, or nothing past the end.
  std::optional<std::string_view> line(std::uint32_t n) const {
    if (n == 0 || n > starts_.size()) return std::nullopt;
    const std::size_t b = starts_[n - 1];
    if (b > text_.size() || (b == text_.size() && n > 1)) return std::nullopt;
    return text_.substr(b, line_end(text_, b) - b);
  }
  std::uint32_t line_count() const noexcept { return static_cast<std::uint32_t>(starts_.size()); }
  /// The 1-based line of byte offset `at`.
  std::uint32_t line_of(std::size_t at) const {
    std::size_t lo = 0, hi = starts_.size();
    while (hi - lo > 1) {
      const std::size_t mid = (lo + hi) / 2;
      (starts_[mid] <= at ? lo : hi) = mid;
    }
    return static_cast<std::uint32_t>(lo + 1);
  }

 private:
  std::string name_;
  std::string_view text_;
  std::vector<std::size_t> starts_;
};

/// The caret line for byte column `col` (from 1) of `line`: every character before it becomes a
/// space (a tab stays a tab), then `^`, then `range - 1` tildes (a range of `range` columns).
inline std::string caret_line(std::string_view line, std::uint32_t col, std::size_t range = 1) {
  std::string out;
  const std::size_t before = col == 0 ? 0 : std::min<std::size_t>(col - 1, line.size());
  for (std::size_t i = 0; i < before; ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c == '\t') out += '\t';
    else if ((c & 0xC0) != 0x80) out += ' ';  // UTF-8 continuation bytes take no column
  }
  out += '^';
  if (range > 1) out.append(range - 1, '~');
  return out;
}

/// Prints `d` and its notes, each its first line (`FILE:LINE:COL: SEVERITY: MESSAGE`,
/// diagnostic::line) followed by its source line and caret when `src` holds it. `range` is the
/// caret's width on the first diagnostic (1: a caret alone).
inline void render(std::ostream& os, const diagnostic& d, const source_text* src, std::size_t range = 1) {
  os << d.line() << '\n';
  if (src && d.loc.known() && d.file == src->name())
    if (auto l = src->line(d.loc.line)) os << *l << '\n' << caret_line(*l, d.loc.col, range) << '\n';
  for (const auto& n : d.notes) render(os, n, src);
}

}  // namespace neuronrw_opt
