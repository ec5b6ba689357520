// fuzz_split_input — neuronrw-opt's --split-input-file (examples/neuronrw-opt/split_input.hpp)
// and the parsers' first_line (ref::parse_options::first_line, host::parse_program's first_line)
// on arbitrary text.
//
// Input: one option byte, then the file's text. Option bit 1: the host flavour (`# -----`,
// host::parse_program) instead of MLIR's (`// -----`, ref::parse). Properties (a violation prints
// what differs and traps):
//   - the chunks cover the text minus the marker lines exactly and in order: chunk 1 starts at
//     byte 0, the last ends at the text's end, and between two chunks lies exactly one line that
//     reads the marker (with its line end); no chunk holds a marker line;
//   - line ranges increase and agree with the byte ranges: a chunk's first line is the line of its
//     first byte, the marker between two chunks is the line before the second's first, and a
//     chunk's last line is the line of its last byte;
//   - each chunk parsed where it stands with its first line's number gives diagnostics (the
//     parser's error, the reference verifier's diagnostics, a host program's warnings) only on
//     lines of the chunk (the position just past its end included, where an error at the end of
//     input sits), and exactly those the parser gives on the chunk behind first_line - 1 line
//     breaks (the padding first_line replaced; checked for chunks starting before line 2000,
//     64K padding bytes per input).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include "common.hpp"
#include "diagnostics_render.hpp"
#include "split_input.hpp"

namespace {

namespace opt = neuronrw_opt;

constexpr std::string_view file = "fuzz.mlir";

/// The diagnostics of one chunk parsed with its first line's number.
neuronrw::diagnostics parse_chunk(std::string_view text, std::uint32_t first_line, bool host) {
  neuronrw::diagnostics out;
  if (host) {
    auto r = neuronrw::host::parse_program(text, file, first_line);
    if (!r.ok()) out.push_back(r.error);
    for (auto& w : r.warnings) out.push_back(w);
  } else {
    auto r = neuronrw::ref::parse(text, file, neuronrw::ref::parse_options{.first_line = first_line});
    if (!r.ok()) out.push_back(r.error);
    else
      for (auto& d : neuronrw::ref::verify(*r.value)) out.push_back(d);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool host = (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string_view marker = host ? "# -----" : "// -----";
  const opt::source_text src(std::string(file), text);
  const std::vector<opt::chunk> chunks = opt::split_chunks(text, marker);
  // The padded parses cost the padding's bytes: at most this many per input, so an input of
  // many markers stays fast to run.
  std::size_t padding_budget = 64 * 1024;

  if (chunks.empty()) fuzz::violation("split_chunks gave no chunk");
  if (chunks.front().begin != 0) fuzz::violation("the first chunk does not start at byte 0");
  if (chunks.back().end != text.size()) fuzz::violation("the last chunk does not end at the text's end");
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const opt::chunk& c = chunks[k];
    const std::string where = "chunk " + std::to_string(k + 1) + " (bytes " + std::to_string(c.begin) + "-" +
                              std::to_string(c.end) + ", lines " + std::to_string(c.first_line) + "-" +
                              std::to_string(c.last_line) + ")";
    if (c.begin > c.end || c.end > text.size()) fuzz::violation(where + ": a bad byte range");
    if (c.first_line > c.last_line) fuzz::violation(where + ": its last line is before its first");
    const std::string_view body = text.substr(c.begin, c.end - c.begin);
    // No marker line inside; the line ranges agree with the bytes.
    for (std::size_t b = 0; b < body.size();) {
      const std::size_t e = opt::line_end(body, b);
      if (opt::trim(body.substr(b, e - b)) == marker) fuzz::violation(where + ": holds a marker line", body);
      if (e == body.size()) break;
      b = opt::next_line(body, e);
    }
    if (c.begin < text.size() && src.line_of(c.begin) != c.first_line)
      fuzz::violation(where + ": its first line is not the line of its first byte");
    if (!body.empty() && src.line_of(c.end - 1) != c.last_line)
      fuzz::violation(where + ": its last line is not the line of its last byte");
    if (k + 1 < chunks.size()) {
      // Exactly one marker line (and its line end) up to the next chunk.
      const opt::chunk& n = chunks[k + 1];
      if (n.begin < c.end) fuzz::violation(where + ": the next chunk starts before it ends");
      const std::string_view gap = text.substr(c.end, n.begin - c.end);
      const std::size_t e = opt::line_end(gap, 0);
      if (opt::trim(gap.substr(0, e)) != marker || (e < gap.size() && opt::next_line(gap, e) != gap.size()))
        fuzz::violation(where + ": what lies before the next chunk is not one marker line", gap);
      if (n.first_line <= c.last_line) fuzz::violation(where + ": the next chunk's lines do not come after its own");
      if (c.end < text.size() && src.line_of(c.end) != n.first_line - 1)
        fuzz::violation(where + ": the marker is not on the line before the next chunk");
    }

    // Parsing the chunk where it stands.
    const neuronrw::diagnostics ds = parse_chunk(body, c.first_line, host);
    for (const auto& d : ds) {
      if (!d.loc.known()) continue;
      const neuronrw::source_loc in_chunk{d.loc.line - c.first_line + 1, d.loc.col};
      if (d.loc.line < c.first_line || !fuzz::located_inside(body, in_chunk))
        fuzz::violation(where + ": a diagnostic is not on a line of the chunk: " + d.str(), body);
    }
    if (c.first_line < 2000 && padding_budget >= c.first_line) {
      padding_budget -= c.first_line;
      std::string padded(c.first_line - 1, '\n');
      padded += body;
      const neuronrw::diagnostics old = parse_chunk(padded, 1, host);
      if (fuzz::join(old) != fuzz::join(ds))
        fuzz::violation(where + ": first_line and padding give different diagnostics", fuzz::join(ds), fuzz::join(old));
    }
  }
  return 0;
}
