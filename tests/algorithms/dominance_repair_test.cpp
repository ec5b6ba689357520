// Dominance repair (sink / hoist, plan + apply) on the reference IR and the archetype IR: exact
// op sequences and move lists, every refusal reason, nested regions, and a randomized check that
// accepted plans keep dominance and the order of everything else while refused ones were needed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "algorithms/block_program.hpp"
#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;
using block_test::program;
using block_test::strings;

namespace {

template <class G>
strings move_text(const program<G>& p, const nr::repair_plan<nr::op_handle_t<G>>& plan) {
  strings r;
  for (auto& m : plan.moves)
    r.push_back(p.label(m.op) + (m.where == nr::move_position::before ? " before " : " after ") + p.label(m.anchor));
  return r;
}

// Every op of the body comes after its producers in the body (nested uses included).
template <class G>
bool dominance_holds(const program<G>& p) {
  for (auto&& x : nr::ir::ops(p.g, p.body))
    for (auto&& d : nr::producers_in_block(p.g, x, p.body))
      if (!nr::ir::is_before_in_block(p.g, d, x)) return false;
  return true;
}

constexpr const char* sink_text = R"(
  ag = mhlo.all_gather %0
  a = foo.a %1
  b = foo.b ag
  c = foo.c a
  d = foo.d b
  rs = mhlo.reduce_scatter ag c
  e = foo.e d rs
  ret = func.return e
)";

}  // namespace

TEST_CASE_TEMPLATE("sink: the ScheduleFusion reschedule", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(sink_text);
  auto plan = nr::plan_sink(p.g, p["ag"], p["rs"], p["rs"]);
  REQUIRE(plan.ok());
  CHECK(p.labels(plan.slice) == strings{"b", "d"});
  CHECK(move_text(p, plan) == strings{"ag before rs", "b after rs", "d after b"});
  CHECK(p.order() == strings{"ag", "a", "b", "c", "d", "rs", "e", "ret"});  // planning changes nothing
  nr::apply_repair(p.g, plan);
  CHECK(p.order() == strings{"a", "c", "ag", "rs", "b", "d", "e", "ret"});
  CHECK(dominance_holds(p));
}

TEST_CASE_TEMPLATE("sink: carried ops land after a later point", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    ag = mhlo.all_gather %0
    b = foo.b ag
    c = foo.c %1
    rs = mhlo.reduce_scatter ag c
    g1 = mhlo.get_tuple_element rs
    f = foo.f g1
    ret = func.return f b
  )");
  auto plan = nr::plan_sink(p.g, p["ag"], p["rs"], p["g1"]);
  REQUIRE(plan.ok());
  nr::apply_repair(p.g, plan);
  CHECK(p.order() == strings{"c", "ag", "rs", "g1", "b", "f", "ret"});
  CHECK(dominance_holds(p));
}

