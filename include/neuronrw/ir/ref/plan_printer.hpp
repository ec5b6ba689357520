// neuronrw/ir/ref/plan_printer.hpp — the reference IR's op printer for describe()
// (passes/protocol.hpp): ops by name and `line:col`, values by their name hints, functions by
// symbol. Every pass's dry run on the reference IR prints with it.
//
// Names come from the input and are printed so that each stays on its line: a symbol as MLIR
// prints it (`@f`, `@"a\nb"`: mlir_symbol_reference), an op name between quotes as it was written
// (the reader keeps its escapes as written, and no line break can be in it) with any raw control
// byte the lexer let through (a tab, a form feed) spelled `\XX`.
//
// Customization points: none.
#pragma once

#include <string>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw {

namespace ref {

/// describe()'s printer for the reference IR: `"mhlo.all_gather" (4:8)`, `%hint`, `@function`.
struct plan_printer {
  const module& m;

  std::string loc(op_ref o) const {
    const auto l = m.loc(o);
    if (!l.known()) return "?";
    return std::to_string(l.line) + ":" + std::to_string(l.col);
  }
  std::string operator()(op_ref o) const {
    if (!o.valid()) return "<none>";
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string s = "\"";
    for (const char ch : m.name(o)) {
      const auto c = static_cast<unsigned char>(ch);
      if (c >= 0x20 && c != 0x7F) {
        s += ch;
        continue;
      }
      s += '\\';
      s += hex[c >> 4];
      s += hex[c & 15];
    }
    return s + "\" (" + loc(o) + ")";
  }
  /// `%hint`, `%hint#1`, or a structural description when the value has no name hint.
  std::string value(value_ref v) const {
    const auto d = m.defining_op(v);
    const auto i = m.value_index(v);
    if (!d.valid()) {
      const std::string_view h = m.arg_name_hint(v);
      if (!h.empty()) return "%" + std::string(h);
      const auto owner = m.parent_op_of_block(m.argument_block(v));
      std::string who = owner.valid() && m.is_function(owner) ? mlir_symbol_reference(m.function(owner).sym_name) : (*this)(owner);
      return "argument #" + std::to_string(i) + " of " + who;
    }
    const std::string_view h = m.name_hint(d);
    if (!h.empty()) return "%" + std::string(h) + (m.num_results(d) > 1 ? "#" + std::to_string(i) : std::string());
    return "result #" + std::to_string(i) + " of " + (*this)(d);
  }
  std::string function(op_ref owner) const {
    if (owner.valid() && m.is_function(owner)) return mlir_symbol_reference(m.function(owner).sym_name);
    if (owner.valid()) return (*this)(owner);
    return "<module>";
  }
};

}  // namespace ref

}  // namespace neuronrw
