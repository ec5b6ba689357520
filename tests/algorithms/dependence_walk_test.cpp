// The dependence walk on the reference IR and the archetype IR: boundary stops, dedup, block
// order, budgets at and over the limit, window floors, nested uses, custom and empty boundary
// sets, start values, reused scratch, and a randomized comparison with a brute-force closure.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "algorithms/block_program.hpp"
#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;
using block_test::program;
using block_test::strings;

namespace {

// The ScheduleFusion shape: ag feeds rs through compute; x precedes the window; ar is another
// collective on the producer chain.
constexpr const char* chain_text = R"(
  x = foo.x %0
  ag = mhlo.all_gather %0
  m1 = foo.mul ag %1
  e = foo.e x
  m2 = foo.add m1 e
  ar = mhlo.all_reduce %1
  m3 = foo.add m2 ar
  rs = mhlo.reduce_scatter m3
  ret = func.return rs
)";

template <class G>
nr::value_handle_t<G> result_of(const program<G>& p, const char* label) {
  auto rs = nr::ir::results(p.g, p[label]);
  return *std::ranges::begin(rs);
}

}  // namespace

TEST_CASE_TEMPLATE("the walk stops at collectives and orders visited ops by block position", G,
                   nr::ref::module, nr::archetype::ir) {
  program<G> p(chain_text);
  auto r = nr::dependence_walk(p.g, p["rs"]);
  CHECK(r.status == nr::walk_status::complete);
  CHECK(r.complete());
  CHECK(p.labels(r.ops) == strings{"x", "m1", "e", "m2", "m3"});
  CHECK(p.labels(r.boundary) == strings{"ag", "ar"});
  CHECK(r.visited_count == 5);

  SUBCASE("window floor at the all_gather: ops before it are not visited") {
    auto w = nr::dependence_walk(p.g, p["rs"], {.window_floor = p["ag"]});
    CHECK(p.labels(w.ops) == strings{"m1", "e", "m2", "m3"});
    CHECK(p.labels(w.boundary) == strings{"ag", "ar"});
  }
  SUBCASE("window floor on a visited op: the floor is visited, its earlier producers are not") {
    auto w = nr::dependence_walk(p.g, p["rs"], {.window_floor = p["e"]});
    CHECK(p.labels(w.ops) == strings{"e", "m2", "m3"});
    CHECK(p.labels(w.boundary) == strings{"ar"});  // ag precedes the floor: never met
  }
  SUBCASE("budget exactly at the count completes") {
    auto w = nr::dependence_walk(p.g, p["rs"], {.budget = 5});
    CHECK(w.complete());
    CHECK(w.visited_count == 5);
    CHECK(p.labels(w.ops) == strings{"x", "m1", "e", "m2", "m3"});
  }
  SUBCASE("budget one below the count: exceeded, count = budget + 1, partial visit in order") {
    auto w = nr::dependence_walk(p.g, p["rs"], {.budget = 4});
    CHECK(w.status == nr::walk_status::budget_exceeded);
    CHECK(w.visited_count == 5);
    // FIFO: m3, then m2 (ar is a boundary), then m1 and e; x would have been the fifth.
    CHECK(p.labels(w.ops) == strings{"m1", "e", "m2", "m3"});
    CHECK(p.labels(w.boundary) == strings{"ag", "ar"});
  }
  SUBCASE("budget zero: the first visit exceeds it; boundary ops are free") {
    auto w = nr::dependence_walk(p.g, p["rs"], {.budget = 0});
    CHECK(w.status == nr::walk_status::budget_exceeded);
    CHECK(w.visited_count == 1);
    CHECK(w.ops.empty());
    auto b = nr::dependence_walk(p.g, p["m1"], {.budget = 0});
    CHECK(b.complete());
    CHECK(p.labels(b.boundary) == strings{"ag"});
  }
  SUBCASE("the window floor keeps the budget from counting ops before it") {
    auto w = nr::dependence_walk(p.g, p["rs"], {.budget = 4, .window_floor = p["ag"]});
    CHECK(w.complete());
    CHECK(w.visited_count == 4);
  }
  SUBCASE("no budget") {
    auto w = nr::dependence_walk(p.g, p["rs"], {.budget = std::nullopt});
    CHECK(w.complete());
    CHECK(w.visited_count == 5);
  }
}

