// neuronrw/mlir_string.hpp — deprecated: moved. The writers (mlir_string_literal,
// mlir_symbol_reference, mlir_is_bare_id, ...) are in <neuronrw/concepts/attribute.hpp>, the
// readers (scan_mlir_string_literal, read_mlir_string_literal, mlir_string_value) in
// <neuronrw/ir/ref/mlir_string.hpp>. This header includes both and goes in the next release.
#pragma once

#include <neuronrw/concepts/attribute.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>
