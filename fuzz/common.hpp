// fuzz/common.hpp — what the fuzz targets share: the libFuzzer entry point's declaration, the
// check that an error is located inside the input, and `violation`, which prints what differs
// and traps (libFuzzer then saves the input as a crash; the replay executable dies with SIGILL).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <neuronrw/diagnostic.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fuzz {

/// `s` with bytes other than printable ASCII, newline and tab as \xNN.
inline std::string printable(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t') out += ch;
    else out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
  }
  return out;
}

/// Prints `what` and the texts that differ (when given), then traps.
[[noreturn]] inline void violation(std::string_view what, std::string_view first = {}, std::string_view second = {}) {
  std::fprintf(stderr, "fuzz property violated: %.*s\n", static_cast<int>(what.size()), what.data());
  if (!first.empty() || !second.empty()) {
    std::size_t i = 0;
    while (i < first.size() && i < second.size() && first[i] == second[i]) ++i;
    const std::string a = printable(first), b = printable(second);
    std::fprintf(stderr, "first differs at byte %zu\n--- first ---\n%s\n--- second ---\n%s\n", i, a.c_str(), b.c_str());
  }
  std::fflush(stderr);
  __builtin_trap();
}

/// True when `loc` names a line of `text` and a column on it, or the column just past its end
/// (where an error at the end of a line or of the input sits). "\n", "\r\n" and a lone "\r" each
/// end a line, as both parsers count them.
inline bool located_inside(std::string_view text, neuronrw::source_loc loc) {
  if (loc.line == 0 || loc.col == 0) return false;
  std::size_t line = 1, start = 0;
  for (std::size_t i = 0; i < text.size() && line < loc.line; ++i)
    if (text[i] == '\n' || text[i] == '\r') {
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
      start = i + 1;
    }
  if (line != loc.line) return false;
  const std::size_t end = std::min(text.find_first_of("\r\n", start), text.size());
  return loc.col <= end - start + 1;
}

/// Checks a rejected input's error: located inside the input, named after the file, non-empty.
inline void check_rejection(std::string_view text, const neuronrw::diagnostic& error, std::string_view file) {
  if (error.message.empty()) violation("the parser rejected the input with an empty message: " + error.str());
  if (error.file != file) violation("the parser's error names another file: " + error.str());
  if (!located_inside(text, error.loc)) violation("the parser's error is not located inside the input: " + error.str());
}

/// Joins diagnostics one per line, for messages.
inline std::string join(const neuronrw::diagnostics& ds) {
  std::string s;
  for (const auto& d : ds) s += d.str() + "\n";
  return s;
}

}  // namespace fuzz
