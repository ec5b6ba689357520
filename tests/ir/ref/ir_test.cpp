// Tests for neuronrw/ir/ref/ir.hpp: the module API with exact expectations — creating, placing,
// moving and erasing ops, order queries after moves, use lists after rewiring, block arguments,
// functions, attributes and kind classification.
#include <algorithm>
#include <neuronrw/ir/ref/ir.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::ref;

template <class Range>
auto collect(const Range& r) {
  std::vector<std::decay_t<decltype(*r.begin())>> out;
  for (auto x : r) out.push_back(x);
  return out;
}

std::vector<std::string_view> names(const module& m, block_ref b) {
  std::vector<std::string_view> out;
  for (auto op : m.ops(b)) out.push_back(m.name(op));
  return out;
}

// A nullary op with one i32 result, appended to b.
op_ref leaf(module& m, block_ref b, std::string_view name) {
  type_ref t[] = {m.intern_type("i32")};
  auto op = m.create_op(name, {}, t);
  m.push_back(b, op);
  return op;
}

}  // namespace

TEST_CASE("create_op records name, kind, operands, typed results, attributes and location") {
  module m;
  auto i32 = m.intern_type("i32");
  auto f32 = m.intern_type("tensor<4xf32>");
  CHECK(m.intern_type("i32") == i32);  // interned: same text, same handle
  CHECK(m.type_text(f32) == "tensor<4xf32>");

  type_ref t1[] = {i32};
  auto a = m.create_op("x.a", {}, t1);
  value_ref ops_b[] = {m.result(a, 0), m.result(a, 0)};
  type_ref t2[] = {f32, i32};
  auto b = m.create_op("mhlo.all_gather", ops_b, t2, {{"all_gather_dimension", "0 : i64"}},
                       source_loc{3, 7});

  CHECK(m.name(b) == "mhlo.all_gather");
  CHECK(m.kind(b) == kind_id_v<kinds::all_gather>);
  CHECK(m.loc(b) == source_loc{3, 7});
  CHECK(m.num_operands(b) == 2);
  CHECK(m.operand(b, 1) == m.result(a, 0));
  CHECK(m.num_results(b) == 2);
  CHECK(m.type_text(m.result(b, 0)) == "tensor<4xf32>");
  CHECK(m.type_text(m.result(b, 1)) == "i32");
  CHECK(m.value_index(m.result(b, 1)) == 1);
  CHECK(m.defining_op(m.result(b, 1)) == b);
  CHECK(collect(m.results(b)) == std::vector<value_ref>{m.result(b, 0), m.result(b, 1)});
  REQUIRE(m.attributes(b).size() == 1);
  CHECK(m.attributes(b)[0] == attribute{"all_gather_dimension", "0 : i64"});
  // Detached until placed.
  CHECK_FALSE(m.block_of(b).valid());
  CHECK_FALSE(m.parent_op(b).valid());
  CHECK_FALSE(m.defining_block(m.result(b, 0)).valid());
  CHECK_FALSE(m.has_region(b));
  CHECK_FALSE(m.region_block(b).valid());
  // The module body is a block without a parent op.
  CHECK(m.empty(m.body()));
  CHECK_FALSE(m.parent_op_of_block(m.body()).valid());
}

TEST_CASE("classify_op_name strips the dialect") {
  CHECK(classify_op_name("mhlo.all_gather") == kind_id_v<kinds::all_gather>);
  CHECK(classify_op_name("stablehlo.all_gather") == kind_id_v<kinds::all_gather>);
  CHECK(classify_op_name("stablehlo.reduce_scatter") == kind_id_v<kinds::reduce_scatter>);
  CHECK(classify_op_name("mhlo.all_reduce") == kind_id_v<kinds::all_reduce>);
  CHECK(classify_op_name("func.return") == kind_id_v<kinds::return_>);
  CHECK(classify_op_name("mhlo.return") == kind_id_v<kinds::return_>);
  CHECK(classify_op_name("func.call") == kind_id_v<kinds::call>);
  CHECK(classify_op_name("func.func") == kind_id_v<kinds::func>);
  CHECK(classify_op_name("return") == kind_id_v<kinds::return_>);
  CHECK(classify_op_name("mhlo.add") != kind_id_v<kinds::all_gather>);
  CHECK(classify_op_name("mhlo.add") != unknown_kind);
}

