// neuronrw/diagnostic.hpp — a located error message, the one shape every parser, verifier and
// pass reports problems in: `FILE:LINE:COL: error: MESSAGE`.
//
// Customization points: none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace neuronrw {

/// A position in a source text. Lines and columns count from 1; 0 means "unknown" (an op a pass
/// created without copying a location).
struct source_loc {
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  friend bool operator==(const source_loc&, const source_loc&) = default;
  bool known() const noexcept { return line != 0; }
};

struct diagnostic {
  std::string file;  ///< as given to the parser ("-" or "<stdin>" for standard input)
  source_loc loc;
  std::string message;

  /// `FILE:LINE:COL: error: MESSAGE` (the location parts are dropped when unknown).
  std::string str() const {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (loc.known()) {
      s += ':';
      s += std::to_string(loc.line);
      s += ':';
      s += std::to_string(loc.col);
    }
    s += ": error: ";
    s += message;
    return s;
  }
  friend bool operator==(const diagnostic&, const diagnostic&) = default;
};

using diagnostics = std::vector<diagnostic>;

}  // namespace neuronrw
