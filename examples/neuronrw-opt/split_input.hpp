// split_input.hpp — --split-input-file: the input is cut at every line that reads the marker
// (`// -----` for MLIR, `# -----` for host programs, or --split-input-file=MARKER; surrounding
// whitespace ignored) into chunks processed one by one. A chunk keeps the file's line numbers:
// it is parsed where it stands in the file's text, with its first line's number
// (ref::parse_options::first_line, host::parse_program's first_line), so every diagnostic and
// every `loc` says where it is in the whole file, as mlir-opt does. Splitting and parsing are
// linear in the file: no chunk is copied or padded (padding each chunk with the line breaks
// before it made 100K marker lines take 15 s). A line ends at "\n", "\r\n" or a lone "\r"
// (diagnostics_render.hpp's line_end), as the parsers count lines.
//
// A blank chunk (blank lines and comments only — the one after a final marker line, say) is
// accepted: in MLIR it is an empty module and prints `module {\n}`, as mlir-opt prints it; a blank
// host-program chunk holds no program, runs no pass and prints nothing (blank_host_chunk).
#pragma once

#include "diagnostics_render.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace neuronrw_opt {

struct chunk {
  std::size_t begin = 0, end = 0;          ///< byte range in the file (the marker lines excluded)
  std::uint32_t first_line = 1, last_line = 1;
};

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// The chunks of `text` (one when it holds no marker line).
inline std::vector<chunk> split_chunks(std::string_view text, std::string_view marker) {
  std::vector<chunk> out;
  chunk cur;
  std::size_t pos = 0;
  std::uint32_t line = 1;
  while (pos <= text.size()) {
    const std::size_t eol = line_end(text, pos);
    const bool last = eol == text.size();
    if (trim(text.substr(pos, eol - pos)) == trim(marker)) {
      cur.end = pos;
      cur.last_line = line - 1 < cur.first_line ? cur.first_line : line - 1;
      out.push_back(cur);
      cur = chunk{};
      cur.begin = last ? eol : next_line(text, eol);
      cur.first_line = line + 1;
    }
    if (last) break;
    pos = next_line(text, eol);
    ++line;
  }
  cur.end = text.size();
  // A final line break ends the last line; it does not start another.
  if (!text.empty() && (text.back() == '\n' || text.back() == '\r') && line > cur.first_line) --line;
  cur.last_line = line < cur.first_line ? cur.first_line : line;
  out.push_back(cur);
  return out;
}

/// True when `text` (a host-program chunk) holds nothing but blanks, line ends and `#` comments:
/// no program. The chunk after a final `# -----`, before a first one, or between two in a row.
inline bool blank_host_chunk(std::string_view text) {
  bool comment = false;
  for (const char c : text) {
    if (c == '\n' || c == '\r') comment = false;
    else if (comment || c == ' ' || c == '\t' || c == '\f') continue;
    else if (c == '#') comment = true;
    else return false;
  }
  return true;
}

}  // namespace neuronrw_opt
