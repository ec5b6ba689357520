// Every algorithm of include/neuronrw/algorithms/ instantiated and run on the archetype of the
// weakest layer its header documents (tests/archetype/archetype_ir.hpp), with exact results:
//
//   ancestry          is_ancestor_or_self: op_handle, null_op, parent_op only;
//                     ancestor_in_block: those and block_of, below read_ir and ordered_ir
//   op_set            read_ir, with and without the op_index capability
//   block_scratch     its mark pool on read_ir, with and without op_index; the whole scratch
//                     under the algorithms below (ordered_ir)
//   block_copy_cache  ordered_ir without a mutation counter: inert (no archetype has O7)
//   block_dataflow    ordered_ir
//   dependence_walk   ordered_ir, with and without op_index (two traversals)
//   convexity         ordered_ir
//   dominance_repair  planning on ordered_ir, applying on reschedulable_ir; the is_terminator
//                     capability decides what a terminator is
//   scheduled_view    the order overlay (algorithms/order.hpp under it) over ordered_ir, itself
//                     an ordered_ir the other algorithms run on
//   walk              ordered_ir: tests/algorithms/walk_test.cpp
//
// An algorithm that asked for more than its layer would not compile here. Uses nothing that throws.
#include <doctest/doctest.h>

#include <span>
#include <string>
#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/algorithms/block_copy_cache.hpp>
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/block_scratch.hpp>
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/algorithms/op_set.hpp>
#include <neuronrw/algorithms/scheduled_view.hpp>

#include "archetype/archetype_ir.hpp"
#include "archetype/program.hpp"

namespace nr = neuronrw;
namespace a = neuronrw::archetype;
using a::layer;
namespace req = neuronrw::archetype::ir_req;

using a::program;
using a::strings;

namespace {

// ------------------------------------------------------------------------------ the instances
constexpr unsigned read_reqs = (req::has_parent_op << 1) - 1;     // requirements 1-8
constexpr unsigned ordered_reqs = (req::has_regions << 1) - 1;    // and 9-12b
constexpr unsigned chain_reqs = req::specialized | req::has_op_handle | req::has_null_op | req::has_parent_op;

/// Only what is_ancestor_or_self uses: no kind, operands, users, values at all.
using parent_chain_only = a::ir_at<layer::read, read_reqs & ~chain_reqs>;
/// Only what ancestor_in_block uses: the parent chain and block_of (block_handle comes with it).
using block_ancestry_only = a::ir_at<layer::ordered, ordered_reqs & ~(chain_reqs | req::has_block)>;

using read = a::ir_at<layer::read>;
using read_indexed = a::ir_at<layer::read, 0, a::cap::op_index>;
using ordered = a::ir_at<layer::ordered>;
using ordered_indexed = a::ir_at<layer::ordered, 0, a::cap::op_index>;
using reschedulable = a::ir_at<layer::reschedulable>;

static_assert(nr::parent_chain_ir<parent_chain_only> && !nr::block_ancestry_ir<parent_chain_only> &&
              !nr::read_ir<parent_chain_only>);
static_assert(nr::block_ancestry_ir<block_ancestry_only> && !nr::read_ir<block_ancestry_only>);
static_assert(nr::read_ir<read> && !nr::ordered_ir<read> && !nr::indexed_ir<read>);
static_assert(nr::indexed_ir<read_indexed> && !nr::ordered_ir<read_indexed>);
static_assert(nr::ordered_ir<ordered> && !nr::reschedulable_ir<ordered> && !nr::indexed_ir<ordered>);
static_assert(nr::ordered_ir<ordered_indexed> && nr::indexed_ir<ordered_indexed> &&
              !nr::reschedulable_ir<ordered_indexed>);
static_assert(nr::reschedulable_ir<reschedulable> && !nr::groupable_ir<reschedulable>);

// ------------------------------------------------------------------------------ programs
/// f: outer = foo.region { mid = foo.region { deep = foo.use } }; sibling = foo.other
template <class G>
struct nested_regions {
  program<G> p{2};
  a::op_h outer = p.add("outer", "foo.region");
  int r1 = p.g.add_region(outer);
  a::op_h mid = p.add("mid", "foo.region", {}, r1);
  int r2 = p.g.add_region(mid);
  a::op_h deep = p.add("deep", "foo.use", {}, r2);
  a::op_h sibling = p.add("sibling", "foo.other");
};

}  // namespace