TEST_CASE("push_back, push_front, insert_before and insert_after place ops in order") {
  module m;
  auto b = m.body();
  auto c = leaf(m, b, "x.c");
  type_ref t[] = {m.intern_type("i32")};
  auto a = m.create_op("x.a", {}, t);
  m.push_front(b, a);
  auto d = m.create_op("x.d", {}, t);
  m.insert_after(d, c);
  auto bb = m.create_op("x.b", {}, t);
  m.insert_before(bb, c);

  CHECK(names(m, b) == std::vector<std::string_view>{"x.a", "x.b", "x.c", "x.d"});
  CHECK(m.size(b) == 4);
  CHECK(m.front(b) == a);
  CHECK(m.back(b) == d);
  CHECK(m.next_op(a) == bb);
  CHECK(m.prev_op(c) == bb);
  CHECK_FALSE(m.next_op(d).valid());
  CHECK_FALSE(m.prev_op(a).valid());
  CHECK(m.block_of(bb) == b);
  CHECK(m.defining_block(m.result(bb, 0)) == b);
  CHECK(m.is_before_in_block(a, d));
  CHECK(m.is_before_in_block(bb, c));
  CHECK_FALSE(m.is_before_in_block(c, bb));
  CHECK_FALSE(m.is_before_in_block(c, c));
}

TEST_CASE("is_before_in_block follows moves, detaches and re-insertions") {
  module m;
  auto b = m.body();
  std::vector<op_ref> o;
  for (int i = 0; i < 6; ++i) o.push_back(leaf(m, b, "x.op" + std::to_string(i)));

  m.move_before(o[5], o[0]);  // 5 0 1 2 3 4
  m.move_after(o[0], o[3]);   // 5 1 2 3 0 4
  m.move_before(o[2], o[2]);  // no-op
  m.move_after(o[4], o[4]);   // no-op
  CHECK(collect(m.ops(b)) == std::vector<op_ref>{o[5], o[1], o[2], o[3], o[0], o[4]});
  CHECK(m.is_before_in_block(o[5], o[1]));
  CHECK(m.is_before_in_block(o[3], o[0]));
  CHECK(m.is_before_in_block(o[0], o[4]));
  CHECK_FALSE(m.is_before_in_block(o[0], o[1]));

  m.move_to_end(o[5], b);  // 1 2 3 0 4 5
  CHECK(m.back(b) == o[5]);
  CHECK(m.is_before_in_block(o[4], o[5]));

  m.detach(o[2]);  // 1 3 0 4 5
  CHECK_FALSE(m.block_of(o[2]).valid());
  CHECK(m.size(b) == 5);
  CHECK(m.next_op(o[1]) == o[3]);
  m.insert_before(o[2], o[1]);  // 2 1 3 0 4 5
  CHECK(m.front(b) == o[2]);
  CHECK(m.is_before_in_block(o[2], o[1]));

  // Every pair agrees with the iteration order after all that.
  auto order = collect(m.ops(b));
  CHECK(order == std::vector<op_ref>{o[2], o[1], o[3], o[0], o[4], o[5]});
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = 0; j < order.size(); ++j)
      CHECK(m.is_before_in_block(order[i], order[j]) == (i < j));
}