TEST_CASE_TEMPLATE("custom and empty boundary sets", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    a = foo.a %0
    ag = mhlo.all_gather a
    cp = mhlo.collective_permute ag
    m = foo.mul cp %1
    rs = mhlo.reduce_scatter m
  )");
  auto d = nr::dependence_walk(p.g, p["rs"]);
  CHECK(p.labels(d.ops) == strings{"cp", "m"});
  CHECK(p.labels(d.boundary) == strings{"ag"});

  using with_permute = nr::default_boundary_set::with<nr::kinds::collective_permute>;
  auto c = nr::dependence_walk<with_permute>(p.g, p["rs"]);
  CHECK(p.labels(c.ops) == strings{"m"});
  CHECK(p.labels(c.boundary) == strings{"cp"});

  auto e = nr::dependence_walk<nr::boundary_set<>>(p.g, p["rs"], {.budget = std::nullopt});
  CHECK(p.labels(e.ops) == strings{"a", "ag", "cp", "m"});
  CHECK(e.boundary.empty());

  using only_named = nr::boundary_set<nr::named_kind<"mul">>;
  auto n = nr::dependence_walk<only_named>(p.g, p["rs"]);
  CHECK(n.ops.empty());
  CHECK(p.labels(n.boundary) == strings{"m"});
}

TEST_CASE_TEMPLATE("uses inside nested regions count for their ancestor op", G, nr::ref::module,
                   nr::archetype::ir) {
  program<G> p(R"(
    a = foo.a %0
    b = foo.b %0
    ag = mhlo.all_gather %1
    r = foo.region a {
      i = foo.use b
      j = foo.region2 i {
        k = foo.use ag
      }
    }
    c = foo.c r
    rs = mhlo.reduce_scatter c {
      z = foo.inner %1
      y = foo.inner2 b z
    }
    ret = func.return rs
  )");
  auto r = nr::dependence_walk(p.g, p["rs"]);
  CHECK(p.labels(r.ops) == strings{"a", "b", "r", "c"});
  CHECK(p.labels(r.boundary) == strings{"ag"});

  // The walk from a nested op stays in its own block: the outer ops are not in it.
  auto inner = nr::dependence_walk(p.g, p["y"]);
  CHECK(p.labels(inner.ops) == strings{"z"});
}

TEST_CASE_TEMPLATE("diamonds are visited once", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    a = foo.a %0
    l = foo.l a
    r = foo.r a a
    s = foo.s l r l
  )");
  auto w = nr::dependence_walk(p.g, p["s"], {.budget = 3});
  CHECK(w.complete());
  CHECK(p.labels(w.ops) == strings{"a", "l", "r"});
}

TEST_CASE_TEMPLATE("the general form: from arbitrary values", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(chain_text);
  using value = nr::value_handle_t<G>;
  std::vector<value> start{result_of(p, "m2"), result_of(p, "ar")};
  auto r = nr::dependence_walk_from(p.g, start, p.body);
  CHECK(p.labels(r.ops) == strings{"x", "m1", "e", "m2"});
  CHECK(p.labels(r.boundary) == strings{"ag", "ar"});

  auto f = nr::dependence_walk_from(p.g, start, p.body, {.window_floor = p["m1"]});
  CHECK(p.labels(f.ops) == strings{"m1", "e", "m2"});
  CHECK(p.labels(f.boundary) == strings{"ar"});

  // Block arguments contribute nothing; duplicates are met once.
  std::vector<value> args_only;
  for (auto&& v : nr::ir::operands(p.g, p["m1"])) args_only.push_back(v);  // ag's result, %1
  args_only.push_back(result_of(p, "m1"));
  args_only.push_back(result_of(p, "m1"));
  auto a = nr::dependence_walk_from<nr::boundary_set<>>(p.g, args_only, p.body, {.budget = std::nullopt});
  CHECK(p.labels(a.ops) == strings{"ag", "m1"});

  std::vector<value> none;
  auto n = nr::dependence_walk_from(p.g, none, p.body);
  CHECK(n.complete());
  CHECK(n.ops.empty());
  CHECK(n.boundary.empty());
}