// ============================================================================== ancestry
TEST_CASE("is_ancestor_or_self on an IR with only op_handle, null_op and parent_op") {
  const nested_regions<parent_chain_only> n;
  const auto& g = n.p.g;
  const a::op_h f{0};
  CHECK(nr::is_ancestor_or_self(g, n.outer, n.deep));
  CHECK(nr::is_ancestor_or_self(g, n.mid, n.deep));
  CHECK(nr::is_ancestor_or_self(g, n.deep, n.deep));
  CHECK(nr::is_ancestor_or_self(g, f, n.deep));
  CHECK_FALSE(nr::is_ancestor_or_self(g, n.sibling, n.deep));
  CHECK_FALSE(nr::is_ancestor_or_self(g, n.deep, n.mid));
  CHECK_FALSE(nr::is_ancestor_or_self(g, n.outer, n.sibling));
}

TEST_CASE("ancestor_in_block on an IR with only the parent chain and block_of") {
  const nested_regions<block_ancestry_only> n;
  const auto& g = n.p.g;
  const auto body = n.p.blk();
  CHECK(nr::ancestor_in_block(g, n.deep, body) == n.outer);
  CHECK(nr::ancestor_in_block(g, n.deep, a::block_h{n.r1}) == n.mid);
  CHECK(nr::ancestor_in_block(g, n.deep, a::block_h{n.r2}) == n.deep);
  CHECK(nr::ancestor_in_block(g, n.mid, body) == n.outer);
  CHECK(nr::ancestor_in_block(g, n.sibling, body) == n.sibling);
  CHECK(nr::ancestor_in_block(g, n.outer, a::block_h{n.r2}) == a::op_h{});    // not inside r2
  CHECK(nr::ancestor_in_block(g, n.sibling, a::block_h{n.r1}) == a::op_h{});
  CHECK(nr::ancestor_in_block(g, n.deep, a::block_h{0}) == a::op_h{0});       // the function op
  CHECK(nr::is_ancestor_or_self(g, n.outer, n.deep));
}

// ============================================================================== op_set
TEST_CASE_TEMPLATE("op_set on read_ir: the hash set, and the flat array with op_index", G, read, read_indexed) {
  program<G> p(2);
  std::vector<a::op_h> ops;
  for (int i = 0; i < 6; ++i) ops.push_back(p.add("o" + std::to_string(i), "foo.op"));
  nr::op_set<G> s(p.g);
  CHECK(s.size() == 0);
  CHECK(s.insert(ops[1]));
  CHECK(s.insert(ops[4]));
  CHECK_FALSE(s.insert(ops[1]));
  CHECK(s.size() == 2);
  CHECK(s.contains(ops[1]));
  CHECK(s.contains(ops[4]));
  CHECK_FALSE(s.contains(ops[0]));
  CHECK(s.erase(ops[1]));
  CHECK_FALSE(s.erase(ops[1]));
  CHECK_FALSE(s.contains(ops[1]));
  CHECK(s.size() == 1);
  // Ops created after the set: the array grows, the hash set does not care.
  auto late = p.add("late", "foo.op");
  CHECK_FALSE(s.contains(late));
  CHECK(s.insert(late));
  CHECK(s.contains(late));
  CHECK(s.size() == 2);
  s.clear();
  CHECK(s.size() == 0);
  CHECK_FALSE(s.contains(ops[4]));
  CHECK_FALSE(s.contains(late));
  CHECK(s.insert(ops[4]));
  CHECK(s.size() == 1);
}

