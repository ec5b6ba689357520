// tests/archetype/program.hpp — builds programs on the archetype IR (archetype_ir.hpp) by label,
// for the tests that run algorithms and passes on the archetypes (tests/archetype/layers_test.cpp,
// tests/passes/archetype_passes_test.cpp), and reads them back by label so expectations stay
// short:
//
//   program<ir_at<layer::ordered>> p(2);        // function `f(%0, %1)`, being built
//   p.add("ag", "mhlo.all_gather", {"%0"});      // label, op name, operands
//   p.add("b", "foo.b", {"ag"});                 // "%N" = argument N, else an op's label
//   CHECK(p.order() == strings{"ag", "b"});
//
// Everything goes through the shared storage (archetype::ir_storage), never through ir_traits,
// so it works at every layer, even one without read_ir. Nothing here throws.
#pragma once

#include <charconv>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "archetype/archetype_ir.hpp"

namespace neuronrw::archetype {
using strings = std::vector<std::string>;
}  // namespace neuronrw::archetype

template <>
struct doctest::StringMaker<neuronrw::archetype::strings> {
  static doctest::String convert(const neuronrw::archetype::strings& v) {
    std::string s = "{";
    for (const auto& x : v) s += (s.size() > 1 ? ", " : "") + x;
    return (s + "}").c_str();
  }
};

namespace neuronrw::archetype {

/// A module of functions built by label. Ops named `*.return` or `*.yield` have no result;
/// every other op has one `i32` result. Operands: "%N" is argument N of a block (by default the
/// block the op goes into), anything else a labelled op's first result.
template <class G>
struct program {
  G g;
  int body = -1;  ///< the body block of the function being built
  std::vector<std::pair<std::string, op_h>> named;

  program() = default;
  /// Starts function `f` with `args` arguments.
  explicit program(std::size_t args) { function("f", args); }

  /// Starts another function; the ops added next go into its body.
  op_h function(const std::string& name, std::size_t args) {
    auto [f, b] = g.add_function(name, strings(args, "i32"));
    body = b;
    return f;
  }
  value_h value(const std::string& s, int args_of) const {
    if (s[0] != '%') return g.result((*this)[s]);
    std::size_t n = 0;
    std::from_chars(s.data() + 1, s.data() + s.size(), n);
    return g.arg(args_of, n);
  }
  /// Appends op `name` to `block` (default: the function's body); its "%N" operands are
  /// arguments of block `args_of` (default: `block`).
  op_h add(const std::string& label, const std::string& name, const strings& operands = {}, int block = -1,
           int args_of = -1) {
    const int b = block < 0 ? body : block;
    std::vector<value_h> vs;
    for (auto& o : operands) vs.push_back(value(o, args_of < 0 ? b : args_of));
    const bool no_result = name.ends_with("return") || name.ends_with("yield");
    auto o = g.add(b, name, vs, no_result ? strings{} : strings{"i32"});
    named.emplace_back(label, o);
    return o;
  }

  op_h operator[](const std::string& label) const {
    for (auto& [l, o] : named)
      if (l == label) return o;
    return {};
  }
  /// The label of an op, or its name when unlabelled (ops a pass created).
  std::string label(op_h o) const {
    for (auto& [l, x] : named)
      if (x == o) return l;
    if (o == op_h{}) return "<null>";
    return ir_storage::idx(o.id) < g.ops.size() ? g.op(o).name : "<unknown>";
  }
  template <class R>
  strings labels(const R& r) const {
    strings v;
    for (auto&& o : r) v.push_back(label(o));
    return v;
  }
  /// The labels of `block`'s ops in order (default: the function's body).
  strings order(int block = -1) const { return labels(ops_in(block)); }
  block_h blk(int block = -1) const { return {block < 0 ? body : block}; }

  /// Each operand of `o` as "%N" (argument N of block `args_of`), "label" (a labelled op's
  /// result) or "name#i" (result i of an op with several).
  strings operands(op_h o, int args_of) const {
    strings v;
    for (int x : g.op(o).operands) {
      const auto& d = g.values[ir_storage::idx(x)];
      if (d.def < 0) {
        const auto& args = g.blocks[ir_storage::idx(args_of)].args;
        std::size_t i = 0;
        while (i < args.size() && args[i] != x) ++i;
        v.push_back(i < args.size() ? "%" + std::to_string(i) : "<foreign argument>");
        continue;
      }
      const auto& res = g.ops[ir_storage::idx(d.def)].results;
      std::size_t i = 0;
      while (res[i] != x) ++i;
      const auto l = label(op_h{d.def});
      v.push_back(res.size() == 1 ? l : l + "#" + std::to_string(i));
    }
    return v;
  }
  /// The attribute's text as stored, or "<none>".
  std::string attr(op_h o, const std::string& key) const {
    for (auto& [k, v] : g.op(o).attrs)
      if (k == key) return v;
    return "<none>";
  }
  /// The ops with these labels, in this order.
  std::vector<op_h> ops_of(const strings& labels) const {
    std::vector<op_h> r;
    for (auto& l : labels) r.push_back((*this)[l]);
    return r;
  }

 private:
  std::vector<op_h> ops_in(int block) const {
    std::vector<op_h> r;
    for (int o : g.block_ops(block < 0 ? body : block)) r.push_back({o});
    return r;
  }
};

}  // namespace neuronrw::archetype
