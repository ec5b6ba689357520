// The cached dense block copy (algorithms/block_copy_cache.hpp) on its own: what a copy holds,
// the invalidation rule (IR object, block and version), and the three policies. The walks over
// a copy are tested in dependence_walk_test.cpp.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <string>
#include <vector>

#include <neuronrw/algorithms/block_copy_cache.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "algorithms/block_program.hpp"
#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;
using block_test::program;
using block_test::strings;

namespace {

using ref_op = nr::ref::op_ref;
using cache = nr::block_copy_cache<nr::ref::module>;

constexpr const char* text = R"(
  a = foo.a %0
  b = foo.b a a
  r = foo.region b {
    i = foo.use a
  }
  c = foo.c %1
  d = foo.d c b
)";

strings copy_labels(const program<nr::ref::module>& p, const nr::block_copy<nr::ref::module>& c) {
  return p.labels(c.ops);
}

}  // namespace

static_assert(cache::enabled);
static_assert(!nr::block_copy_cache<nr::archetype::ir>::enabled);

TEST_CASE("block_copy_cache: a copy holds the block's ops, in-block producers and rare flags") {
  program<nr::ref::module> p(text);
  cache c;
  c.set_policy(nr::block_copy_policy::always);
  const auto* copy = c.get(p.g, p.body);
  REQUIRE(copy != nullptr);
  CHECK(copy_labels(p, *copy) == strings{"a", "b", "r", "c", "d"});
  auto producers = [&](std::size_t i) {
    strings r;
    for (const std::uint32_t at : copy->producers_of(i)) {  // positions in the copy
      REQUIRE(at < copy->ops.size());
      r.push_back(p.label(copy->ops[at]));
    }
    return r;
  };
  CHECK(producers(0).empty());                      // a: a function argument only
  CHECK(producers(1) == strings{"a", "a"});         // b: repeats kept
  CHECK(producers(4) == strings{"c", "b"});         // d: operand order
  std::vector<bool> rare;
  for (std::size_t i = 0; i < copy->ops.size(); ++i) rare.push_back(copy->rare_at(i));
  CHECK(rare == std::vector<bool>{false, false, true, false, false});  // r has a region
  CHECK(producers(3).empty());  // c: an argument only; the flag of r before it is not a producer
  // the op of a nested block is not in the copy (its index lies between r's and c's, so the
  // body's indices are not consecutive and the copy keeps a position table)
  CHECK_FALSE(copy->consecutive);
  CHECK_FALSE(copy->position_of(nr::ir::op_index(p.g, p["i"])).has_value());
}

TEST_CASE("block_copy_cache: a changed version drops the copy") {
  program<nr::ref::module> p(text);
  auto& g = p.g;
  cache c;
  c.set_policy(nr::block_copy_policy::always);
  CHECK_FALSE(c.holds(g, p.body));
  const auto* first = c.get(g, p.body);
  REQUIRE(first != nullptr);
  CHECK(c.holds(g, p.body));
  CHECK(c.get(g, p.body) == first);  // unchanged IR: the same copy, not made again
  CHECK(c.copies_made() == 1);

  CHECK(c.held(g) == first);  // held: the copy, whatever its block

  // a move changes the version: the copy is retired without being told
  g.move_after(p["c"], p["a"]);
  CHECK_FALSE(c.holds(g, p.body));
  CHECK(c.held(g) == nullptr);
  const auto* second = c.get(g, p.body);
  REQUIRE(second != nullptr);
  CHECK(c.copies_made() == 2);
  CHECK(copy_labels(p, *second) == strings{"a", "c", "b", "r", "d"});  // the block as it is now

  // an operand written
  g.set_operand(p["d"], 0, g.result(p["a"], 0));
  CHECK_FALSE(c.holds(g, p.body));
  CHECK(c.get(g, p.body) != nullptr);
  CHECK(c.copies_made() == 3);

  // another block of the same IR replaces the copy of the body
  const auto inner = *std::ranges::begin(nr::ir::regions(g, p["r"]));
  CHECK(c.get(g, inner) != nullptr);
  CHECK(c.holds(g, inner));
  CHECK_FALSE(c.holds(g, p.body));
  CHECK(c.copies_made() == 4);
  REQUIRE(c.held(g) != nullptr);
  CHECK(*c.held(g)->block == inner);
  // the copy places the ops it holds, and only those
  CHECK(c.held(g)->position_of(nr::ir::op_index(g, p["i"])) == std::optional<std::uint32_t>(0));
  CHECK_FALSE(c.held(g)->position_of(nr::ir::op_index(g, p["d"])).has_value());
  // under the never policy nothing is held (as get answers nothing)
  c.set_policy(nr::block_copy_policy::never);
  CHECK(c.held(g) == nullptr);
  c.set_policy(nr::block_copy_policy::always);
  CHECK(c.held(g) != nullptr);

  // another IR object never sees this one's copy
  program<nr::ref::module> q(text);
  CHECK_FALSE(c.holds(q.g, q.body));
  CHECK(c.held(q.g) == nullptr);

  // dropped by hand
  CHECK(c.get(g, p.body) != nullptr);
  c.invalidate();
  CHECK_FALSE(c.holds(g, p.body));
  CHECK(c.get(g, p.body) != nullptr);
  CHECK(c.copies_made() == 6);
}