TEST_CASE("move_run_after places a run after its anchor, from any block, and rolls back") {
  module m;
  auto b = m.body();
  std::vector<op_ref> o;
  for (int i = 0; i < 60; ++i) o.push_back(leaf(m, b, "x.op" + std::to_string(i)));
  auto region_op = leaf(m, b, "x.region");
  auto rb = m.add_region(region_op);
  auto inner = leaf(m, rb, "x.inner");
  // 30 ops of the body (a stretch of 20 and 10 scattered) after the region's op, in run order.
  std::vector<op_ref> run(o.begin() + 10, o.begin() + 30);
  for (int i = 59; i >= 41; i -= 2) run.push_back(o[static_cast<std::size_t>(i)]);
  auto expect = [&](bool into_region) {
    std::vector<op_ref> body, inside;
    for (auto x : o)
      if (std::find(run.begin(), run.end(), x) == run.end()) body.push_back(x);
    if (!into_region) {
      body.push_back(region_op);
      body.insert(body.end(), run.begin(), run.end());
      inside = {inner};
    } else {
      body.push_back(region_op);
      inside = {inner};
      inside.insert(inside.end(), run.begin(), run.end());
    }
    CHECK(collect(m.ops(b)) == body);
    CHECK(collect(m.ops(rb)) == inside);
    for (auto x : run) CHECK(m.block_of(x) == (into_region ? rb : b));
    auto all = collect(m.ops(into_region ? rb : b));
    for (std::size_t i = 0; i + 1 < all.size(); ++i) CHECK(m.is_before_in_block(all[i], all[i + 1]));
  };
  const auto v0 = m.version();
  m.move_run_after(run, region_op);
  CHECK(m.version() != v0);
  expect(false);
  // Into the region (a block of another op), then rolled back to where they were.
  const auto before = collect(m.ops(b));
  auto token = m.begin_transaction();
  m.move_run_after(run, inner);
  expect(true);
  m.rollback(token);
  CHECK(collect(m.ops(b)) == before);
  CHECK(collect(m.ops(rb)) == std::vector<op_ref>{inner});
  for (auto x : run) CHECK(m.block_of(x) == b);
}

TEST_CASE("moving an op into another block updates its block and parent") {
  module m;
  auto region_op = leaf(m, m.body(), "x.region");
  auto rb = m.add_region(region_op);
  auto inner = leaf(m, rb, "x.inner");
  auto outer = leaf(m, m.body(), "x.outer");
  CHECK(m.parent_op(inner) == region_op);
  CHECK(m.parent_op_of_block(rb) == region_op);
  CHECK_FALSE(m.parent_op(outer).valid());

  m.move_before(outer, inner);  // attached elsewhere → moved into the region
  CHECK(m.block_of(outer) == rb);
  CHECK(m.parent_op(outer) == region_op);
  CHECK(names(m, rb) == std::vector<std::string_view>{"x.outer", "x.inner"});
  CHECK(names(m, m.body()) == std::vector<std::string_view>{"x.region"});
  CHECK(m.is_before_in_block(outer, inner));

  m.move_after(inner, region_op);  // and back out
  CHECK(m.block_of(inner) == m.body());
  CHECK(names(m, m.body()) == std::vector<std::string_view>{"x.region", "x.inner"});
  CHECK(names(m, rb) == std::vector<std::string_view>{"x.outer"});
}

