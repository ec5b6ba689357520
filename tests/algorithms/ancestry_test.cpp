// ancestor_in_block / is_ancestor_or_self on the reference IR and the archetype IR.
#include <doctest/doctest.h>

#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;

TEST_CASE("ancestor_in_block resolves nested uses to the op in the block, on both models") {
  nr::archetype::ir a;
  auto [af, ab] = a.add_function("f", {"i32"});
  auto outer = a.add(ab, "foo.region", {}, {"i32"});
  int r1 = a.add_region(outer);
  auto mid = a.add(r1, "foo.region", {});
  int r2 = a.add_region(mid);
  auto deep = a.add(r2, "foo.use", {a.arg(ab, 0)});
  auto sibling = a.add(ab, "foo.other", {});
  nr::archetype::block_h fb{ab};
  CHECK(nr::ancestor_in_block(a, deep, fb) == outer);
  CHECK(nr::ancestor_in_block(a, mid, fb) == outer);
  CHECK(nr::ancestor_in_block(a, sibling, fb) == sibling);
  CHECK(nr::ancestor_in_block(a, outer, nr::archetype::block_h{r2}) == nr::archetype::op_h{});
  CHECK(nr::is_ancestor_or_self(a, outer, deep));
  CHECK_FALSE(nr::is_ancestor_or_self(a, sibling, deep));
  CHECK(nr::is_ancestor_or_self(a, af, deep));

  nr::ref::module m;
  auto f = m.create_op("func.func", {}, {});
  m.push_back(m.body(), f);
  auto body = m.add_region(f);
  auto o = m.create_op("foo.region", {}, {});
  m.push_back(body, o);
  auto inner = m.add_region(o);
  auto d = m.create_op("foo.use", {}, {});
  m.push_back(inner, d);
  CHECK(nr::ancestor_in_block(m, d, body) == o);
  CHECK(nr::ancestor_in_block(m, d, m.body()) == f);
  CHECK(nr::ancestor_in_block(m, o, inner) == nr::ref::op_ref{});
}