TEST_CASE_TEMPLATE("sink refusals", G, nr::ref::module, nr::archetype::ir) {
  SUBCASE("a carried op feeds dest") {
    program<G> p(R"(
      ag = mhlo.all_gather %0
      b = foo.b ag
      d = foo.d b
      rs = mhlo.reduce_scatter ag d
    )");
    auto plan = nr::plan_sink(p.g, p["ag"], p["rs"], p["rs"]);
    CHECK(plan.refusal == nr::repair_refusal::slice_feeds_range);
    CHECK(nr::to_string(plan.refusal) == "slice_feeds_range");
    CHECK(p.label(plan.offending) == "rs");
    CHECK(p.label(plan.dependence) == "d");
    CHECK(p.labels(plan.slice) == strings{"b", "d"});
    CHECK(plan.moves.empty());
    nr::apply_repair(p.g, plan);  // a refused plan changes nothing
    CHECK(p.order() == strings{"ag", "b", "d", "rs"});
  }
  SUBCASE("a carried op feeds an op between dest and after") {
    program<G> p(sink_text);
    auto plan = nr::plan_sink(p.g, p["ag"], p["rs"], p["e"]);
    CHECK(plan.refusal == nr::repair_refusal::slice_feeds_range);
    CHECK(p.label(plan.offending) == "e");
    CHECK(p.label(plan.dependence) == "d");
  }
  SUBCASE("the moved op itself may feed [dest, after]") {
    program<G> p(R"(
      ag = mhlo.all_gather %0
      b = foo.b ag
      rs = mhlo.reduce_scatter ag
      x = foo.x ag
    )");
    auto plan = nr::plan_sink(p.g, p["ag"], p["rs"], p["x"]);
    REQUIRE(plan.ok());
    nr::apply_repair(p.g, plan);
    CHECK(p.order() == strings{"ag", "rs", "x", "b"});
    CHECK(move_text(p, plan) == strings{"b after x"});  // the whole window is carried: ag stays
  }
  SUBCASE("carried ops cannot go after a terminator") {
    program<G> p(R"(
      ag = mhlo.all_gather %0
      b = foo.b ag
      rs = mhlo.reduce_scatter ag
      ret = func.return rs
    )");
    auto plan = nr::plan_sink(p.g, p["ag"], p["rs"], p["ret"]);
    CHECK(plan.refusal == nr::repair_refusal::after_terminator);
    CHECK(p.label(plan.offending) == "ret");
    // With nothing to carry, moving before the terminator is fine.
    program<G> q("a = foo.a %0\nb = foo.b %0\nret = func.return a b\n");
    auto ok = nr::plan_sink(q.g, q["a"], q["ret"], q["ret"]);
    REQUIRE(ok.ok());
    nr::apply_repair(q.g, ok);
    CHECK(q.order() == strings{"b", "a", "ret"});
  }
  SUBCASE("a return-kind op is never moved") {
    // Not a valid block (the return is not last): only to reach the check.
    program<G> p(R"(
      x = foo.x %0
      r = func.return x
      y = foo.y %0
    )");
    auto carried = nr::plan_sink(p.g, p["x"], p["y"], p["y"]);
    CHECK(carried.refusal == nr::repair_refusal::moves_terminator);
    CHECK(p.label(carried.offending) == "r");
    auto itself = nr::plan_sink(p.g, p["r"], p["y"], p["y"]);
    CHECK(itself.refusal == nr::repair_refusal::moves_terminator);
    CHECK(p.label(itself.offending) == "r");
  }
  SUBCASE("order and block preconditions") {
    program<G> p(R"(
      a = foo.a %0
      r = foo.region a {
        i = foo.i a
      }
      b = foo.b a
    )");
    CHECK(nr::plan_sink(p.g, p["b"], p["a"], p["a"]).refusal == nr::repair_refusal::wrong_order);
    CHECK(nr::plan_sink(p.g, p["a"], p["a"], p["a"]).refusal == nr::repair_refusal::wrong_order);
    auto late = nr::plan_sink(p.g, p["a"], p["b"], p["r"]);
    CHECK(late.refusal == nr::repair_refusal::wrong_order);
    CHECK(p.label(late.offending) == "r");
    auto nested = nr::plan_sink(p.g, p["a"], p["i"], p["i"]);
    CHECK(nested.refusal == nr::repair_refusal::different_blocks);
    CHECK(p.label(nested.offending) == "i");
  }
}

TEST_CASE_TEMPLATE("sink carries ops that use the op only inside a nested region", G, nr::ref::module,
                   nr::archetype::ir) {
  program<G> p(R"(
    ag = mhlo.all_gather %0
    r = foo.region %1 {
      i = foo.use ag
    }
    k = foo.k %1
    s = foo.s r
    rs = mhlo.reduce_scatter ag k
    ret = func.return rs s
  )");
  auto plan = nr::plan_sink(p.g, p["ag"], p["rs"], p["rs"]);
  REQUIRE(plan.ok());
  CHECK(p.labels(plan.slice) == strings{"r", "s"});
  nr::apply_repair(p.g, plan);
  CHECK(p.order() == strings{"k", "ag", "rs", "r", "s", "ret"});
  auto regions = nr::ir::regions(p.g, p["r"]);
  auto rb = *std::ranges::begin(regions);
  CHECK(p.order(rb) == strings{"i"});
  CHECK(dominance_holds(p));
}

