// tests/passes/schedule_fusion_random_function.hpp — the random function generator of the
// ScheduleFusion random tests (tests/passes/schedule_fusion_random_test.cpp on the reference IR,
// tests/adapters/mlir/random_test.cpp through the MLIR adapter): one function on the reference
// IR with collectives — pairs with compute between them, tuple reduce_scatters and
// get_tuple_element users, reductions regions (some capturing outer values), loops holding pairs
// of their own or using outer gathers, existing fusions. Deterministic per seed (std::mt19937,
// one draw per statement, so the sequence does not depend on argument evaluation order).
// Needs only the reference IR's data structure (no parser, no exceptions thrown).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>

namespace sf_random {

namespace ref = neuronrw::ref;

/// Builds one random function on the reference IR.
class generator {
 public:
  explicit generator(std::uint32_t seed) : rng_(seed) {
    t_ = m.intern_type("tensor<4xf32>");
    scalar_ = m.intern_type("tensor<f32>");
    auto f = m.create_op("func.func", {}, {});
    auto& fi = m.make_function(f);
    fi.sym_name = "random";
    fi.result_types = {t_};
    fi.result_attrs = {""};
    fi.arg_attrs = {"", "", ""};
    m.push_back(m.body(), f);
    const ref::type_ref args[] = {t_, t_, t_};
    auto body = m.add_region(f, args);
    std::vector<ref::value_ref> visible(m.arguments(body).begin(), m.arguments(body).end());
    scope s{visible, {}, {}};
    fill(body, s, 4 + pick(45), 0);
    std::vector<ref::value_ref> ret{s.values.back()};
    m.push_back(body, m.create_op("func.return", ret, {}));
  }

  ref::module m;

 private:
  struct scope {
    std::vector<ref::value_ref> values;   // usable operands
    std::vector<ref::value_ref> gathers;  // all_gather results among them
    std::vector<ref::value_ref> tuples;   // reduce_scatter results (get_tuple_element sources)
  };

  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }
  ref::value_ref any(const scope& s) { return s.values[pick(s.values.size())]; }

  ref::op_ref add(ref::block_ref b, std::string_view name, std::vector<ref::value_ref> operands,
                  std::size_t results = 1) {
    std::vector<ref::type_ref> types(results, t_);
    auto o = m.create_op(name, operands, types);
    m.push_back(b, o);
    return o;
  }

  void define(scope& s, ref::op_ref o, bool gather = false, bool tuple = false) {
    for (auto v : m.results(o)) {
      s.values.push_back(v);
      if (gather) s.gathers.push_back(v);
      if (tuple) s.tuples.push_back(v);
    }
  }

  // A reduction region on `o`: (a, b) -> add, sometimes scaled by a captured outer value.
  void reduction(ref::op_ref o, const scope& outer) {
    const ref::type_ref args[] = {scalar_, scalar_};
    auto b = m.add_region(o, args);
    auto a0 = m.arguments(b)[0], a1 = m.arguments(b)[1];
    const ref::type_ref st[] = {scalar_};
    const ref::value_ref ab[] = {a0, a1};
    auto sum = m.create_op("mhlo.add", ab, st);
    m.push_back(b, sum);
    auto r = m.result(sum, 0);
    if (pick(3) == 0) {
      const ref::value_ref sc[] = {r, outer.values[pick(outer.values.size())]};
      auto mul = m.create_op("mhlo.multiply", sc, st);
      m.push_back(b, mul);
      r = m.result(mul, 0);
    }
    const ref::value_ref rv[] = {r};
    m.push_back(b, m.create_op("mhlo.return", rv, {}));
  }

  void fill(ref::block_ref b, scope& s, std::size_t n, int depth) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t r = pick(100);
      if (r < 18) {
        define(s, add(b, "mhlo.all_gather", {any(s)}), true);
      } else if (r < 36) {
        std::vector<ref::value_ref> ops;
        if (!s.gathers.empty() && pick(10) < 8) ops.push_back(s.gathers[pick(s.gathers.size())]);
        // One pick per statement: the sequence must not depend on argument evaluation order.
        for (std::size_t k = 0, extra = pick(2) + (ops.empty() ? 1 : 0); k < extra; ++k) {
          const auto at = static_cast<std::ptrdiff_t>(pick(ops.size() + 1));
          const bool gather = !s.gathers.empty() && pick(3) == 0;
          const ref::value_ref v = gather ? s.gathers[pick(s.gathers.size())] : any(s);
          ops.insert(ops.begin() + at, v);
        }
        const std::size_t results = pick(4) == 0 ? 2 : 1;
        auto o = add(b, "mhlo.reduce_scatter", ops, results);
        if (pick(3) == 0) reduction(o, s);
        define(s, o, false, true);
      } else if (r < 42) {
        if (s.tuples.empty()) continue;
        define(s, add(b, "mhlo.get_tuple_element", {s.tuples[pick(s.tuples.size())]}));
      } else if (r < 48) {
        const char* name = pick(2) ? "mhlo.all_reduce" : "mhlo.all_to_all";
        auto o = add(b, name, {any(s)});
        if (pick(2)) reduction(o, s);
        define(s, o);
      } else if (r < 80) {
        std::vector<ref::value_ref> ops{any(s)};
        if (pick(2)) ops.push_back(any(s));
        define(s, add(b, ops.size() == 2 ? "mhlo.add" : "mhlo.negate", ops));
      } else if (r < 88 && depth < 2) {
        // A loop whose body uses outer values (gathers included) and holds ops of its own.
        auto loop = add(b, "loop.for", {any(s)});
        const ref::type_ref at[] = {t_};
        auto body = m.add_region(loop, at);
        scope inner = s;
        inner.values.push_back(m.arguments(body)[0]);
        fill(body, inner, 1 + pick(8), depth + 1);
        const ref::value_ref y[] = {inner.values.back()};
        m.push_back(body, m.create_op("loop.yield", y, {}));
        define(s, loop);
      } else if (r < 91) {
        // An existing fusion holding a pair.
        std::vector<ref::value_ref> in{any(s)};
        auto f = m.create_op("mhlo.fusion", in, std::vector<ref::type_ref>{t_},
                             {{"FusionKind", "\"ScheduleFusion\""}});
        m.push_back(b, f);
        const ref::type_ref at[] = {t_};
        auto body = m.add_region(f, at);
        const ref::value_ref a[] = {m.arguments(body)[0]};
        const ref::type_ref tt[] = {t_};
        auto g = m.create_op("mhlo.all_gather", a, tt);
        m.push_back(body, g);
        const ref::value_ref gv[] = {m.result(g, 0)};
        auto rs = m.create_op("mhlo.reduce_scatter", gv, tt);
        m.push_back(body, rs);
        const ref::value_ref rv[] = {m.result(rs, 0)};
        m.push_back(body, m.create_op("mhlo.return", rv, {}));
        define(s, f);
      } else {
        add(b, "test.sink", {any(s)}, 0);
      }
    }
    if (s.values.empty()) define(s, add(b, "mhlo.constant", {}));
  }

  std::mt19937 rng_;
  ref::type_ref t_, scalar_;
};

}  // namespace sf_random