// ============================================================================== block_scratch
TEST_CASE_TEMPLATE("mark_pool on read_ir: leased marks are distinct sets", G, read, read_indexed) {
  program<G> p(2);
  std::vector<a::op_h> ops;
  for (int i = 0; i < 4; ++i) ops.push_back(p.add("o" + std::to_string(i), "foo.op"));
  nr::mark_pool<G> pool;
  {
    const auto x = pool.take(p.g);
    const auto y = pool.take(p.g);
    CHECK(&*x != &*y);
    CHECK(x->insert(ops[0]));
    CHECK_FALSE(y->contains(ops[0]));
    CHECK(pool.live() == 2);
  }
  CHECK(pool.live() == 0);
  const auto z = pool.take(p.g);
  CHECK(z->size() == 0);
  CHECK(pool.sets_made() == 2);
}

TEST_CASE_TEMPLATE("block_copy_cache on ordered_ir without a mutation counter: inert", G, ordered, ordered_indexed) {
  static_assert(!nr::versioned_ir<G> && !nr::block_copy_cache<G>::enabled);
  program<G> p(2);
  p.add("o0", "foo.op");
  nr::block_copy_cache<G> c;
  c.set_policy(nr::block_copy_policy::always);
  CHECK(c.get(p.g, a::block_h{p.body}) == nullptr);
  CHECK_FALSE(c.holds(p.g, a::block_h{p.body}));
  CHECK(c.copies_made() == 0);
}

// ============================================================================== block_dataflow
TEST_CASE_TEMPLATE("block_dataflow on ordered_ir: nested uses count for their ancestor", G, ordered, ordered_indexed) {
  //   x = foo.x %0;  y = foo.y %1
  //   r = foo.region { i = foo.use x;  j = foo.use2 i y }
  //   z = foo.z r x
  program<G> p(2);
  p.add("x", "foo.x", {"%0"});
  p.add("y", "foo.y", {"%1"});
  auto r = p.add("r", "foo.region");
  const int rb = p.g.add_region(r);
  p.add("i", "foo.use", {"x"}, rb);
  p.add("j", "foo.use2", {"i", "y"}, rb);
  p.add("z", "foo.z", {"r", "x"});
  const auto b = p.blk();
  CHECK(p.labels(nr::producers_in_block(p.g, p["r"], b)) == strings{"x", "y"});
  CHECK(p.labels(nr::producers_in_block(p.g, p["z"], b)) == strings{"r", "x"});
  CHECK(nr::producers_in_block(p.g, p["x"], b).empty());  // a block argument is no producer
  CHECK(p.labels(nr::consumers_in_block(p.g, p["x"], b)) == strings{"r", "z"});
  CHECK(p.labels(nr::consumers_in_block(p.g, p["y"], b)) == strings{"r"});
  CHECK(nr::consumers_in_block(p.g, p["z"], b).empty());
  // Inside the region: i's producer x lies outside that block, so it is none of i's there.
  CHECK(nr::producers_in_block(p.g, p["i"], a::block_h{rb}).empty());
  CHECK(p.labels(nr::producers_in_block(p.g, p["j"], a::block_h{rb})) == strings{"i"});
  // The callback form stops when told to.
  strings seen;
  CHECK_FALSE(nr::for_each_producer_in_block(p.g, p["z"], b, [&](a::op_h o) {
    seen.push_back(p.label(o));
    return false;
  }));
  CHECK(seen == strings{"r"});
}