TEST_CASE_TEMPLATE("hoist carries the backward slice", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    a = foo.a %0
    x = foo.x %0
    b = foo.b a
    y = foo.y x
    c = foo.c b %1
    z = foo.z %1
    t = foo.t c a
    ret = func.return t y z
  )");
  auto plan = nr::plan_hoist(p.g, p["t"], p["a"]);
  REQUIRE(plan.ok());
  CHECK(p.labels(plan.slice) == strings{"b", "c"});
  CHECK(move_text(p, plan) == strings{"b after a", "c after b", "t after c"});
  nr::apply_repair(p.g, plan);
  CHECK(p.order() == strings{"a", "b", "c", "t", "x", "y", "z", "ret"});
  CHECK(dominance_holds(p));

  SUBCASE("carried ops are listed in block order, the unrelated op stays after them") {
    program<G> q(R"(
      a = foo.a %0
      x = foo.x %0
      b = foo.b %0
      c = foo.c b
    )");
    auto h = nr::plan_hoist(q.g, q["c"], q["a"]);
    REQUIRE(h.ok());
    CHECK(move_text(q, h) == strings{"b after a", "c after b"});
    nr::apply_repair(q.g, h);
    CHECK(q.order() == strings{"a", "b", "c", "x"});
  }
}

TEST_CASE_TEMPLATE("hoist lists only real moves", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    a = foo.a %0
    b = foo.b a
    x = foo.x %0
    c = foo.c b
    t = foo.t c
  )");
  auto plan = nr::plan_hoist(p.g, p["t"], p["a"]);
  REQUIRE(plan.ok());
  CHECK(p.labels(plan.slice) == strings{"b", "c"});
  CHECK(move_text(p, plan) == strings{"c after b", "t after c"});
  nr::apply_repair(p.g, plan);
  CHECK(p.order() == strings{"a", "b", "c", "t", "x"});

  program<G> q("a = foo.a %0\nb = foo.b a\nt = foo.t b\n");
  auto none = nr::plan_hoist(q.g, q["t"], q["a"]);
  REQUIRE(none.ok());
  CHECK(none.moves.empty());
}

TEST_CASE_TEMPLATE("hoist through a nested use, and its refusals", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    a = foo.a %0
    x = foo.x %0
    b = foo.b %1
    t = foo.region %0 {
      i = foo.use b
    }
    ret = func.return t x
  )");
  auto plan = nr::plan_hoist(p.g, p["t"], p["a"]);
  REQUIRE(plan.ok());
  CHECK(p.labels(plan.slice) == strings{"b"});
  nr::apply_repair(p.g, plan);
  CHECK(p.order() == strings{"a", "b", "t", "x", "ret"});

  auto ret = nr::plan_hoist(p.g, p["ret"], p["a"]);
  CHECK(ret.refusal == nr::repair_refusal::moves_terminator);
  CHECK(p.label(ret.offending) == "ret");
  CHECK(ret.moves.empty());
  auto order = nr::plan_hoist(p.g, p["a"], p["t"]);
  CHECK(order.refusal == nr::repair_refusal::wrong_order);
  CHECK(p.label(order.offending) == "t");
  CHECK(nr::plan_hoist(p.g, p["a"], p["a"]).refusal == nr::repair_refusal::wrong_order);
  auto nested = nr::plan_hoist(p.g, p["x"], p["i"]);
  CHECK(nested.refusal == nr::repair_refusal::different_blocks);
  CHECK(p.label(nested.offending) == "i");
}

