// block_scratch (algorithms/block_scratch.hpp): the mark pool's leases are distinct sets, so the
// dependence walk, the convexity check and the dominance repair, used alternately on one scratch
// (and around marks a pass holds meanwhile), answer exactly as with a fresh scratch per call; the
// deprecated slot spellings still work and no longer alias the algorithms' marks.
#include <doctest/doctest.h>

#include <cstddef>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/block_scratch.hpp>
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "algorithms/block_program.hpp"
#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;
using block_test::program;

namespace {

/// The archetype with a dense numbering but no mutation counter: op_set's array path, no copy.
using indexed_archetype = nr::archetype::ir_at<nr::archetype::layer::outlinable, 0, nr::archetype::cap::op_index>;
static_assert(nr::indexed_ir<indexed_archetype> && !nr::versioned_ir<indexed_archetype>);
static_assert(!nr::indexed_ir<nr::archetype::ir>);

template <class Op>
void same(const nr::walk_result<Op>& a, const nr::walk_result<Op>& b) {
  CHECK(a.status == b.status);
  CHECK(a.ops == b.ops);
  CHECK(a.boundary == b.boundary);
  CHECK(a.visited_count == b.visited_count);
}
template <class Op>
void same(const nr::convexity_result<Op>& a, const nr::convexity_result<Op>& b) {
  CHECK(a.convex == b.convex);
  CHECK(a.offending == b.offending);
  CHECK(a.from_member == b.from_member);
  CHECK(a.to_member == b.to_member);
}
template <class Op>
void same(const nr::repair_plan<Op>& a, const nr::repair_plan<Op>& b) {
  CHECK(a.refusal == b.refusal);
  CHECK(a.offending == b.offending);
  CHECK(a.dependence == b.dependence);
  CHECK(a.slice == b.slice);
  CHECK(a.moves == b.moves);
}

// Random calls of every algorithm on one shared scratch, each checked against the overload that
// builds a fresh scratch; a pass's lease is held throughout and must come out untouched.
template <class G>
void alternate(std::mt19937& rng, std::size_t n, unsigned operand_percent) {
  using op = nr::op_handle_t<G>;
  program<G> p(block_test::random_program(rng, n, operand_percent));
  std::vector<op> top;
  for (auto&& o : nr::ir::ops(p.g, p.body)) top.push_back(o);
  auto any = [&] { return top[rng() % top.size()]; };

  nr::block_scratch<G> shared(p.g);
  if (rng() % 2) shared.set_copy_policy(nr::block_copy_policy::always);
  // What a pass keeps between algorithm calls (as ScheduleFusion's planner does).
  const auto held = shared.marks().take(p.g);
  std::vector<op> kept;
  for (int k = 0; k < 5; ++k) {
    const op o = any();
    if (held->insert(o)) kept.push_back(o);
  }

  for (int step = 0; step < 40; ++step) {
    switch (rng() % 5) {
      case 0: {
        std::optional<op> floor;
        if (rng() % 2) floor = any();
        std::optional<std::size_t> budget;
        if (rng() % 2) budget = rng() % (top.size() + 2);
        const nr::walk_options<G> o{.budget = budget, .window_floor = floor};
        const op start = any();
        same(nr::dependence_walk(shared, p.g, start, o), nr::dependence_walk(p.g, start, o));
        break;
      }
      case 1: {
        std::vector<nr::value_handle_t<G>> values;
        for (int v = 0, m = 1 + static_cast<int>(rng() % 3); v < m; ++v)
          for (auto r : nr::ir::results(p.g, any())) values.push_back(r);
        const nr::walk_options<G> o{.budget = std::nullopt};
        same(nr::dependence_walk_from<nr::boundary_set<>>(shared, p.g, values, p.body, o),
             nr::dependence_walk_from<nr::boundary_set<>>(p.g, values, p.body, o));
        break;
      }
      case 2: {
        std::vector<op> cluster;
        for (std::size_t k = 0, m = 1 + rng() % 4; k < m; ++k) cluster.push_back(any());
        same(nr::check_convexity(shared, p.g, std::span<const op>(cluster)),
             nr::check_convexity(p.g, std::span<const op>(cluster)));
        break;
      }
      case 3: {
        const op a = any(), d = any(), after = any();
        same(nr::plan_sink(shared, p.g, a, d, after), nr::plan_sink(p.g, a, d, after));
        break;
      }
      default: {
        const op a = any(), d = any();
        same(nr::plan_hoist(shared, p.g, a, d), nr::plan_hoist(p.g, a, d));
        break;
      }
    }
    // Every algorithm gave its marks back; the pass's are as it left them.
    CHECK(shared.marks().live() == 1);
    CHECK(held->size() == kept.size());
    for (const op& o : kept) CHECK(held->contains(o));
  }
  // The pool holds no more sets than were ever live at once (convexity's three and the pass's).
  CHECK(shared.marks().sets_made() <= 4);
}

}  // namespace

