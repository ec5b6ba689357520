// tests/algorithms/block_program.hpp — builds the same one-function program on the reference IR
// and on the archetype IR from a few lines of text, so every block-algorithm test states its
// case once and runs it on both models with the same exact expectations (by label).
//
//   ag = mhlo.all_gather %0        label = op-name operands...   (%N = function argument N)
//   r  = foo.region ag {           `{` opens the op's one-block region
//     i = foo.use ag               ops inside may use any earlier value
//   }
//   ret = func.return r            `return`-kind ops have no result, every other op has one
//
// Nothing here depends on the algorithms under test.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstddef>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "archetype/archetype_ir.hpp"

namespace block_test {

// A malformed test program is a bug in the test: report it and stop (these tests also run in
// the -fno-exceptions build, tests/noexcept).
[[noreturn]] inline void malformed(const std::string& why) {
  std::fprintf(stderr, "block_program: %s\n", why.c_str());
  std::abort();
}


namespace nr = neuronrw;

struct spec_op {
  std::string label, name;
  std::vector<std::string> operands;
  int parent = -1;  // index of the op whose region holds this one; -1 = function body
};

inline std::vector<spec_op> parse_spec(std::string_view text, std::size_t& num_args) {
  std::vector<spec_op> ops;
  std::vector<int> open;  // region owners
  num_args = 0;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> tok;
    for (std::string t; ls >> t;) {
      if (t.rfind("//", 0) == 0) break;
      tok.push_back(t);
    }
    if (tok.empty()) continue;
    if (tok.size() == 1 && tok[0] == "}") {
      if (open.empty()) malformed("unbalanced }");
      open.pop_back();
      continue;
    }
    if (tok.size() < 3 || tok[1] != "=") malformed("bad line: " + line);
    spec_op o;
    o.label = tok[0];
    o.name = tok[2];
    o.parent = open.empty() ? -1 : open.back();
    bool opens = false;
    for (std::size_t i = 3; i < tok.size(); ++i) {
      if (tok[i] == "{") {
        opens = true;
        continue;
      }
      if (tok[i][0] == '%') num_args = std::max(num_args, std::stoul(tok[i].substr(1)) + 1);
      o.operands.push_back(tok[i]);
    }
    ops.push_back(std::move(o));
    if (opens) open.push_back(static_cast<int>(ops.size() - 1));
  }
  if (!open.empty()) malformed("unclosed {");
  return ops;
}

inline bool is_return_name(std::string_view name) {
  auto dot = name.find('.');
  return (dot == std::string_view::npos ? name : name.substr(dot + 1)) == "return";
}

/// A program built on IR G (neuronrw::ref::module or neuronrw::archetype::ir).
template <class G>
class program {
 public:
  using op = nr::op_handle_t<G>;
  using block = nr::block_handle_t<G>;

  explicit program(std::string_view text) {
    std::size_t nargs = 0;
    auto spec = parse_spec(text, nargs);
    std::vector<block> regions(spec.size());
    std::vector<bool> has_region(spec.size(), false);
    if constexpr (std::is_same_v<G, nr::ref::module>) {
      auto i32 = g.intern_type("i32");
      auto f = g.create_op("func.func", {}, {});
      g.make_function(f).sym_name = "f";
      g.push_back(g.body(), f);
      std::vector<nr::ref::type_ref> arg_types(nargs, i32);
      body = g.add_region(f, arg_types);
      for (std::size_t i = 0; i < spec.size(); ++i) {
        std::vector<nr::ref::value_ref> vals;
        for (auto& s : spec[i].operands) vals.push_back(resolve(s, [&](std::size_t k) { return g.arguments(body)[k]; }));
        std::vector<nr::ref::type_ref> types;
        if (!is_return_name(spec[i].name)) types.push_back(i32);
        auto o = g.create_op(spec[i].name, vals, types);
        g.push_back(parent_block(spec, i, regions, has_region), o);
        add(spec[i].label, o);
      }
    } else {
      const int b = g.add_function("f", std::vector<std::string>(nargs, "i32")).second;
      body = block{b};
      for (std::size_t i = 0; i < spec.size(); ++i) {
        std::vector<nr::archetype::value_h> vals;
        for (auto& s : spec[i].operands) vals.push_back(resolve(s, [&](std::size_t k) { return g.arg(b, k); }));
        std::vector<std::string> types;
        if (!is_return_name(spec[i].name)) types.push_back("i32");
        auto o = g.add(parent_block(spec, i, regions, has_region).id, spec[i].name, vals, types);
        add(spec[i].label, o);
      }
    }
  }

