// Tests for examples/neuronrw-opt/utf8.hpp and dot_escape.hpp: the exact text `--emit-dot`
// writes for hostile names (line breaks, quotes, backslashes, NUL and other control bytes,
// entities, every kind of ill-formed UTF-8), and the U+FFFD replacement of maximal subparts
// (Unicode §3.9; the expectations agree with Python's bytes.decode("utf-8", "replace")).
// dot_render.test (tests/lit/neuronrw-opt) renders such names with Graphviz itself.
#include <cstddef>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include "dot_escape.hpp"
#include "utf8.hpp"

namespace {

using neuronrw_opt::dot_comment_line;
using neuronrw_opt::dot_escape;
using neuronrw_opt::dot_quoted;
using neuronrw_opt::is_valid_utf8;
using neuronrw_opt::utf8_invalid_length;
using neuronrw_opt::utf8_sequence_length;
using neuronrw_opt::valid_utf8;

const std::string R = "\xEF\xBF\xBD";  // U+FFFD

/// A string_view over a literal that may hold NUL bytes.
template <std::size_t N>
constexpr std::string_view bytes(const char (&s)[N]) {
  return std::string_view(s, N - 1);
}

}  // namespace

TEST_CASE("valid_utf8: well-formed text is kept byte for byte") {
  CHECK(valid_utf8("") == "");
  CHECK(valid_utf8("plain ASCII, \t and \n") == "plain ASCII, \t and \n");
  CHECK(valid_utf8(bytes("a\0b")) == bytes("a\0b"));  // NUL is valid UTF-8
  // é, €, 𝄞 (U+1D11E), U+D7FF and U+E000 (either side of the surrogates), U+10FFFF.
  const std::string_view ok = "\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E\xED\x9F\xBF\xEE\x80\x80\xF4\x8F\xBF\xBF";
  CHECK(valid_utf8(ok) == ok);
  CHECK(is_valid_utf8(ok));
  CHECK(utf8_sequence_length(ok, 0) == 2);
  CHECK(utf8_sequence_length(ok, 2) == 3);
  CHECK(utf8_sequence_length(ok, 5) == 4);
  CHECK(utf8_invalid_length(ok, 5) == 0);
}

