// tests/support/checks.hpp — named checks, one line each, for test programs that do not use
// doctest (their main() is the test): the C++ twin of tests/support/checks.py, printing the same
// lines. `check(name, cond, detail)` prints `ok   NAME` or `FAIL NAME` and, for a failure with a
// detail, the detail indented by five spaces; `done()` prints `N check(s) failed` or
// `all checks passed` and returns main()'s exit status.
#pragma once

#include <iostream>
#include <string>
#include <string_view>

namespace neuronrw::testing {

class checks {
 public:
  explicit checks(std::ostream& out = std::cout) : out_(out) {}

  /// Records one check; returns `cond`.
  bool operator()(std::string_view name, bool cond, std::string_view detail = {}) {
    out_ << (cond ? "ok   " : "FAIL ") << name << "\n";
    if (cond) return true;
    ++failures_;
    if (!detail.empty()) {
      out_ << "     ";
      for (char c : detail) out_ << c << (c == '\n' ? "     " : "");
      out_ << "\n";
    }
    return false;
  }

  int failures() const { return failures_; }

  /// The summary line; the exit status (1 when any check failed, else 0).
  int done() {
    out_ << (failures_ ? std::to_string(failures_) + " check(s) failed" : std::string("all checks passed")) << "\n";
    return failures_ ? 1 : 0;
  }

 private:
  std::ostream& out_;
  int failures_ = 0;
};

}  // namespace neuronrw::testing