// ============================================================================== dependence_walk
TEST_CASE_TEMPLATE("dependence_walk on ordered_ir, breadth-first and (op_index) backward sweep", G, ordered,
                   ordered_indexed) {
  program<G> p(2);
  p.add("x", "foo.x", {"%0"});
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("m1", "foo.mul", {"ag", "%1"});
  p.add("e", "foo.e", {"x"});
  p.add("m2", "foo.add", {"m1", "e"});
  p.add("ar", "mhlo.all_reduce", {"%1"});
  p.add("m3", "foo.add", {"m2", "ar"});
  p.add("rs", "mhlo.reduce_scatter", {"m3"});
  p.add("ret", "func.return", {"rs"});

  auto r = nr::dependence_walk(p.g, p["rs"]);
  CHECK(r.complete());
  CHECK(p.labels(r.ops) == strings{"x", "m1", "e", "m2", "m3"});
  CHECK(p.labels(r.boundary) == strings{"ag", "ar"});
  CHECK(r.visited_count == 5);

  auto floored = nr::dependence_walk(p.g, p["rs"], {.window_floor = p["ag"]});
  CHECK(p.labels(floored.ops) == strings{"m1", "e", "m2", "m3"});

  auto over = nr::dependence_walk(p.g, p["rs"], {.budget = 4});
  CHECK(over.status == nr::walk_status::budget_exceeded);
  CHECK(over.visited_count == 5);
  CHECK(p.labels(over.ops) == strings{"m1", "e", "m2", "m3"});

  // From values: the start set is their defining ops in the block.
  const nr::value_handle_t<G> starts[] = {p.g.result(p["e"])};
  auto from = nr::dependence_walk_from(p.g, std::span(starts), p.blk());
  CHECK(p.labels(from.ops) == strings{"x", "e"});
  CHECK(from.boundary.empty());
}

// ============================================================================== convexity
TEST_CASE("check_convexity on ordered_ir") {
  program<ordered> p(2);
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("a", "foo.a", {"ag"});
  p.add("b", "foo.b", {"%1"});
  p.add("rs", "mhlo.reduce_scatter", {"a", "b"});
  p.add("rs2", "mhlo.reduce_scatter", {"ag", "b"});
  auto bad = nr::check_convexity(p.g, p["ag"], p["rs"]);
  CHECK_FALSE(bad.convex);
  CHECK(p.label(bad.offending) == "a");
  CHECK(p.label(bad.from_member) == "ag");
  CHECK(p.label(bad.to_member) == "rs");
  auto good = nr::check_convexity(p.g, p["ag"], p["rs2"]);
  CHECK(good.convex);
  CHECK(good.offending == a::op_h{});
  // A cluster that holds the path is convex again.
  const auto cluster = p.ops_of({"rs", "a", "ag"});
  CHECK(nr::check_convexity(p.g, std::span<const a::op_h>(cluster)).convex);
}

// ============================================================================== dominance_repair
TEST_CASE("dominance repair: planned on ordered_ir, applied on a reschedulable copy") {
  program<ordered> p(2);
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("a", "foo.a", {"%1"});
  p.add("b", "foo.b", {"ag"});
  p.add("c", "foo.c", {"a"});
  p.add("d", "foo.d", {"b"});
  p.add("rs", "mhlo.reduce_scatter", {"ag", "c"});
  p.add("e", "foo.e", {"d", "rs"});
  p.add("ret", "func.return", {"e"});

  auto sink = nr::plan_sink(p.g, p["ag"], p["rs"], p["rs"]);
  REQUIRE(sink.ok());
  CHECK(p.labels(sink.slice) == strings{"b", "d"});
  REQUIRE(sink.moves.size() == 3);
  CHECK(sink.moves[0] == nr::op_move<a::op_h>{p["ag"], nr::move_position::before, p["rs"]});
  CHECK(sink.moves[1] == nr::op_move<a::op_h>{p["b"], nr::move_position::after, p["rs"]});
  CHECK(sink.moves[2] == nr::op_move<a::op_h>{p["d"], nr::move_position::after, p["b"]});

  // The same ops under the same handles, one layer up: the plan applies there.
  reschedulable moved(p.g);
  nr::apply_repair(moved, sink);
  program<ordered> after = p;
  after.g = ordered(moved);
  CHECK(after.order() == strings{"a", "c", "ag", "rs", "b", "d", "e", "ret"});
  CHECK(p.order() == strings{"ag", "a", "b", "c", "d", "rs", "e", "ret"});  // planning changed nothing

  auto hoist = nr::plan_hoist(after.g, after["rs"], after["a"]);
  REQUIRE(hoist.ok());
  CHECK(after.labels(hoist.slice) == strings{"c", "ag"});
  reschedulable hoisted(after.g);
  nr::apply_repair(hoisted, hoist);
  after.g = ordered(hoisted);
  CHECK(after.order() == strings{"a", "c", "ag", "rs", "b", "d", "e", "ret"});  // already in place

  auto wrong = nr::plan_sink(p.g, p["rs"], p["ag"], p["ag"]);
  CHECK(wrong.refusal == nr::repair_refusal::wrong_order);
  CHECK(p.label(wrong.offending) == "ag");
}