TEST_CASE("block_copy_cache: positions from consecutive op indices, or from the table") {
  // A block parsed op after op numbers its ops consecutively: positions are computed from the
  // op index. After a reorder they are not, and the copy keeps a table; the answers are the same.
  program<nr::ref::module> p(R"(
    a = foo.a %0
    b = foo.b a
    c = foo.c b a
    d = foo.d c
  )");
  auto& g = p.g;
  cache c;
  c.set_policy(nr::block_copy_policy::always);
  auto positions = [&](const nr::block_copy<nr::ref::module>& copy) {
    std::vector<std::optional<std::uint32_t>> r;
    for (const char* name : {"a", "b", "c", "d"}) r.push_back(copy.position_of(nr::ir::op_index(g, p[name])));
    return r;
  };
  using pos = std::vector<std::optional<std::uint32_t>>;
  const auto* first = c.get(g, p.body);
  REQUIRE(first != nullptr);
  CHECK(first->consecutive);
  CHECK(first->first_index == nr::ir::op_index(g, p["a"]));
  CHECK(positions(*first) == pos{0, 1, 2, 3});
  // indices outside the block: below its first (the function op), just past its last, and far
  // past the IR's bound
  const auto func = nr::ir::parent_op(g, p["a"]);
  REQUIRE(!nr::ir::is_null<nr::ref::module>(func));
  CHECK(nr::ir::op_index(g, func) < first->first_index);
  CHECK_FALSE(first->position_of(nr::ir::op_index(g, func)).has_value());
  CHECK_FALSE(first->position_of(first->first_index + first->ops.size()).has_value());
  CHECK_FALSE(first->position_of(std::size_t(-1)).has_value());
  auto producers = [&](const nr::block_copy<nr::ref::module>& copy, std::size_t i) {
    strings r;
    for (const std::uint32_t at : copy.producers_of(i)) r.push_back(p.label(copy.ops[at]));
    return r;
  };
  CHECK(producers(*first, 2) == strings{"b", "a"});

  g.move_after(p["c"], p["d"]);  // d uses c: a dominance break, but the copy only lists the order
  const auto* second = c.get(g, p.body);
  REQUIRE(second != nullptr);
  CHECK_FALSE(second->consecutive);
  CHECK(copy_labels(p, *second) == strings{"a", "b", "d", "c"});
  CHECK(positions(*second) == pos{0, 1, 3, 2});
  CHECK_FALSE(second->position_of(nr::ir::op_index(g, func)).has_value());
  CHECK(producers(*second, 3) == strings{"b", "a"});  // c, now at position 3

  g.move_after(p["d"], p["c"]);  // back in index order: computed positions again
  const auto* third = c.get(g, p.body);
  REQUIRE(third != nullptr);
  CHECK(third->consecutive);
  CHECK(positions(*third) == pos{0, 1, 2, 3});
  // the table of the non-consecutive copy is not consulted: its entries for these ops are stale
  CHECK(third->position_of(nr::ir::op_index(g, p["c"])) == std::optional<std::uint32_t>(2));
}

TEST_CASE("block_copy_cache: the policies never, amortized and always") {
  program<nr::ref::module> p(text);  // the body holds 5 ops
  auto& g = p.g;
  SUBCASE("never: no copy, whatever was swept") {
    cache c;
    c.set_policy(nr::block_copy_policy::never);
    for (int i = 0; i < 3; ++i) {
      CHECK(c.get(g, p.body) == nullptr);
      c.note_swept(g, p.body, 100);
    }
    CHECK(c.copies_made() == 0);
  }
  SUBCASE("always: on the first get in a block and version") {
    cache c;
    c.set_policy(nr::block_copy_policy::always);
    CHECK(c.get(g, p.body) != nullptr);
    CHECK(c.copies_made() == 1);
  }
  SUBCASE("amortized: once the ops swept without a copy reach the block's size") {
    cache c;
    CHECK(c.policy() == nr::block_copy_policy::amortized);  // the default
    CHECK(c.get(g, p.body) == nullptr);                    // opens the account
    c.note_swept(g, p.body, 3);
    CHECK(c.get(g, p.body) == nullptr);
    // sweeps in another block, or counted before the account is opened, do not count
    const auto inner = *std::ranges::begin(nr::ir::regions(g, p["r"]));
    c.note_swept(g, inner, 100);
    CHECK(c.get(g, p.body) == nullptr);
    c.note_swept(g, p.body, 2);  // 5 = block_size
    CHECK(c.get(g, p.body) != nullptr);
    CHECK(c.copies_made() == 1);
    // a mutation retires the copy and starts the account again
    g.move_before(p["a"], p["b"]);  // a no-op move still moves the version
    CHECK(c.get(g, p.body) == nullptr);
    c.note_swept(g, p.body, 4);
    CHECK(c.get(g, p.body) == nullptr);
    c.note_swept(g, p.body, 1);
    CHECK(c.get(g, p.body) != nullptr);
    CHECK(c.copies_made() == 2);
    // a switch to never keeps the policy's word at once; back to amortized, the copy is current
    c.set_policy(nr::block_copy_policy::never);
    CHECK(c.get(g, p.body) == nullptr);
    c.set_policy(nr::block_copy_policy::amortized);
    CHECK(c.get(g, p.body) != nullptr);
    CHECK(c.copies_made() == 2);
  }
}

TEST_CASE("block_copy_cache: inert on an IR without a mutation counter") {
  program<nr::archetype::ir> p(text);
  nr::block_copy_cache<nr::archetype::ir> c;
  c.set_policy(nr::block_copy_policy::always);
  CHECK(c.get(p.g, p.body) == nullptr);
  CHECK_FALSE(c.holds(p.g, p.body));
  CHECK(c.held(p.g) == nullptr);
  c.note_swept(p.g, p.body, 100);
  CHECK(c.get(p.g, p.body) == nullptr);
  CHECK(c.copies_made() == 0);
}
