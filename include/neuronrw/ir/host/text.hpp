// neuronrw/ir/host/text.hpp — the text format of the reference host IR, in the style of pypto's
// Python printer: a `@pl.program` class of `@pl.function(level=..., role=...)` methods, Python
// statements, `pl.` / `pld.` calls, and the private `pl._dump.*` forms that save what the pass
// materializes (comm-domain scopes, WindowBuffers and their sharing, recorded call types).
//
//   print_program(const program&) -> std::string       deterministic; ends with a newline
//   parse_program(std::string_view text, std::string_view file, std::uint32_t first_line = 1) -> parse_result
//
// Contract (docs/host-programs.md §"The round-trip contract"): for every self-contained program p
// (every variable referenced where it is visible, every called function defined, every WindowBuffer
// referenced from one function only, names that are identifiers), parse(print(p)) is structurally
// equal to p (hash.hpp) and has the same structural hash; no pass is re-run. Bad input gives
// `FILE:LINE:COL: error: MESSAGE`, never a crash and never a partial program. The grammar is in
// docs/host-programs.md.
//
// This header includes the three parts, each usable on its own:
//
//   text/lexer.hpp      tokens (Python's layout: INDENT / DEDENT / NEWLINE), the input limits
//   text/parser.hpp     parse_program, parse_result
//   text/printer.hpp    print_program
//   text/common.hpp     the name and quoting helpers they share
//
// Customization points: none.
#pragma once

#include <neuronrw/ir/host/text/lexer.hpp>
#include <neuronrw/ir/host/text/parser.hpp>
#include <neuronrw/ir/host/text/printer.hpp>