TEST_CASE("dominance repair: the is_terminator capability says what a terminator is") {
  // `y` ends the block in an IR whose terminators are not all `return`-kind (like scf.yield).
  auto build = [](auto& p) {
    p.add("ag", "mhlo.all_gather", {"%0"});
    p.add("b", "foo.b", {"ag"});
    p.add("rs", "mhlo.reduce_scatter", {"ag"});
    p.add("y", "scf.yield", {"rs"});
    p.g.mark_terminator(p["y"]);
  };
  program<a::ir_at<layer::ordered, 0, a::cap::is_terminator>> aware(2);
  build(aware);
  static_assert(nr::terminator_aware_ir<decltype(aware.g)>);
  auto refused = nr::plan_sink(aware.g, aware["ag"], aware["rs"], aware["y"]);
  CHECK(refused.refusal == nr::repair_refusal::after_terminator);
  CHECK(aware.label(refused.offending) == "y");
  CHECK(refused.moves.empty());

  // Without the capability only `return`-kind ops terminate a block: b may go after y.
  program<ordered> plain(2);
  build(plain);
  auto accepted = nr::plan_sink(plain.g, plain["ag"], plain["rs"], plain["y"]);
  REQUIRE(accepted.ok());
  CHECK(plain.labels(accepted.slice) == strings{"b"});
  reschedulable moved(plain.g);
  nr::apply_repair(moved, accepted);
  plain.g = ordered(moved);
  CHECK(plain.order() == strings{"ag", "rs", "y", "b"});
}

// ============================================================================== scheduled_view
TEST_CASE_TEMPLATE("scheduled_view over ordered_ir: moves on the overlay, the IR untouched", G, ordered,
                   ordered_indexed) {
  program<G> p(2);
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("a", "foo.a", {"%1"});
  p.add("b", "foo.b", {"ag"});
  p.add("rs", "mhlo.reduce_scatter", {"ag", "a"});
  p.add("e", "foo.e", {"b", "rs"});
  using view_t = nr::scheduled_view<G>;
  static_assert(nr::ordered_ir<view_t> && !nr::reschedulable_ir<view_t>);
  static_assert(nr::indexed_ir<view_t> == nr::indexed_ir<G>);

  view_t v(p.g);
  CHECK(p.labels(nr::ir::ops(v, p.blk())) == strings{"ag", "a", "b", "rs", "e"});
  auto plan = nr::plan_sink(v, p["ag"], p["rs"], p["rs"]);  // planned on the view
  REQUIRE(plan.ok());
  for (auto& m : plan.moves) v.move(m);
  CHECK(p.labels(nr::ir::ops(v, p.blk())) == strings{"a", "ag", "rs", "b", "e"});
  CHECK(p.order() == strings{"ag", "a", "b", "rs", "e"});  // the IR itself is unchanged
  CHECK(nr::ir::is_before_in_block(v, p["rs"], p["b"]));
  CHECK_FALSE(nr::ir::is_before_in_block(p.g, p["rs"], p["b"]));
  CHECK(nr::ir::next_op(v, p["rs"]) == p["b"]);
  CHECK(nr::ir::prev_op(v, p["ag"]) == p["a"]);
  CHECK(nr::ir::prev_op(v, p["a"]) == a::op_h{});
  // The other algorithms run on the view, in its order.
  CHECK(nr::check_convexity(v, p["ag"], p["rs"]).convex);
  auto w = nr::dependence_walk(v, p["e"]);
  CHECK(p.labels(w.ops) == strings{"b"});
  CHECK(p.labels(w.boundary) == strings{"ag", "rs"});
}