  G g;
  block body{};

  op operator[](std::string_view label) const {
    for (auto& [l, o] : ops_)
      if (l == label) return o;
    malformed("no op labelled " + std::string(label));
  }
  std::string label(op o) const {
    if (o == nr::ir::null_op<G>()) return "<null>";
    for (auto& [l, x] : ops_)
      if (x == o) return l;
    return "<unknown>";
  }
  template <class R>
  std::vector<std::string> labels(const R& r) const {
    std::vector<std::string> v;
    for (auto&& o : r) v.push_back(label(o));
    return v;
  }
  /// Labels of the function body's ops, in block order.
  std::vector<std::string> order() const { return labels(nr::ir::ops(g, body)); }
  /// Labels of the ops of `b`, in block order.
  std::vector<std::string> order(block b) const { return labels(nr::ir::ops(g, b)); }
  const std::vector<std::pair<std::string, op>>& all() const { return ops_; }

 private:
  template <class Arg>
  nr::value_handle_t<G> resolve(const std::string& s, Arg arg) {
    if (s[0] == '%') return arg(std::stoul(s.substr(1)));
    auto rs = nr::ir::results(g, (*this)[s]);
    if (std::ranges::begin(rs) == std::ranges::end(rs)) malformed(s + " has no result");
    return *std::ranges::begin(rs);
  }
  block parent_block(const std::vector<spec_op>& spec, std::size_t i, std::vector<block>& regions,
                     std::vector<bool>& has_region) {
    const int p = spec[i].parent;
    if (p < 0) return body;
    auto k = static_cast<std::size_t>(p);
    if (!has_region[k]) {
      if constexpr (std::is_same_v<G, nr::ref::module>)
        regions[k] = g.add_region(ops_[k].second);
      else
        regions[k] = block{g.add_region(ops_[k].second)};
      has_region[k] = true;
    }
    return regions[k];
  }
  void add(const std::string& label, op o) {
    for (auto& [l, x] : ops_)
      if (l == label) malformed("duplicate label " + label);
    ops_.emplace_back(label, o);
  }
  std::vector<std::pair<std::string, op>> ops_;
};

using strings = std::vector<std::string>;

/// A random well-formed program: `n` top-level ops (some collectives, some with a region whose
/// ops use earlier outer values), ending with a return of the last value. Deterministic in seed.
/// Each top-level op has operands with probability `operand_percent`% (low = sparse dataflow).
inline std::string random_program(std::mt19937& rng, std::size_t n, unsigned operand_percent = 100) {
  static constexpr const char* names[] = {"foo.add", "foo.mul", "foo.neg", "mhlo.all_gather",
                                          "mhlo.reduce_scatter", "mhlo.all_reduce", "foo.const"};
  auto pick = [&](std::size_t k) { return static_cast<std::size_t>(rng() % k); };
  std::ostringstream out;
  std::vector<std::string> defined{"%0", "%1"};
  for (std::size_t i = 0; i < n; ++i) {
    std::string label = "o" + std::to_string(i);
    const std::size_t nops = pick(100) < operand_percent ? pick(3) : 0;
    out << label << " = " << names[pick(std::size(names))];
    for (std::size_t k = 0; k < nops; ++k) out << ' ' << defined[pick(defined.size())];
    if (pick(6) == 0) {
      out << " {\n";
      std::vector<std::string> inner = defined;
      const std::size_t m = 1 + pick(3);
      for (std::size_t j = 0; j < m; ++j) {
        std::string il = label + "_" + std::to_string(j);
        out << "  " << il << " = foo.inner";
        for (std::size_t k = 0, c = pick(3); k < c; ++k) out << ' ' << inner[pick(inner.size())];
        out << '\n';
        inner.push_back(il);
      }
      out << "}\n";
    } else {
      out << '\n';
    }
    defined.push_back(label);
  }
  out << "ret = func.return " << defined.back() << '\n';
  return out.str();
}

}  // namespace block_test