TEST_CASE("users lists one entry per use, most recent first, and follows rewiring") {
  module m;
  auto b = m.body();
  auto a = leaf(m, b, "x.a");
  auto c = leaf(m, b, "x.c");
  auto va = m.result(a, 0), vc = m.result(c, 0);
  type_ref t[] = {m.intern_type("i32")};
  value_ref two[] = {va, va};
  auto u1 = m.create_op("x.u1", two, t);
  m.push_back(b, u1);
  value_ref one[] = {va};
  auto u2 = m.create_op("x.u2", one, t);
  m.push_back(b, u2);

  CHECK(m.has_uses(va));
  CHECK_FALSE(m.has_uses(vc));
  CHECK(m.users(vc).empty());
  CHECK(collect(m.users(va)) == std::vector<op_ref>{u2, u1, u1});

  SUBCASE("set_operand") {
    m.set_operand(u1, 0, vc);
    CHECK(m.operand(u1, 0) == vc);
    CHECK(m.operand(u1, 1) == va);
    CHECK(collect(m.users(va)) == std::vector<op_ref>{u2, u1});
    CHECK(collect(m.users(vc)) == std::vector<op_ref>{u1});
  }
  SUBCASE("replace_all_uses") {
    m.replace_all_uses(va, vc);
    CHECK_FALSE(m.has_uses(va));
    CHECK(collect(m.users(vc)).size() == 3);
    CHECK(collect(m.operands(u1)) == std::vector<value_ref>{vc, vc});
    CHECK(m.operand(u2, 0) == vc);
    m.replace_all_uses(vc, vc);  // self-replacement is a no-op
    CHECK(collect(m.users(vc)).size() == 3);
  }
  SUBCASE("replace_uses_if") {
    m.replace_uses_if(va, vc, [&](op_ref owner) { return owner == u2; });
    CHECK(collect(m.users(va)) == std::vector<op_ref>{u1, u1});
    CHECK(collect(m.users(vc)) == std::vector<op_ref>{u2});
    CHECK(m.operand(u2, 0) == vc);
    CHECK(m.operand(u1, 0) == va);
  }
  SUBCASE("set_operands") {
    value_ref vs[] = {vc, va, vc};
    m.set_operands(u1, vs);
    CHECK(collect(m.operands(u1)) == std::vector<value_ref>{vc, va, vc});
    CHECK(collect(m.users(va)) == std::vector<op_ref>{u1, u2});
    CHECK(collect(m.users(vc)) == std::vector<op_ref>{u1, u1});
  }
}

TEST_CASE("erase_op of an op with a region erases the region and drops every use") {
  module m;
  auto b = m.body();
  auto x = leaf(m, b, "x.def");
  auto vx = m.result(x, 0);
  auto region_op = m.create_op("x.region", {}, {});
  m.push_back(b, region_op);
  auto rb = m.add_region(region_op, std::vector<type_ref>{m.intern_type("f32")});
  auto arg = m.arguments(rb)[0];
  type_ref t[] = {m.intern_type("i32")};
  value_ref uses_x[] = {vx};
  auto i1 = m.create_op("x.i1", uses_x, t);
  m.push_back(rb, i1);
  value_ref uses_inner[] = {m.result(i1, 0), arg, vx};
  auto i2 = m.create_op("x.yield", uses_inner, {});
  m.push_back(rb, i2);
  auto after = leaf(m, b, "x.after");

  CHECK(collect(m.users(vx)) == std::vector<op_ref>{i2, i1});
  m.erase_op(region_op);

  CHECK(m.erased(region_op));
  CHECK(m.erased(i1));
  CHECK(m.erased(i2));
  CHECK_FALSE(m.erased(x));
  CHECK_FALSE(m.has_uses(vx));
  CHECK_FALSE(m.has_uses(arg));
  CHECK(m.empty(rb));
  CHECK_FALSE(m.block_of(region_op).valid());
  CHECK(collect(m.ops(b)) == std::vector<op_ref>{x, after});
  CHECK(m.num_operands(i2) == 0);
  // Ids are tombstones: the capacity does not shrink and new ops get new ids.
  auto cap = m.op_capacity();
  auto fresh = leaf(m, b, "x.fresh");
  CHECK(fresh.id == cap);
  CHECK(m.is_before_in_block(after, fresh));
}

