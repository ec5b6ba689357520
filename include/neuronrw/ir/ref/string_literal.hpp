// neuronrw/ir/ref/string_literal.hpp — the reference IR's names for MLIR string-literal quoting
// (neuronrw/mlir_string.hpp), used by its parser, printer and rewrites.
//
// Customization points: none.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <neuronrw/mlir_string.hpp>

namespace neuronrw::ref {

inline std::string quote(std::string_view s) { return mlir_string_literal(s); }
inline std::optional<std::string> unquote(std::string_view text) { return mlir_string_value(text); }

}  // namespace neuronrw::ref