namespace {

template <class G>
void apply_naively(G& g, const nr::repair_plan<nr::op_handle_t<G>>& plan, nr::op_handle_t<G> op,
                   nr::op_handle_t<G> dest, nr::op_handle_t<G> after) {
  nr::ir::move_before(g, op, dest);
  auto anchor = after;
  for (auto s : plan.slice) {
    nr::ir::move_after(g, s, anchor);
    anchor = s;
  }
}

// x, then c0 .. c(n-1) (each uses the one before, c0 uses x) interleaved with u0 .. u(n-1)
// (unrelated), then d and the return: sinking x to d carries the c's, hoisting c(n-1) back to
// right after the first op carries x and the c's.
std::string interleaved_chain(std::size_t n) {
  std::string t = "  a = foo.a %0\n  x = foo.x a\n";
  for (std::size_t i = 0; i < n; ++i) {
    t += "  c" + std::to_string(i) + " = foo.c " + (i == 0 ? std::string("x") : "c" + std::to_string(i - 1)) + "\n";
    t += "  u" + std::to_string(i) + " = foo.u %0\n";
  }
  t += "  d = foo.d a\n  ret = func.return d c" + std::to_string(n - 1) + "\n";
  return t;
}

template <class G>
void long_then_short_slices(nr::block_scratch<G>& scratch) {
  for (const std::size_t n : {std::size_t{150}, std::size_t{3}, std::size_t{70}}) {
    CAPTURE(n);
    program<G> p(interleaved_chain(n));
    strings cs;
    for (std::size_t i = 0; i < n; ++i) cs.push_back("c" + std::to_string(i));
    const auto sink = nr::plan_sink(scratch, p.g, p["x"], p["d"], p["d"]);
    REQUIRE(sink.ok());
    CHECK(p.labels(sink.slice) == cs);
    nr::apply_repair(p.g, sink);
    CHECK(dominance_holds(p));
    const auto hoist = nr::plan_hoist(scratch, p.g, p["c" + std::to_string(n - 1)], p["a"]);
    REQUIRE(hoist.ok());
    strings back{"x"};
    back.insert(back.end(), cs.begin(), cs.end() - 1);
    CHECK(p.labels(hoist.slice) == back);  // in block order, though collected backwards
    nr::apply_repair(p.g, hoist);
    CHECK(dominance_holds(p));
    strings expected{"a", "x"};
    expected.insert(expected.end(), cs.begin(), cs.end());
    for (std::size_t i = 0; i < n; ++i) expected.push_back("u" + std::to_string(i));
    expected.insert(expected.end(), {"d", "ret"});
    CHECK(p.order() == expected);
  }
}

template <class G>
void random_repairs(std::mt19937& rng, const std::string& text) {
  using op = nr::op_handle_t<G>;
  program<G> p(text);
  nr::block_scratch<G> scratch(p.g);
  for (int step = 0; step < 8; ++step) {
    std::vector<op> top;
    for (auto&& o : nr::ir::ops(p.g, p.body)) top.push_back(o);
    const std::size_t n = top.size();
    std::size_t i = rng() % n, j = rng() % n;
    if (i == j) continue;
    if (i > j) std::swap(i, j);
    const strings before = p.order();
    const bool sink = rng() % 2;
    const std::size_t k = j + rng() % std::min<std::size_t>(4, n - j);
    nr::repair_plan<op> plan;
    if (sink) {
      plan = nr::plan_sink(scratch, p.g, top[i], top[j], top[k]);
      if (!plan.ok()) {
        CHECK(plan.moves.empty());
        if (plan.refusal == nr::repair_refusal::slice_feeds_range) {
          // offending ∈ [dest, after] uses dependence, a carried op.
          CHECK(std::find(plan.slice.begin(), plan.slice.end(), plan.dependence) != plan.slice.end());
          auto pr = nr::producers_in_block(p.g, plan.offending, p.body);
          CHECK(std::find(pr.begin(), pr.end(), plan.dependence) != pr.end());
          CHECK((plan.offending == top[j] || nr::ir::is_before_in_block(p.g, top[j], plan.offending)));
          CHECK_FALSE(nr::ir::is_before_in_block(p.g, top[k], plan.offending));
        } else {
          CHECK((plan.refusal == nr::repair_refusal::after_terminator ||
                 plan.refusal == nr::repair_refusal::moves_terminator));
        }
        continue;
      }
    } else {
      plan = nr::plan_hoist(scratch, p.g, top[j], top[i]);
      if (!plan.ok()) {
        CHECK(plan.refusal == nr::repair_refusal::moves_terminator);
        CHECK(nr::ir::kind(p.g, plan.offending) == nr::kind_id_v<nr::kinds::return_>);
        continue;
      }
    }
    CHECK(p.order() == before);
    nr::apply_repair(p.g, plan);
    const strings after = p.order();
    // Nothing lost or duplicated.
    CHECK(std::multiset<std::string>(after.begin(), after.end()) ==
          std::multiset<std::string>(before.begin(), before.end()));
    CHECK(dominance_holds(p));
    // Everything not moved keeps its relative order.
    std::set<std::string> moved;
    for (auto& m : plan.moves) moved.insert(p.label(m.op));
    strings kept_before, kept_after;
    for (auto& l : before)
      if (!moved.count(l)) kept_before.push_back(l);
    for (auto& l : after)
      if (!moved.count(l)) kept_after.push_back(l);
    CHECK(kept_before == kept_after);
    // The op sits next to dest; the slice is contiguous, in order, at its place.
    auto pos = [&](op o) { return std::find(after.begin(), after.end(), p.label(o)) - after.begin(); };
    if (sink) {
      CHECK(pos(top[i]) + 1 == pos(top[j]));
      for (std::size_t s = 0; s < plan.slice.size(); ++s)
        CHECK(pos(plan.slice[s]) == pos(top[k]) + 1 + static_cast<std::ptrdiff_t>(s));
    } else {
      const auto at = pos(top[i]);
      for (std::size_t s = 0; s < plan.slice.size(); ++s)
        CHECK(pos(plan.slice[s]) == at + 1 + static_cast<std::ptrdiff_t>(s));
      CHECK(pos(top[j]) == at + 1 + static_cast<std::ptrdiff_t>(plan.slice.size()));
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("a scratch reused for long and short slices: each plan lists exactly its own", G,
                   nr::ref::module, nr::archetype::ir) {
  // The planners collect a slice in the scratch's buffer (block_scratch::repair_buffer), which
  // keeps its size between calls: a short slice after a long one must not see the old tail.
  program<G> first(interleaved_chain(2));
  nr::block_scratch<G> scratch(first.g);
  long_then_short_slices(scratch);
  CHECK(scratch.repair_buffer().size() >= 150);
}

TEST_CASE_TEMPLATE("randomized: accepted plans keep dominance and everything else in order", G,
                   nr::ref::module, nr::archetype::ir) {
  std::mt19937 rng(99);
  for (int round = 0; round < 80; ++round) random_repairs<G>(rng, block_test::random_program(rng, 6 + rng() % 30));
}

TEST_CASE_TEMPLATE("randomized, larger blocks: long carried slices (a run move on the reference IR)", G,
                   nr::ref::module, nr::archetype::ir) {
  std::mt19937 rng(7);
  for (int round = 0; round < 12; ++round) random_repairs<G>(rng, block_test::random_program(rng, 120 + rng() % 200));
}

TEST_CASE("randomized: refused sinks were needed (the naive moves break dominance)") {
  // Archetype only: it is copyable, so the naive moves can run on a copy.
  std::mt19937 rng(2024);
  int refused = 0;
  for (int round = 0; round < 300; ++round) {
    program<nr::archetype::ir> p(block_test::random_program(rng, 6 + rng() % 20));
    std::vector<nr::archetype::op_h> top;
    for (auto&& o : nr::ir::ops(p.g, p.body)) top.push_back(o);
    const std::size_t n = top.size() - 1;  // never the return
    std::size_t i = rng() % n, j = rng() % n;
    if (i >= j) continue;
    const std::size_t k = j + rng() % (n - j);
    auto plan = nr::plan_sink(p.g, top[i], top[j], top[k]);
    if (plan.refusal != nr::repair_refusal::slice_feeds_range) continue;
    ++refused;
    nr::archetype::ir copy = p.g;
    apply_naively(copy, plan, top[i], top[j], top[k]);
    bool broken = false;
    for (auto&& x : nr::ir::ops(copy, p.body))
      for (auto&& d : nr::producers_in_block(copy, x, p.body))
        broken = broken || !nr::ir::is_before_in_block(copy, d, x);
    CHECK(broken);
  }
  CHECK(refused > 10);
}