TEST_CASE("add_region appends regions in order; erase_op and rollback cover every region") {
  module m;
  auto b = m.body();
  auto x = leaf(m, b, "x.def");
  auto vx = m.result(x, 0);
  auto w = m.create_op("x.while", {}, {});
  m.push_back(b, w);
  CHECK(m.num_regions(w) == 0);
  CHECK(m.region_blocks(w).empty());
  const type_ref i32[] = {m.intern_type("i32")};
  auto r0 = m.add_region(w, i32);
  CHECK(m.num_regions(w) == 1);
  auto r1 = m.add_region(w);
  auto r2 = m.add_region(w, i32);
  CHECK(collect(m.region_blocks(w)) == std::vector<block_ref>{r0, r1, r2});
  CHECK(m.region_block(w) == r0);
  for (auto r : {r0, r1, r2}) CHECK(m.parent_op_of_block(r) == w);
  CHECK(m.arguments(r1).empty());
  CHECK(m.arguments(r2).size() == 1);
  value_ref uses_x[] = {vx};
  auto in1 = m.create_op("x.use", uses_x, {});
  m.push_back(r1, in1);
  auto in2 = m.create_op("x.use", uses_x, {});
  m.push_back(r2, in2);
  CHECK(m.parent_op(in1) == w);
  CHECK(m.parent_op(in2) == w);
  // Moving the op into its second or third region is a precondition violation, as into its
  // first: it aborts (tests/detail/assert_death.cpp, case module_move_into_later_region).
  CHECK(m.block_of(w) == b);

  // A rolled-back transaction takes added regions away again, first or later ones.
  auto v = m.create_op("x.v", {}, {});
  m.push_back(b, v);
  auto token = m.begin_transaction();
  auto v0 = m.add_region(v);
  auto v1 = m.add_region(v);
  m.push_back(v1, m.create_op("x.yield", {}, {}));
  CHECK(collect(m.region_blocks(v)) == std::vector<block_ref>{v0, v1});
  m.rollback(token);
  CHECK(m.num_regions(v) == 0);
  token = m.begin_transaction();
  m.add_region(v);
  m.commit(token);
  token = m.begin_transaction();
  m.add_region(v);
  m.add_region(v);
  m.rollback(token);
  CHECK(m.num_regions(v) == 1);

  // Erasing the op erases the ops of all its regions and drops their uses.
  m.erase_op(w);
  CHECK(m.erased(in1));
  CHECK(m.erased(in2));
  CHECK_FALSE(m.has_uses(vx));
}

TEST_CASE("block arguments") {
  module m;
  auto op = leaf(m, m.body(), "x.region");
  auto i32 = m.intern_type("i32"), f32 = m.intern_type("f32");
  auto rb = m.add_region(op, std::vector<type_ref>{i32});
  auto extra = m.add_block_argument(rb, f32, "acc");

  CHECK(m.has_region(op));
  CHECK(m.region_block(op) == rb);
  CHECK(collect(m.region_blocks(op)) == std::vector<block_ref>{rb});
  CHECK(m.region_blocks(m.front(m.body())).size() == 1);
  auto plain = leaf(m, m.body(), "x.plain");
  CHECK(m.region_blocks(plain).empty());
  REQUIRE(m.arguments(rb).size() == 2);
  auto a0 = m.arguments(rb)[0];
  CHECK(m.arguments(rb)[1] == extra);
  CHECK(m.value_index(a0) == 0);
  CHECK(m.value_index(extra) == 1);
  CHECK_FALSE(m.defining_op(extra).valid());
  CHECK(m.argument_block(extra) == rb);
  CHECK(m.defining_block(extra) == rb);
  CHECK(m.type_text(a0) == "i32");
  CHECK(m.type_text(extra) == "f32");
  CHECK(m.arg_name_hint(extra) == "acc");
  m.set_arg_name_hint(a0, "x");
  CHECK(m.arg_name_hint(a0) == "x");
  m.set_type(a0, f32);
  CHECK(m.type_text(a0) == "f32");
  CHECK_FALSE(m.argument_block(m.result(op, 0)).valid());
  CHECK(m.block_count() == 2);
  CHECK(m.defining_block(m.result(plain, 0)) == m.body());
}

TEST_CASE("functions and lookup_function see func.func ops in module order") {
  module m;
  auto make = [&](std::string_view sym) {
    auto f = m.create_op("func.func", {}, {});
    auto& fi = m.make_function(f);
    fi.sym_name = std::string(sym);
    m.push_back(m.body(), f);
    return f;
  };
  auto g = make("g");
  leaf(m, m.body(), "x.global");
  auto f = make("f");
  CHECK(m.is_function(f));
  CHECK_FALSE(m.is_function(m.next_op(g)));
  CHECK(m.function(f).sym_name == "f");
  CHECK(functions(m) == std::vector<op_ref>{g, f});
  CHECK(lookup_function(m, "f") == f);
  CHECK(lookup_function(m, "g") == g);
  CHECK_FALSE(lookup_function(m, "h").valid());
  m.move_before(f, g);
  CHECK(functions(m) == std::vector<op_ref>{f, g});
  m.erase_op(g);
  CHECK(functions(m) == std::vector<op_ref>{f});
  CHECK_FALSE(lookup_function(m, "g").valid());
}