TEST_CASE("mark_pool: leases are distinct, cleared sets, reused once given back") {
  program<nr::ref::module> p("a = foo.a %0\nb = foo.b a\nc = foo.c b\n");
  nr::mark_pool<nr::ref::module> pool;
  {
    auto x = pool.take(p.g);
    auto y = pool.take(p.g);
    CHECK(&*x != &*y);
    x->insert(p["a"]);
    CHECK_FALSE(y->contains(p["a"]));
    CHECK(pool.live() == 2);
    auto z = std::move(y);  // a moved lease keeps its set; the moved-from one holds none
    CHECK_FALSE(static_cast<bool>(y));
    CHECK(pool.live() == 2);
    z->insert(p["b"]);
  }
  CHECK(pool.live() == 0);
  CHECK(pool.sets_made() == 2);
  auto again = pool.take(p.g);
  CHECK(again->size() == 0);  // cleared
  CHECK_FALSE(again->contains(p["a"]));
  CHECK_FALSE(again->contains(p["b"]));
  CHECK(pool.sets_made() == 2);  // reused, not made
}

TEST_CASE_TEMPLATE("block_scratch: algorithms used alternately on one scratch answer as with fresh ones", G,
                   nr::ref::module, nr::archetype::ir, indexed_archetype) {
  std::mt19937 rng(2812);
  for (int round = 0; round < 20; ++round) {
    alternate<G>(rng, 10 + rng() % 60, 100);
    alternate<G>(rng, 150 + rng() % 100, 10);  // sparse: the walk hands its sweep over to the BFS
  }
}

TEST_CASE("block_scratch: the deprecated slots still work and no longer alias the algorithms' marks") {
  program<nr::ref::module> p("a = foo.a %0\nx = foo.x %1\nb = foo.b a\nc = foo.c b\nd = foo.d c\n");
  nr::block_scratch<nr::ref::module> scratch(p.g);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  // pass_carried shared its slot with walk_seen, convex_member and repair_carried.
  auto& carried = scratch.fresh(nr::scratch_mark::pass_carried);
  CHECK(&scratch.fresh(nr::scratch_mark::repair_carried) == &carried);  // the old names' sharing
  carried.insert(p["d"]);
  auto& found = scratch.list(nr::scratch_list::walk_found);
  CHECK(found.empty());
#pragma GCC diagnostic pop
  CHECK(p.labels(nr::dependence_walk(scratch, p.g, p["d"]).ops) == block_test::strings{"a", "b", "c"});
  CHECK(nr::check_convexity(scratch, p.g, p["a"], p["b"]).convex);
  CHECK_FALSE(nr::check_convexity(scratch, p.g, p["a"], p["c"]).convex);  // through b
  CHECK(nr::plan_sink(scratch, p.g, p["a"], p["b"], p["b"]).ok());
  CHECK(carried.size() == 1);
  CHECK(carried.contains(p["d"]));
}
