// Tests for the MLIR string literals the reference IR reads and writes: neuronrw/ir/ref/mlir_string.hpp
// (the one implementation) and ir/ref/string_literal.hpp (its reference-IR names quote/unquote).
// Exact texts, both escape styles, the scanner's positions, and the round trip over every byte.
#include <neuronrw/ir/ref/string_literal.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace {

using namespace std::string_literals;
using neuronrw::mlir_escapes;

// The grammar helpers are constexpr: they classify at compile time too.
static_assert(neuronrw::mlir_is_bare_id("hilo.FusedComposite.7"));
static_assert(neuronrw::mlir_is_bare_id("_a$b.c9"));
static_assert(!neuronrw::mlir_is_bare_id("9a"));
static_assert(!neuronrw::mlir_is_bare_id(""));
static_assert(!neuronrw::mlir_is_bare_id("$a"));
static_assert(!neuronrw::mlir_is_bare_id("a b"));
static_assert(!neuronrw::mlir_is_bare_id("a-b"));
static_assert(neuronrw::scan_mlir_string_literal(R"("ab" x)", 0).end == 4);
static_assert(neuronrw::scan_mlir_string_literal(R"("ab" x)", 0).ok());

TEST_CASE("mlir_string_literal: the readable style names \\n and \\t, the hex style does not") {
  CHECK(neuronrw::mlir_string_literal("plain") == R"("plain")");
  CHECK(neuronrw::mlir_string_literal("") == R"("")");
  CHECK(neuronrw::mlir_string_literal("a\"b\\c\nd\x01") == R"("a\"b\\c\nd\01")");
  CHECK(neuronrw::mlir_string_literal("\t\r\x1f\x7f") == R"("\t\0D\1F\7F")");
  CHECK(neuronrw::mlir_string_literal("a\"b\\c\nd\t", mlir_escapes::hex) == R"("a\"b\\c\0Ad\09")");
  // Bytes >= 0x80 (UTF-8) are copied unchanged; ' needs no escape in MLIR.
  CHECK(neuronrw::mlir_string_literal("\xc3\xa9'") == "\"\xc3\xa9'\"");
  std::string out = "x = ";
  neuronrw::append_mlir_string_literal(out, "q\"");
  CHECK(out == R"(x = "q\"")");
  // The reference IR's names are the same functions.
  CHECK(neuronrw::ref::quote("a\nb") == neuronrw::mlir_string_literal("a\nb"));
  CHECK(neuronrw::ref::unquote(R"("a\22b")") == neuronrw::mlir_string_value(R"("a\22b")"));
}

TEST_CASE("mlir_symbol_reference: bare ids as they are, anything else as a string literal") {
  CHECK(neuronrw::mlir_symbol_reference("hilo.FusedComposite.7") == "@hilo.FusedComposite.7");
  CHECK(neuronrw::mlir_symbol_reference("_a$b.c9") == "@_a$b.c9");
  CHECK(neuronrw::mlir_symbol_reference("9a") == R"(@"9a")");
  CHECK(neuronrw::mlir_symbol_reference("") == R"(@"")");
  CHECK(neuronrw::mlir_symbol_reference("has space") == R"(@"has space")");
  CHECK(neuronrw::mlir_symbol_reference("a\tb") == R"(@"a\tb")");
  CHECK(neuronrw::mlir_symbol_reference("a\tb", mlir_escapes::hex) == R"(@"a\09b")");
  std::string out;
  neuronrw::append_mlir_symbol_name(out, "f");
  neuronrw::append_mlir_symbol_name(out, "g h");
  CHECK(out == R"(f"g h")");
}

TEST_CASE("every byte reads back: value(literal(s)) == s in both styles") {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  for (auto style : {mlir_escapes::readable, mlir_escapes::hex}) {
    const std::string lit = neuronrw::mlir_string_literal(all, style);
    // A literal is one line: no raw line break survives the escaping.
    CHECK(lit.find('\n') == std::string::npos);
    CHECK(lit.find('\r') == std::string::npos);
    CHECK(neuronrw::scan_mlir_string_literal(lit, 0).ok());
    CHECK(neuronrw::scan_mlir_string_literal(lit, 0).end == lit.size());
    CHECK(neuronrw::mlir_string_value(lit) == all);
  }
}

TEST_CASE("mlir_string_value accepts exactly one well-formed literal") {
  CHECK(neuronrw::mlir_string_value(R"("a\22b")") == "a\"b"s);
  CHECK(neuronrw::mlir_string_value(R"("\6a\6A")") == "jj"s);
  CHECK(neuronrw::mlir_string_value(R"("")") == ""s);
  CHECK(neuronrw::mlir_string_value(R"("\n\t\\\"")") == "\n\t\\\""s);
  const char* bad[] = {
      "",            // nothing
      "abc",         // no quotes
      R"(")",        // one quote
      R"("abc)",     // unterminated
      R"("a"b")",    // an unescaped quote ends the literal early
      R"("a" )",     // text after the literal
      R"("\q")",     // unknown escape
      R"("\4")",     // one hex digit
      R"("\")",      // the escape swallows the closing quote
      "\"a\nb\"",    // a raw line break: literals are one line
  };
  for (const char* text : bad) {
    INFO(text);
    CHECK_FALSE(neuronrw::mlir_string_value(text).has_value());
  }
}

TEST_CASE("scan_mlir_string_literal: where a literal ends and where its first bad escape is") {
  using neuronrw::mlir_string_scan;
  const std::string_view text = R"(x = "a\"b" y)";
  auto s = neuronrw::scan_mlir_string_literal(text, 4);
  CHECK(s.terminated);
  CHECK(s.end == 10);
  CHECK(s.bad_escape == mlir_string_scan::npos);
  CHECK(text.substr(4, s.end - 4) == R"("a\"b")");

  // Unterminated: stops at the line break (not past it), or at the end.
  const std::string_view broken = "\"ab\ncd\"";
  s = neuronrw::scan_mlir_string_literal(broken, 0);
  CHECK_FALSE(s.terminated);
  CHECK(s.end == 3);
  s = neuronrw::scan_mlir_string_literal(R"("abc)", 0);
  CHECK_FALSE(s.terminated);
  CHECK(s.end == 4);

  // A bad escape is recorded (the first one) and scanning resumes after its backslash, so the
  // literal still ends at the next unescaped quote.
  const std::string_view escapes = R"("a\qb\4\zc" tail)";
  s = neuronrw::scan_mlir_string_literal(escapes, 0);
  CHECK(s.terminated);
  CHECK_FALSE(s.ok());
  CHECK(s.bad_escape == 2);
  CHECK(s.end == 11);
  // A backslash at the very end is a bad escape of an unterminated literal.
  s = neuronrw::scan_mlir_string_literal(R"("a\)", 0);
  CHECK(s.bad_escape == 2);
  CHECK_FALSE(s.terminated);
}

TEST_CASE("read_mlir_string_literal reads one literal out of a longer text and advances") {
  const std::string_view text = R"({a = "x\0Ay", b = "q\r"})";
  std::size_t at = text.find('"');
  auto v = neuronrw::read_mlir_string_literal(text, at);
  CHECK(v == "x\ny"s);
  CHECK(text.substr(at, 6) == ", b = ");
  at = text.find('"', at);
  const std::size_t start = at;
  v = neuronrw::read_mlir_string_literal(text, at);
  CHECK_FALSE(v.has_value());  // \r is not an MLIR escape
  CHECK(at == start + 5);      // but the cursor is past the literal: callers skipping it advance
}

}  // namespace