TEST_CASE("attributes keep insertion order; set replaces in place; remove keeps the rest") {
  module m;
  auto op = leaf(m, m.body(), "x.op");
  m.set_attribute(op, "b", "1 : i64");
  m.set_attribute(op, "a", "\"s\"");
  m.set_attribute(op, "c", "unit");
  m.set_attribute(op, "b", "2 : i64");
  CHECK(m.attributes(op) ==
        std::vector<attribute>{{"b", "2 : i64"}, {"a", "\"s\""}, {"c", "unit"}});
  REQUIRE(m.find_attribute(op, "a") != nullptr);
  CHECK(m.find_attribute(op, "a")->value == "\"s\"");
  CHECK(m.find_attribute(op, "z") == nullptr);
  CHECK(m.remove_attribute(op, "a"));
  CHECK_FALSE(m.remove_attribute(op, "a"));
  CHECK(m.attributes(op) == std::vector<attribute>{{"b", "2 : i64"}, {"c", "unit"}});
  m.set_attribute(op, "a", "0");
  CHECK(m.attributes(op).back() == attribute{"a", "0"});
}

TEST_CASE("cold op fields round-trip") {
  module m;
  auto op = leaf(m, m.body(), "x.op");
  m.set_loc(op, source_loc{4, 2});
  m.set_loc_text(op, "loc(#loc1)");
  m.set_properties_text(op, "<{p = 1 : i32}>");
  m.set_name_hint(op, "r");
  CHECK(m.loc(op) == source_loc{4, 2});
  CHECK(m.loc_text(op) == "loc(#loc1)");
  CHECK(m.properties_text(op) == "<{p = 1 : i32}>");
  CHECK(m.name_hint(op) == "r");
}

TEST_CASE("cold fields: absent ones read empty, copies from the module itself, rollback, results") {
  module m;
  auto a = leaf(m, m.body(), "x.a");
  auto b = leaf(m, m.body(), "x.b");
  // Nothing written: every cold text and list reads empty, and reading allocates nothing.
  CHECK(m.loc_text(a).empty());
  CHECK(m.name_hint(a).empty());
  CHECK(m.properties_text(a).empty());
  CHECK(m.result_group_hints(a).empty());
  CHECK(std::as_const(m).attributes(a).empty());
  CHECK_FALSE(m.remove_attribute(a, "x"));
  // A text copied from the module's own storage (the arena may move while it is appended to).
  m.set_name_hint(a, "first_hint_long_enough_to_leave_sso");
  for (int i = 0; i < 64; ++i) m.set_name_hint(b, m.name_hint(a));
  CHECK(m.name_hint(b) == "first_hint_long_enough_to_leave_sso");
  m.set_loc_text(b, m.name_hint(b));
  CHECK(m.loc_text(b) == "first_hint_long_enough_to_leave_sso");
  // Result groups and the hint: setting the hint makes the results one group again.
  m.set_result_group_hints(a, {{"s", 1}, {"t", 0}});
  CHECK(m.name_hint(a) == "s");
  CHECK(m.result_group_hints(a).size() == 2);
  // Every cold write inside a transaction is undone by a rollback.
  const auto token = m.begin_transaction();
  m.set_name_hint(a, "other");
  m.set_loc_text(a, "loc(#x)");
  m.set_properties_text(a, "<{q}>");
  m.set_attribute(a, "k", "1");
  m.set_type(m.result(a, 0), m.intern_type("f32"));
  CHECK(m.result_group_hints(a).empty());
  m.rollback(token);
  CHECK(m.name_hint(a) == "s");
  CHECK(m.result_group_hints(a).size() == 2);
  CHECK(m.loc_text(a).empty());
  CHECK(m.properties_text(a).empty());
  CHECK(m.attributes(a).empty());
  CHECK(m.type_text(m.result(a, 0)) == "i32");
  // A result has no argument fields: they read empty and writing them changes nothing.
  const value_ref r = m.result(b, 0);
  m.set_arg_name_hint(r, "no");
  m.set_arg_loc_text(r, "loc(#no)");
  CHECK(m.arg_name_hint(r).empty());
  CHECK(m.arg_loc_text(r).empty());
  CHECK(m.type_text(r) == "i32");
  CHECK(m.argument_block(r) == block_ref{});
  // A view taken before the module moves still reads the text (the arena's buffer moves along).
  m.set_name_hint(b, "q");
  const std::string_view view = m.name_hint(b);
  module moved = std::move(m);
  CHECK(view == "q");
  CHECK(moved.name_hint(b).data() == view.data());
}

