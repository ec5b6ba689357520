// tests/support/host_parse.hpp — parse-or-fail for the host IR (pypto programs) in doctest tests.
#pragma once

#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/text.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>

// In namespace testing::host: tests/support/parse.hpp's parse_ok is the reference IR's, with the
// same parameters.
namespace neuronrw::testing::host {

/// The host program `text` parses to (REQUIRE: it parses; the error is the message).
inline ::neuronrw::host::program parse_ok(std::string_view text, std::string_view file = "t.py") {
  auto r = ::neuronrw::host::parse_program(text, file);
  INFO(r.error.str());
  REQUIRE(r.ok());
  return std::move(*r.value);
}

/// parse(text) prints back exactly as `text`, the print is a fixed point, and the two programs
/// are structurally equal with equal hashes.
inline void check_fixed_point(const std::string& text) {
  ::neuronrw::host::program p = parse_ok(text);
  const std::string out = ::neuronrw::host::print_program(p);
  CHECK(out == text);
  ::neuronrw::host::program q = parse_ok(out);
  CHECK(::neuronrw::host::structural_equal(p, q));
  CHECK(::neuronrw::host::structural_hash(p) == ::neuronrw::host::structural_hash(q));
  CHECK(::neuronrw::host::print_program(q) == out);
}

/// The two imports and the decorator every program of the host tests starts with.
constexpr std::string_view program_header =
    "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.program\n";

/// A program `class CLS:` of `functions` (each indented four spaces), after program_header.
inline std::string program_text(std::string_view cls, std::string_view functions) {
  return std::string(program_header) + "class " + std::string(cls) + ":\n" + std::string(functions);
}

/// The error `text` fails to parse with (file "e.py"), or "(no error)".
inline std::string parse_error_of(std::string_view text) {
  auto r = ::neuronrw::host::parse_program(text, "e.py");
  return r.ok() ? std::string("(no error)") : r.error.str();
}

}  // namespace neuronrw::testing::host
