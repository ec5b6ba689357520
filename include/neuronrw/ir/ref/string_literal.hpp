// neuronrw/ir/ref/string_literal.hpp — the reference IR's short names for MLIR string-literal
// quoting: `ref::quote` / `ref::unquote` are neuronrw/ir/ref/mlir_string.hpp's mlir_string_literal /
// mlir_string_value, nothing more (the reference IR stores every string and symbol name as its
// plain value and quotes it only when printing).
//
// Customization points: none.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw::ref {

inline std::string quote(std::string_view s) { return mlir_string_literal(s); }
inline std::optional<std::string> unquote(std::string_view text) { return mlir_string_value(text); }

}  // namespace neuronrw::ref