TEST_CASE_TEMPLATE("a reused scratch gives the same answers", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(chain_text);
  nr::block_scratch<G> scratch(p.g);
  for (int i = 0; i < 3; ++i) {
    auto r = nr::dependence_walk(scratch, p.g, p["rs"]);
    CHECK(p.labels(r.ops) == strings{"x", "m1", "e", "m2", "m3"});
    auto w = nr::dependence_walk(scratch, p.g, p["m2"], {.window_floor = p["ag"]});
    CHECK(p.labels(w.ops) == strings{"m1", "e"});
    auto b = nr::dependence_walk(scratch, p.g, p["rs"], {.budget = 1});
    CHECK(b.visited_count == 2);
  }
}

TEST_CASE("few met ops spread over a long block: the ordering falls back to sorting") {
  // On the reference IR the final order comes from a bounded backward sweep; with two met ops
  // 300 positions apart the sweep gives up and sorts, which must give the same answer.
  std::string text = "a = foo.a %0\nb = foo.b %0\n";
  for (int i = 0; i < 300; ++i) text += "f" + std::to_string(i) + " = foo.f %0\n";
  text += "c = foo.c a\nd = foo.d b c\n";
  program<nr::ref::module> p(text);
  auto r = nr::dependence_walk(p.g, p["d"]);
  CHECK(p.labels(r.ops) == strings{"a", "b", "c"});
  program<nr::archetype::ir> q(text);
  auto s = nr::dependence_walk(q.g, q["d"]);
  CHECK(q.labels(s.ops) == strings{"a", "b", "c"});
}