TEST_CASE("shrink_to_fit keeps every op, value, order and text") {
  module m;
  std::vector<op_ref> ops;
  for (int i = 0; i < 300; ++i) {
    ops.push_back(leaf(m, m.body(), i % 2 ? "x.odd" : "x.even"));
    m.set_name_hint(ops.back(), std::to_string(i));
    if (i % 7 == 0) m.set_attribute(ops.back(), "i", std::to_string(i));
  }
  const auto arg = m.add_block_argument(m.body(), m.intern_type("f16"), "in");
  m.shrink_to_fit();
  CHECK(m.size(m.body()) == 300);
  int i = 0;
  for (auto op : m.ops(m.body())) {
    REQUIRE(op == ops[static_cast<std::size_t>(i)]);
    CHECK(m.name_hint(op) == std::to_string(i));
    CHECK(m.attributes(op).size() == (i % 7 == 0 ? 1u : 0u));
    ++i;
  }
  CHECK(m.is_before_in_block(ops[10], ops[200]));
  CHECK(m.arg_name_hint(arg) == "in");
  CHECK(m.type_text(arg) == "f16");
  CHECK(m.argument_block(arg) == m.body());
  // It still grows afterwards.
  auto more = leaf(m, m.body(), "x.more");
  m.move_before(more, ops[0]);
  CHECK(m.front(m.body()) == more);
}

TEST_CASE("a module is movable and keeps its ops") {
  module m;
  auto a = leaf(m, m.body(), "x.a");
  module n = std::move(m);
  CHECK(n.name(a) == "x.a");
  CHECK(n.front(n.body()) == a);
}

TEST_CASE("moving ops out of and next to a region op; never into its own region") {
  module m;
  auto outer = leaf(m, m.body(), "test.outer");
  auto inner_block = m.add_region(outer);
  auto inner = leaf(m, inner_block, "test.inner");
  auto deeper = m.create_op("test.deep_region", {}, {});
  m.push_back(inner_block, deeper);
  auto deep_block = m.add_region(deeper);
  auto deep = leaf(m, deep_block, "test.deep");

  // Moving an op into its own region (move_before(outer, inner), move_after(outer, deep),
  // push_back(deep_block, outer), move_to_end(deeper, deep_block)) is a precondition violation
  // that aborts in every build: tests/detail/assert_death.cpp runs each in its own process.
  CHECK(m.block_of(outer) == m.body());
  CHECK(names(m, inner_block) == std::vector<std::string_view>{"test.inner", "test.deep_region"});
  CHECK(names(m, deep_block) == std::vector<std::string_view>{"test.deep"});
  // Moving an inner op out and a sibling in is fine.
  m.move_after(deep, outer);
  CHECK(names(m, m.body()) == std::vector<std::string_view>{"test.outer", "test.deep"});
  m.erase_op(outer);
  CHECK(m.erased(inner));
  CHECK(m.erased(deeper));
  CHECK_FALSE(m.erased(deep));
}
