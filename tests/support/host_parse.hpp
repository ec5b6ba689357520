// tests/support/host_parse.hpp — parse-or-fail for the host IR (pypto programs) in doctest tests.
#pragma once

#include <neuronrw/ir/host/text.hpp>

#include <doctest/doctest.h>

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

}  // namespace neuronrw::testing::host
