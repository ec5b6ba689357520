// Run-time tests of the concept layer: the same generic code reads the reference IR and the
// archetype IR and sees the same structure.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;

namespace {

// Kinds of the ops of a block in order, read only through the concept.
template <class G>
std::vector<nr::kind_id> block_kinds(const G& g, nr::block_handle_t<G> b) {
  std::vector<nr::kind_id> ks;
  for (auto o : nr::ir::ops(g, b)) ks.push_back(nr::ir::kind(g, o));
  return ks;
}

// Number of users of each operand of `op`, read only through the concept.
template <class G>
std::vector<std::size_t> operand_user_counts(const G& g, nr::op_handle_t<G> op) {
  std::vector<std::size_t> r;
  for (auto v : nr::ir::operands(g, op)) {
    std::size_t n = 0;
    for (auto u : nr::ir::users(g, v)) { (void)u; ++n; }
    r.push_back(n);
  }
  return r;
}

constexpr auto AG = nr::kind_id_v<nr::kinds::all_gather>;
constexpr auto RS = nr::kind_id_v<nr::kinds::reduce_scatter>;
constexpr auto RET = nr::kind_id_v<nr::kinds::return_>;
const auto MUL = nr::kind_id_of("multiply");

}  // namespace

TEST_CASE("the reference IR and the archetype expose the same structure through the concept") {
  // func @f(%w, %x) { %g = all_gather(%w); %y = multiply(%g, %x); %r = reduce_scatter(%y); return %r }
  nr::ref::module m;
  auto t = m.intern_type("tensor<4xf32>");
  nr::ref::type_ref ts2[] = {t, t};
  auto f = m.create_op("func.func", {}, {});
  m.make_function(f).sym_name = "f";
  m.push_back(m.body(), f);
  auto body = m.add_region(f, ts2);
  auto w = m.arguments(body)[0], x = m.arguments(body)[1];
  nr::ref::value_ref a1[] = {w};
  auto g = m.create_op("mhlo.all_gather", a1, std::span(ts2, 1));
  m.push_back(body, g);
  nr::ref::value_ref a2[] = {m.result(g, 0), x};
  auto y = m.create_op("mhlo.multiply", a2, std::span(ts2, 1));
  m.push_back(body, y);
  nr::ref::value_ref a3[] = {m.result(y, 0)};
  auto rs = m.create_op("mhlo.reduce_scatter", a3, std::span(ts2, 1));
  m.push_back(body, rs);
  nr::ref::value_ref a4[] = {m.result(rs, 0)};
  auto ret = m.create_op("func.return", a4, {});
  m.push_back(body, ret);

  nr::archetype::ir a;
  auto [af, ab] = a.add_function("f", {"tensor<4xf32>", "tensor<4xf32>"});
  auto ag = a.add(ab, "mhlo.all_gather", {a.arg(ab, 0)}, {"tensor<4xf32>"});
  auto ay = a.add(ab, "mhlo.multiply", {a.result(ag), a.arg(ab, 1)}, {"tensor<4xf32>"});
  auto ars = a.add(ab, "mhlo.reduce_scatter", {a.result(ay)}, {"tensor<4xf32>"});
  a.add(ab, "func.return", {a.result(ars)});

  const std::vector<nr::kind_id> expected{AG, MUL, RS, RET};
  CHECK(block_kinds(m, body) == expected);
  CHECK(block_kinds(a, nr::archetype::block_h{ab}) == expected);
  CHECK(operand_user_counts(m, y) == std::vector<std::size_t>{1, 1});
  CHECK(operand_user_counts(a, ay) == std::vector<std::size_t>{1, 1});
  CHECK(nr::ir::defining_op(m, w) == nr::ref::op_ref{});
  CHECK(nr::ir::defining_op(a, a.arg(ab, 0)) == nr::archetype::op_h{});
  CHECK(nr::ir::parent_op(m, g) == f);
  CHECK(nr::ir::parent_op(a, ag) == af);
  CHECK(nr::ir::is_before_in_block(m, g, rs));
  CHECK_FALSE(nr::ir::is_before_in_block(m, rs, g));
  CHECK(nr::ir::is_before_in_block(a, ag, ars));
  CHECK(nr::ir::next_op(m, g) == y);
  CHECK(nr::ir::prev_op(m, g) == nr::ref::op_ref{});
  CHECK(nr::ir::next_op(a, ag) == ay);

  // Moving through the concept: all_gather just before reduce_scatter, on both models.
  nr::ir::move_before(m, g, rs);
  nr::ir::move_before(a, ag, ars);
  const std::vector<nr::kind_id> moved{MUL, AG, RS, RET};
  CHECK(block_kinds(m, body) == moved);
  CHECK(block_kinds(a, nr::archetype::block_h{ab}) == moved);
}

