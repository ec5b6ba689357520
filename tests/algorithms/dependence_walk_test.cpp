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
