// op_set: the dense (indexed IR) and hashed (archetype) variants give the same answers, by op and by key.
#include <doctest/doctest.h>

#include <type_traits>
#include <vector>

#include <neuronrw/algorithms/op_set.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;

namespace {
// n ops of the same name in a reference module and in an archetype IR.
struct two_irs {
  nr::ref::module m;
  std::vector<nr::ref::op_ref> rops;
  nr::archetype::ir a;
  std::vector<nr::archetype::op_h> aops;
  explicit two_irs(int n) {
    for (int i = 0; i < n; ++i) rops.push_back(m.create_op("foo.x", {}, {}));
    for (int i = 0; i < n; ++i) aops.push_back(a.add(0, "foo.x", {}));
  }
};
}  // namespace

TEST_CASE("op_set: dense on the reference IR, hashed on the archetype, same answers") {
  two_irs t(10);
  auto& [m, rops, a, aops] = t;

  nr::op_set<nr::ref::module> rs(m);
  nr::op_set<nr::archetype::ir> as(a);
  for (int i = 0; i < 10; i += 3) {
    CHECK(rs.insert(rops[static_cast<std::size_t>(i)]));
    CHECK(as.insert(aops[static_cast<std::size_t>(i)]));
  }
  CHECK_FALSE(rs.insert(rops[3]));
  CHECK_FALSE(as.insert(aops[3]));
  CHECK(rs.size() == 4);
  CHECK(as.size() == 4);
  for (int i = 0; i < 10; ++i) {
    CHECK(rs.contains(rops[static_cast<std::size_t>(i)]) == (i % 3 == 0));
    CHECK(as.contains(aops[static_cast<std::size_t>(i)]) == (i % 3 == 0));
  }
  CHECK(rs.erase(rops[6]));
  CHECK_FALSE(rs.erase(rops[6]));
  CHECK(rs.size() == 3);
  rs.clear();
  as.clear();
  CHECK(rs.size() == 0);
  CHECK_FALSE(rs.contains(rops[0]));
  CHECK_FALSE(as.contains(aops[0]));
  // Ops created after the set was made are still accepted.
  auto late = m.create_op("foo.late", {}, {});
  CHECK(rs.insert(late));
  CHECK(rs.contains(late));
}

TEST_CASE("op_set: keys computed once serve every set of the same IR, dense and hashed") {
  two_irs t(6);
  auto& [m, rops, a, aops] = t;

  auto check = [](const auto& g, const auto& ops) {
    using G = std::remove_cvref_t<decltype(g)>;
    nr::op_set<G> s1(g), s2(g);
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const auto k = s1.key(ops[i]);
      CHECK(s2.key(ops[i]) == k);  // a key is the IR's, not the set's
      if (i % 2 == 0) CHECK(s1.insert_key(k));
      if (i % 3 == 0) CHECK(s2.insert(ops[i]));
    }
    CHECK_FALSE(s1.insert_key(s1.key(ops[0])));
    CHECK(s1.size() == 3);
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const auto k = s2.key(ops[i]);
      CHECK(s1.contains_key(k) == (i % 2 == 0));
      CHECK(s1.contains(ops[i]) == (i % 2 == 0));
      CHECK(s2.contains_key(k) == (i % 3 == 0));
    }
    s1.clear();
    CHECK_FALSE(s1.contains_key(s1.key(ops[0])));
  };
  check(m, rops);
  check(a, aops);
  // A key past the set's size (an op created after the set was made) is accepted.
  nr::op_set<nr::ref::module> s(m);
  const auto late = m.create_op("foo.late", {}, {});
  CHECK_FALSE(s.contains_key(s.key(late)));
  CHECK(s.insert_key(s.key(late)));
  CHECK(s.contains(late));
}