TEST_CASE_TEMPLATE("scheduled_view: a chain of moves, each anchored at the op moved before it, in two blocks", G,
                   ordered, ordered_indexed) {
  // A repair's moves come as chains; the view remembers the op it moved, so the next move finds
  // its anchor without asking G. A move into a block with no overlay yet builds that block's.
  program<G> p(2);
  p.add("r", "foo.region");
  const int inner = p.g.add_region(p["r"]);
  for (const char* l : {"i0", "i1", "i2"}) p.add(l, "foo.x", {}, inner);
  for (const char* l : {"o0", "o1", "o2", "o3", "o4"}) p.add(l, "foo.x");
  nr::scheduled_view<G> v(p.g);
  const nr::op_move<a::op_h> chain[] = {{p["o0"], nr::move_position::after, p["o4"]},
                                        {p["o1"], nr::move_position::after, p["o0"]},
                                        {p["o2"], nr::move_position::after, p["o1"]},
                                        {p["i2"], nr::move_position::before, p["i0"]},
                                        {p["i1"], nr::move_position::after, p["i2"]}};
  for (const auto& m : chain) v.move(m);
  CHECK(p.labels(nr::ir::ops(v, p.blk())) == strings{"r", "o3", "o4", "o0", "o1", "o2"});
  CHECK(p.labels(nr::ir::ops(v, p.blk(inner))) == strings{"i2", "i1", "i0"});
  CHECK(p.labels(nr::ir::ops(p.g, p.blk())) == strings{"r", "o0", "o1", "o2", "o3", "o4"});  // G untouched
  CHECK(nr::ir::is_before_in_block(v, p["o4"], p["o0"]));
  CHECK(nr::ir::is_before_in_block(v, p["i1"], p["i0"]));
  CHECK(nr::ir::prev_op(v, p["o0"]) == p["o4"]);
  if constexpr (nr::indexed_ir<G>)
    for (const char* l : {"r", "i0", "i1", "i2", "o0", "o1", "o2", "o3", "o4"})
      CHECK(nr::ir::op_index(v, p[l]) == nr::ir::op_index(p.g, p[l]));
}

TEST_CASE("scheduled_view over an indexed IR: op_index and the order through the view's memo") {
  // The view remembers the op it last stepped to (next, prev, first) and answers op_index and
  // its own node lookup for it from the overlay. Whatever was stepped to last, every answer is G's.
  using G = ordered_indexed;
  program<G> p(2);
  const strings labels{"o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7"};
  p.add("o0", "foo.x", {"%0"});
  for (std::size_t i = 1; i < labels.size(); ++i) p.add(labels[i], "foo.x", {labels[i - 1]});
  nr::scheduled_view<G> v(p.g);
  auto all_agree = [&] {
    bool ok = true;
    for (const auto& l : labels) ok = ok && nr::ir::op_index(v, p[l]) == nr::ir::op_index(p.g, p[l]);
    return ok;
  };
  CHECK(all_agree());  // no overlay yet
  v.move({p["o5"], nr::move_position::after, p["o6"]});  // overlay, then o6 before o5
  const strings order{"o0", "o1", "o2", "o3", "o4", "o6", "o5", "o7"};
  CHECK(p.labels(nr::ir::ops(v, p.blk())) == order);
  std::size_t i = 0;
  for (auto o = v.first(p.blk()); !(o == a::op_h{}); o = v.next(o), ++i) {
    REQUIRE(i < order.size());
    CHECK(o == p[order[i]]);
    CHECK(nr::ir::op_index(v, o) == nr::ir::op_index(p.g, o));  // the memo's answer
    CHECK(all_agree());                                          // and every other op's
    if (i > 0) CHECK(v.next(v.prev(o)) == o);
  }
  CHECK(i == order.size());
  i = order.size();
  for (auto o = p["o7"]; !(o == a::op_h{}); o = v.prev(o)) {
    REQUIRE(i > 0);
    CHECK(o == p[order[--i]]);
    CHECK(nr::ir::op_index(v, o) == nr::ir::op_index(p.g, o));
    CHECK(all_agree());
    CHECK(nr::ir::is_before_in_block(v, p["o6"], p["o5"]));
  }
  CHECK(i == 0);
}
