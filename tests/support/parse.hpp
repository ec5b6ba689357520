// tests/support/parse.hpp — parse-or-fail for doctest tests: the module or program a test
// input must give, with the parser's (or the verifier's) message when it does not.
#pragma once

#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>

namespace neuronrw::testing {

/// The reference-IR module `text` parses to (REQUIRE: it parses; the error is the message).
inline ::neuronrw::ref::module parse_ok(std::string_view text, std::string_view file = "t.mlir") {
  auto r = ::neuronrw::ref::parse(text, file);
  INFO(r.error.str());
  REQUIRE(r.ok());
  return std::move(*r.value);
}

/// parse_ok, and the module verifies (REQUIRE: no verifier error; the first is the message).
inline ::neuronrw::ref::module parse_verified(std::string_view text, std::string_view file = "t.mlir") {
  auto m = parse_ok(text, file);
  const auto errs = ::neuronrw::ref::verify(m);
  INFO((errs.empty() ? std::string() : errs[0].str()));
  REQUIRE(errs.empty());
  return m;
}

}  // namespace neuronrw::testing