TEST_CASE("valid_utf8: each maximal ill-formed subpart becomes one U+FFFD") {
  // A lone continuation byte, and two of them.
  CHECK(valid_utf8("\x80") == R);
  CHECK(valid_utf8("a\x80\xBF" "b") == "a" + R + R + "b");
  // Truncated two-, three- and four-byte sequences: one U+FFFD each, at the end or before ASCII.
  CHECK(valid_utf8("\xC3") == R);
  CHECK(valid_utf8("\xC3" "A") == R + "A");
  CHECK(valid_utf8("\xE2") == R);
  CHECK(valid_utf8("\xE2\x82") == R);
  CHECK(valid_utf8("\xE2\x82" "A") == R + "A");
  CHECK(valid_utf8("\xF0\x9F") == R);
  CHECK(valid_utf8("\xF0\x9F\x98") == R);
  CHECK(valid_utf8("\xF0\x9F\x98" "A") == R + "A");
  // A truncated sequence followed by a whole one: the whole one is kept.
  CHECK(valid_utf8("\xE2\x82\xE2\x82\xAC") == R + "\xE2\x82\xAC");
  // Overlong forms: C0 and C1 are never lead bytes; E0 80 and F0 80..8F are not sequence starts.
  CHECK(valid_utf8("\xC0\x80") == R + R);
  CHECK(valid_utf8("\xC1\xBF") == R + R);
  CHECK(valid_utf8("\xE0\x80\xAF") == R + R + R);
  CHECK(valid_utf8("\xF0\x8F\xBF\xBF") == R + R + R + R);
  // UTF-16 surrogates U+D800 and U+DFFF.
  CHECK(valid_utf8("\xED\xA0\x80") == R + R + R);
  CHECK(valid_utf8("\xED\xBF\xBF") == R + R + R);
  // Above U+10FFFF: F4 90.., and F5..FF, which start nothing.
  CHECK(valid_utf8("\xF4\x90\x80\x80") == R + R + R + R);
  CHECK(valid_utf8("\xF5\x80\x80\x80") == R + R + R + R);
  CHECK(valid_utf8("\xFF") == R);
  CHECK(valid_utf8("\xFE\xFF") == R + R);
  // The lengths behind it.
  CHECK(utf8_sequence_length("\xE2\x82", 0) == 0);
  CHECK(utf8_invalid_length("\xE2\x82", 0) == 2);
  CHECK(utf8_invalid_length("\xF0\x9F\x98", 0) == 3);
  CHECK(utf8_invalid_length("\xC0\x80", 0) == 1);
  CHECK(utf8_invalid_length("\xED\xA0\x80", 0) == 1);
  CHECK_FALSE(is_valid_utf8("ok\xE2\x82"));
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));
  // The result is always valid.
  for (std::string_view s : {"\x80", "\xC3", "\xE2\x82", "\xF0\x9F\x98", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80"})
    CHECK(is_valid_utf8(valid_utf8(s)));
}

TEST_CASE("dot_escape: quotes, backslashes, line breaks and entities") {
  CHECK(dot_escape("mhlo.all_gather %g") == "mhlo.all_gather %g");
  CHECK(dot_escape("say \"hi\"") == "say \\\"hi\\\"");
  CHECK(dot_escape("a\\b") == "a\\\\b");
  CHECK(dot_escape("ends in \\") == "ends in \\\\");
  CHECK(dot_escape("\\\"") == "\\\\\\\"");
  CHECK(dot_escape("line\nbreak") == "line\\nbreak");
  CHECK(dot_escape("&lt; & &amp;") == "&amp;lt; &amp; &amp;amp;");
  CHECK(dot_quoted("a\"b") == "\"a\\\"b\"");
  CHECK(dot_quoted("") == "\"\"");
}

TEST_CASE("dot_escape: NUL and every other control byte become the text \\XX") {
  CHECK(dot_escape(bytes("a\0b")) == "a\\\\00b");
  CHECK(dot_escape("\r") == "\\\\0D");
  CHECK(dot_escape("\t\x01\x1F\x7F") == "\\\\09\\\\01\\\\1F\\\\7F");
  CHECK(dot_escape(bytes("\0\n\0")) == "\\\\00\\n\\\\00");
  // No raw control byte is left, whatever the input.
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  const std::string e = dot_escape(all);
  for (char ch : e) CHECK((static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7F));
  CHECK(is_valid_utf8(e));
}

TEST_CASE("dot_escape: ill-formed UTF-8 becomes U+FFFD before escaping") {
  CHECK(dot_escape("\x80") == R);
  CHECK(dot_escape("a\xE2\x82\"") == "a" + R + "\\\"");
  CHECK(dot_escape("\xC0\x80") == R + R);
  CHECK(dot_escape("\xED\xA0\x80") == R + R + R);
  CHECK(dot_escape("\xF4\x90\x80\x80") == R + R + R + R);
  CHECK(dot_escape("\xF0\x9F\x98") == R);
  // A backslash then a continuation byte: the backslash is escaped, the byte replaced.
  CHECK(dot_escape("\\\x80") == "\\\\" + R);
  CHECK(dot_escape("\xC3\xA9t\xC3\xA9") == "\xC3\xA9t\xC3\xA9");
}

TEST_CASE("dot_comment_line: one line, whatever the text") {
  CHECK(dot_comment_line("@f") == "// @f\n");
  CHECK(dot_comment_line("@\"a\\nb\"") == "// @\"a\\nb\"\n");
  CHECK(dot_comment_line("a\nb") == "// a\\0Ab\n");
  CHECK(dot_comment_line("a\rb") == "// a\\0Db\n");
  CHECK(dot_comment_line(bytes("a\0b")) == "// a\\00b\n");
  CHECK(dot_comment_line("x\xFF") == "// x" + R + "\n");
  CHECK(dot_comment_line("ends in \\") == "// ends in \\\n");
}