namespace {

// Brute force: the closure, then sorted by position. Returns (visited, boundary) labels.
template <class Set, class G>
std::pair<strings, strings> brute_walk(const program<G>& p, nr::op_handle_t<G> start,
                                       std::optional<nr::op_handle_t<G>> floor) {
  using op = nr::op_handle_t<G>;
  auto order = p.order();
  auto pos = [&](op o) { return std::find(order.begin(), order.end(), p.label(o)) - order.begin(); };
  std::set<std::string> seen;
  std::vector<op> work, visited, boundary;
  auto meet = [&](op d) {
    if (floor && pos(d) < pos(*floor)) return;
    if (!seen.insert(p.label(d)).second) return;
    if (Set::contains(nr::ir::kind(p.g, d)))
      boundary.push_back(d);
    else
      work.push_back(d), visited.push_back(d);
  };
  for (auto d : nr::producers_in_block(p.g, start, p.body)) meet(d);
  while (!work.empty()) {
    op x = work.back();
    work.pop_back();
    for (auto d : nr::producers_in_block(p.g, x, p.body)) meet(d);
  }
  auto by_pos = [&](op a, op b) { return pos(a) < pos(b); };
  std::sort(visited.begin(), visited.end(), by_pos);
  std::sort(boundary.begin(), boundary.end(), by_pos);
  return {p.labels(visited), p.labels(boundary)};
}

template <class Set, class G>
void random_walks(std::mt19937& rng, const program<G>& p) {
  std::vector<nr::op_handle_t<G>> top;
  for (auto&& o : nr::ir::ops(p.g, p.body)) top.push_back(o);
  nr::block_scratch<G> scratch(p.g);
  for (int k = 0; k < 10; ++k) {
    auto start = top[rng() % top.size()];
    std::optional<nr::op_handle_t<G>> floor;
    if (rng() % 2) floor = top[rng() % top.size()];
    auto [visited, boundary] = brute_walk<Set>(p, start, floor);
    auto full = nr::dependence_walk<Set>(scratch, p.g, start, {.budget = std::nullopt, .window_floor = floor});
    CHECK(full.complete());
    CHECK(p.labels(full.ops) == visited);
    CHECK(p.labels(full.boundary) == boundary);
    CHECK(full.visited_count == visited.size());
    const std::size_t budget = rng() % (visited.size() + 2);
    auto b = nr::dependence_walk<Set>(scratch, p.g, start, {.budget = budget, .window_floor = floor});
    if (visited.size() <= budget) {
      CHECK(b.complete());
      CHECK(p.labels(b.ops) == visited);
    } else {
      CHECK(b.status == nr::walk_status::budget_exceeded);
      CHECK(b.visited_count == budget + 1);
      CHECK(b.ops.size() == budget);
      CHECK(std::is_sorted(b.ops.begin(), b.ops.end(),
                           [&](auto x, auto y) { return nr::ir::is_before_in_block(p.g, x, y); }));
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("randomized: the walk equals the brute-force closure", G, nr::ref::module, nr::archetype::ir) {
  std::mt19937 rng(777);
  for (int round = 0; round < 60; ++round) {
    program<G> p(block_test::random_program(rng, 10 + rng() % 50));
    random_walks<nr::default_boundary_set>(rng, p);
    random_walks<nr::boundary_set<>>(rng, p);
    random_walks<nr::default_boundary_set::with<nr::named_kind<"mul">>>(rng, p);
  }
}

TEST_CASE_TEMPLATE("randomized: sparse walks over long blocks", G, nr::ref::module, nr::archetype::ir) {
  // On the reference IR these hand the backward sweep over to the breadth-first walk at every
  // possible moment (before or after a budget stop, above or below a floor).
  std::mt19937 rng(31337);
  for (int round = 0; round < 25; ++round) {
    program<G> p(block_test::random_program(rng, 150 + rng() % 250, 3 + rng() % 20));
    random_walks<nr::default_boundary_set>(rng, p);
    random_walks<nr::boundary_set<>>(rng, p);
  }
}

// ------------------------------------------------------------------------------ dense block copies
// On an IR with a dense numbering and a mutation counter (O1 + O7: the reference IR) the sweep may
// run over a dense copy of the block kept in the scratch (block_dataflow.hpp). A copy changes
// how the walk steps, never what it returns.

namespace {

using ref_op = nr::op_handle_t<nr::ref::module>;

template <class Set>
void same_walk(const nr::walk_result<ref_op>& a, const nr::walk_result<ref_op>& b) {
  CHECK(a.status == b.status);
  CHECK(a.ops == b.ops);
  CHECK(a.boundary == b.boundary);
  CHECK(a.visited_count == b.visited_count);
}

// Every walk of random_walks' kind, three ways: through the IR, always over a copy, amortized.
template <class Set>
void copies_agree(std::mt19937& rng, const program<nr::ref::module>& p, nr::block_handle_t<nr::ref::module> block) {
  std::vector<ref_op> ops;
  for (auto&& o : nr::ir::ops(p.g, block)) ops.push_back(o);
  if (ops.empty()) return;
  nr::block_scratch<nr::ref::module> never(p.g), always(p.g), amortized(p.g);
  never.set_copy_policy(nr::block_copy_policy::never);
  always.set_copy_policy(nr::block_copy_policy::always);
  for (int k = 0; k < 12; ++k) {
    const auto start = ops[rng() % ops.size()];
    std::optional<ref_op> floor;
    if (rng() % 2) floor = ops[rng() % ops.size()];
    std::optional<std::size_t> budget;
    if (rng() % 2) budget = rng() % (ops.size() + 2);
    const nr::walk_options<nr::ref::module> o{.budget = budget, .window_floor = floor};
    const auto a = nr::dependence_walk<Set>(never, p.g, start, o);
    same_walk<Set>(a, nr::dependence_walk<Set>(always, p.g, start, o));
    same_walk<Set>(a, nr::dependence_walk<Set>(amortized, p.g, start, o));
    // the general form, from a few results of ops of the block
    std::vector<nr::value_handle_t<nr::ref::module>> values;
    for (int v = 0, m = 1 + static_cast<int>(rng() % 3); v < m; ++v)
      for (auto r : nr::ir::results(p.g, ops[rng() % ops.size()])) values.push_back(r);
    const auto f = nr::dependence_walk_from<Set>(never, p.g, values, block, o);
    same_walk<Set>(f, nr::dependence_walk_from<Set>(always, p.g, values, block, o));
    same_walk<Set>(f, nr::dependence_walk_from<Set>(amortized, p.g, values, block, o));
  }
  CHECK(never.copies_made() == 0);
  CHECK(always.copies_made() == 1);  // one block, one version
}

}  // namespace

TEST_CASE("dense block copies: the same walks as through the IR, in the body and in nested blocks") {
  std::mt19937 rng(4242);
  for (int round = 0; round < 60; ++round) {
    // dense and sparse programs (the sparse ones hand the sweep over to the BFS)
    const bool sparse = round % 2 == 1;
    program<nr::ref::module> p(sparse ? block_test::random_program(rng, 150 + rng() % 250, 3 + rng() % 20)
                                      : block_test::random_program(rng, 10 + rng() % 60));
    copies_agree<nr::default_boundary_set>(rng, p, p.body);
    copies_agree<nr::boundary_set<>>(rng, p, p.body);
    // nested blocks: their ops' producers lie mostly outside them (the copy's rare flag)
    for (auto&& o : nr::ir::ops(p.g, p.body))
      for (auto&& r : nr::ir::regions(p.g, o)) copies_agree<nr::boundary_set<>>(rng, p, r);
  }
}

TEST_CASE("dense block copies: the brute-force closure holds over a copy") {
  std::mt19937 rng(99);
  for (int round = 0; round < 30; ++round) {
    program<nr::ref::module> p(block_test::random_program(rng, 10 + rng() % 80));
    std::vector<ref_op> top;
    for (auto&& o : nr::ir::ops(p.g, p.body)) top.push_back(o);
    nr::block_scratch<nr::ref::module> scratch(p.g);
    scratch.set_copy_policy(nr::block_copy_policy::always);
    for (int k = 0; k < 10; ++k) {
      const auto start = top[rng() % top.size()];
      std::optional<ref_op> floor;
      if (rng() % 2) floor = top[rng() % top.size()];
      auto [visited, boundary] = brute_walk<nr::default_boundary_set>(p, start, floor);
      auto r = nr::dependence_walk(scratch, p.g, start, {.budget = std::nullopt, .window_floor = floor});
      CHECK(p.labels(r.ops) == visited);
      CHECK(p.labels(r.boundary) == boundary);
    }
    CHECK(scratch.copies_made() == 1);
  }
}

TEST_CASE("dense block copies: every kind of mutation retires the copy") {
  // A walk over a stale copy would answer for the block as it was; each mutation below changes
  // the answer, and the walk after it must see the change. The walks start at e, so what changes
  // is read from the copy. Each check walks twice: the first walk after a mutation finds no copy
  // at the new version, reads e's producers from the IR and makes one; the second finds it held
  // and reads e's producers and the floor's position from the copy too (walker::from_copy).
  program<nr::ref::module> p(R"(
    a = foo.a %0
    b = foo.b a
    c = foo.c b
    x = foo.x %1
    d = foo.d c
    e = foo.e d
  )");
  auto& g = p.g;
  nr::block_scratch<nr::ref::module> scratch(g);
  scratch.set_copy_policy(nr::block_copy_policy::always);
  auto twice = [&](const nr::walk_options<nr::ref::module>& o) {
    const auto first = p.labels(nr::dependence_walk(scratch, g, p["e"], o).ops);
    CHECK(scratch.block_copies().held(g) != nullptr);
    CHECK(p.labels(nr::dependence_walk(scratch, g, p["e"], o).ops) == first);
    return first;
  };
  auto walk = [&] { return twice({}); };
  CHECK(walk() == strings{"a", "b", "c", "d"});
  CHECK(scratch.copies_made() == 1);
  CHECK(walk() == strings{"a", "b", "c", "d"});  // unchanged IR: the same copy
  CHECK(scratch.copies_made() == 1);

  // an operand written: d now uses x
  g.set_operand(p["d"], 0, g.result(p["x"], 0));
  CHECK(walk() == strings{"x", "d"});
  CHECK(scratch.copies_made() == 2);

  // a move: x after c (still before d)
  g.move_after(p["x"], p["c"]);
  CHECK(walk() == strings{"x", "d"});
  CHECK(p.labels(nr::ir::ops(g, p.body)) == strings{"a", "b", "c", "x", "d", "e"});
  // the floor's position comes from the new order: x is at or after c
  CHECK(twice({.window_floor = p["c"]}) == strings{"x", "d"});
  CHECK(twice({.window_floor = p["x"]}) == strings{"x", "d"});
  CHECK(twice({.window_floor = p["d"]}) == strings{"d"});
  CHECK(twice({.window_floor = p["e"]}).empty());  // a floor at the start: nothing to sweep

  // operands replaced wholesale: d uses c and x
  const nr::ref::value_ref both[] = {g.result(p["c"], 0),
                                     g.result(p["x"], 0)};
  g.set_operands(p["d"], both);
  CHECK(walk() == strings{"a", "b", "c", "x", "d"});

  // a region given to x, with an op inside that uses a: x's producers now include a
  const auto t = g.intern_type("i32");
  g.set_operands(p["d"], std::span<const nr::ref::value_ref>(both + 1, 1));  // d uses x only
  CHECK(walk() == strings{"x", "d"});
  const auto inner = g.add_region(p["x"]);
  const nr::ref::value_ref a_val[] = {g.result(p["a"], 0)};
  const nr::ref::type_ref i32[] = {t};
  auto y = g.create_op("foo.y", a_val, i32);
  g.push_back(inner, y);
  CHECK(walk() == strings{"a", "x", "d"});

  // a transaction rolled back: the walk answers for the block as it is again
  const auto token = g.begin_transaction();
  g.set_operands(p["d"], both);
  CHECK(walk() == strings{"a", "b", "c", "x", "d"});
  g.rollback(token);
  CHECK(walk() == strings{"a", "x", "d"});

  // an op erased and a new one inserted in its place
  const auto copies = scratch.copies_made();
  g.erase_op(y);
  CHECK(walk() == strings{"x", "d"});
  auto z = g.create_op("foo.z", a_val, i32);
  g.push_back(inner, z);
  CHECK(walk() == strings{"a", "x", "d"});
  CHECK(scratch.copies_made() == copies + 2);
}

TEST_CASE("dense block copies: a copy held for one block answers no walk in another") {
  // A walk from an op looks for its block's copy before reading the IR (the copy tells where
  // the op is); a copy of the body must not answer for an op of a nested block, nor the nested
  // block's copy for an op of the body.
  program<nr::ref::module> p(R"(
    a = foo.a %0
    b = foo.b a
    r = foo.region b {
      i = foo.i a
      j = foo.j i
      k = foo.k j
    }
    c = foo.c r
  )");
  auto& g = p.g;
  const auto inner = *std::ranges::begin(nr::ir::regions(g, p["r"]));
  nr::block_scratch<nr::ref::module> never(g), always(g);
  never.set_copy_policy(nr::block_copy_policy::never);
  always.set_copy_policy(nr::block_copy_policy::always);
  auto both = [&](ref_op start, nr::walk_options<nr::ref::module> o = {}) {
    const auto a = nr::dependence_walk<nr::boundary_set<>>(never, g, start, o);
    const auto b = nr::dependence_walk<nr::boundary_set<>>(always, g, start, o);
    same_walk<nr::boundary_set<>>(a, b);
    return p.labels(b.ops);
  };
  CHECK(both(p["c"]) == strings{"a", "b", "r"});  // makes the body's copy
  REQUIRE(always.block_copies().held(g) != nullptr);
  CHECK(*always.block_copies().held(g)->block == p.body);
  CHECK(both(p["k"]) == strings{"i", "j"});  // the body's copy is held: k is not in it
  CHECK(*always.block_copies().held(g)->block == inner);
  CHECK(both(p["k"], {.window_floor = p["j"]}) == strings{"j"});  // the inner copy, held
  CHECK(both(p["c"], {.window_floor = p["b"]}) == strings{"b", "r"});
  CHECK(*always.block_copies().held(g)->block == p.body);
  CHECK(both(p["c"]) == strings{"a", "b", "r"});  // held: from the copy
  CHECK(always.copies_made() == 3);
}

TEST_CASE("dense block copies: the amortized policy copies once the walks have swept the block") {
  std::string text = "a0 = foo.a %0\n";
  for (int i = 1; i < 200; ++i) text += "a" + std::to_string(i) + " = foo.a a" + std::to_string(i - 1) + "\n";
  program<nr::ref::module> p(text);
  nr::block_scratch<nr::ref::module> scratch(p.g);
  // each walk from a10 sweeps 10 ops of a 200-op block: 20 walks before the copy pays
  for (int i = 0; i < 20; ++i) {
    CHECK(nr::dependence_walk(scratch, p.g, p["a10"], {.budget = std::nullopt}).ops.size() == 10);
    CHECK(scratch.copies_made() == 0);
  }
  CHECK(nr::dependence_walk(scratch, p.g, p["a10"], {.budget = std::nullopt}).ops.size() == 10);
  CHECK(scratch.copies_made() == 1);
  for (int i = 0; i < 50; ++i) nr::dependence_walk(scratch, p.g, p["a199"], {.budget = std::nullopt});
  CHECK(scratch.copies_made() == 1);
  // a mutation starts the account again
  p.g.move_before(p["a0"], p["a1"]);  // a no-op move still counts as one
  CHECK(nr::dependence_walk(scratch, p.g, p["a10"], {.budget = std::nullopt}).ops.size() == 10);
  CHECK(scratch.copies_made() == 1);
  // a scratch used with another module never takes this one's copy
  program<nr::ref::module> q("b0 = foo.b %0\nb1 = foo.b b0\n");
  nr::block_scratch<nr::ref::module> both(p.g);
  both.set_copy_policy(nr::block_copy_policy::always);
  CHECK(p.labels(nr::dependence_walk(both, p.g, p["a3"]).ops) == strings{"a0", "a1", "a2"});
  CHECK(q.labels(nr::dependence_walk(both, q.g, q["b1"]).ops) == strings{"b0"});
  CHECK(p.labels(nr::dependence_walk(both, p.g, p["a3"]).ops) == strings{"a0", "a1", "a2"});
  CHECK(both.copies_made() == 3);
}

TEST_CASE("the reference IR's version: moves on with every mutation, unique across modules") {
  nr::ref::module a, b;
  CHECK(a.version() != b.version());
  const auto v = a.version();
  const auto t = a.intern_type("i32");
  const nr::ref::type_ref i32[] = {t};
  auto o = a.create_op("foo.o", {}, i32);
  CHECK(a.version() == v);  // an op without operands, not placed: nothing a copy holds
  a.push_back(a.body(), o);
  CHECK(a.version() != v);
  const auto w = a.version();
  nr::ref::module c = std::move(a);
  CHECK(c.version() != w);
  CHECK(a.version() != w);
  CHECK(c.version() != a.version());
}

namespace {
// The reference IR without O6, so the copy reads producers through defining_op (the way an IR
// without operand_defs gives them).
struct no_defs_module : nr::ref::module {};
}  // namespace

template <>
struct neuronrw::ir_traits<no_defs_module> : neuronrw::ir_traits<neuronrw::ref::module> {
  static void operand_defs(const ref::module&, ref::op_ref) = delete;
};
static_assert(nr::versioned_ir<no_defs_module> && nr::indexed_ir<no_defs_module> && !nr::operand_defs_ir<no_defs_module>);

TEST_CASE("dense block copies of an IR without operand_defs (O6)") {
  std::mt19937 rng(5150);
  for (int round = 0; round < 30; ++round) {
    program<nr::ref::module> p(block_test::random_program(rng, 20 + rng() % 100));
    std::vector<nr::ref::op_ref> ops;
    for (auto&& o : nr::ir::ops(p.g, p.body)) ops.push_back(o);
    no_defs_module g;
    static_cast<nr::ref::module&>(g) = std::move(p.g);  // the same ids
    nr::block_scratch<no_defs_module> never(g), always(g);
    never.set_copy_policy(nr::block_copy_policy::never);
    always.set_copy_policy(nr::block_copy_policy::always);
    for (int k = 0; k < 10; ++k) {
      const auto start = ops[rng() % ops.size()];
      std::optional<nr::ref::op_ref> floor;
      if (rng() % 2) floor = ops[rng() % ops.size()];
      const nr::walk_options<no_defs_module> o{.budget = std::nullopt, .window_floor = floor};
      same_walk<void>(nr::dependence_walk<nr::default_boundary_set>(never, g, start, o),
                      nr::dependence_walk<nr::default_boundary_set>(always, g, start, o));
    }
    CHECK(always.copies_made() == 1);
  }
}

TEST_CASE("IRs without a mutation counter never get a copy") {
  program<nr::archetype::ir> p(chain_text);
  nr::block_scratch<nr::archetype::ir> scratch(p.g);
  scratch.set_copy_policy(nr::block_copy_policy::always);
  CHECK(p.labels(nr::dependence_walk(scratch, p.g, p["rs"]).ops) == strings{"x", "m1", "e", "m2", "m3"});
  CHECK(scratch.copies_made() == 0);
}
