// Tests for neuronrw/algorithms/order.hpp: exact small cases, a randomized comparison against a
// naive vector-of-vectors model, and adversarial patterns that force relabelling and splits.
#include <neuronrw/algorithms/order.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <random>
#include <ranges>
#include <vector>

namespace {

using neuronrw::order_maintenance;
using neuronrw::order_maintenance_options;
using node_id = order_maintenance::node_id;
using list_id = order_maintenance::list_id;
constexpr auto npos = order_maintenance::npos;

std::vector<node_id> contents(const order_maintenance& om, list_id l) {
  std::vector<node_id> out;
  for (node_id n : om.nodes(l)) out.push_back(n);
  return out;
}

std::vector<node_id> contents_backwards(const order_maintenance& om, list_id l) {
  std::vector<node_id> out;
  for (node_id n = om.last(l); n != npos; n = om.prev(n)) out.push_back(n);
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<node_id> add_nodes(order_maintenance& om, std::size_t n) {
  std::vector<node_id> ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back(om.add_node());
  return ids;
}

// Checks a sample of is_before answers of list l against the position of each node in `order`.
void check_sampled_order(const order_maintenance& om, const std::vector<node_id>& order, std::size_t samples,
                         std::uint32_t seed) {
  std::vector<std::size_t> pos(om.node_count(), 0);
  for (std::size_t i = 0; i < order.size(); ++i) pos[order[i]] = i;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, order.size() - 1);
  std::size_t wrong = 0;
  for (std::size_t s = 0; s < samples; ++s) {
    const node_id a = order[pick(rng)], b = order[pick(rng)];
    wrong += om.is_before(a, b) != (pos[a] < pos[b]);
  }
  // Neighbours are the pairs most likely to be mislabelled after a local relabel.
  for (std::size_t s = 0; s + 1 < order.size(); s += 1 + order.size() / samples) {
    wrong += !om.is_before(order[s], order[s + 1]);
    wrong += om.is_before(order[s + 1], order[s]);
  }
  CHECK(wrong == 0);
}

}  // namespace

TEST_SUITE("order_maintenance") {

TEST_CASE("empty structure and empty list") {
  order_maintenance om;
  CHECK(om.node_count() == 0);
  CHECK(om.list_count() == 0);
  const list_id l = om.create_list();
  CHECK(l == 0);
  CHECK(om.list_count() == 1);
  CHECK(om.empty(l));
  CHECK(om.size(l) == 0);
  CHECK(om.first(l) == npos);
  CHECK(om.last(l) == npos);
  CHECK(om.nodes(l).begin() == om.nodes(l).end());
  CHECK(std::ranges::distance(om.nodes(l)) == 0);
  CHECK(om.group_count() == 0);
  CHECK(om.invariants_hold());
}

TEST_CASE("node ids are dense and start detached") {
  order_maintenance om;
  om.reserve_nodes(10);
  for (node_id i = 0; i < 5; ++i) CHECK(om.add_node() == i);
  CHECK(om.node_count() == 5);
  for (node_id i = 0; i < 5; ++i) {
    CHECK_FALSE(om.attached(i));
    CHECK(om.list_of(i) == npos);
    CHECK(om.next(i) == npos);
    CHECK(om.prev(i) == npos);
  }
}

TEST_CASE("single node") {
  order_maintenance om;
  const list_id l = om.create_list();
  const node_id a = om.add_node();
  om.push_back(l, a);
  CHECK(om.attached(a));
  CHECK(om.list_of(a) == l);
  CHECK(om.size(l) == 1);
  CHECK_FALSE(om.empty(l));
  CHECK(om.first(l) == a);
  CHECK(om.last(l) == a);
  CHECK(om.next(a) == npos);
  CHECK(om.prev(a) == npos);
  CHECK_FALSE(om.is_before(a, a));
  CHECK(contents(om, l) == std::vector<node_id>{a});

  om.move_before(a, a);  // move to self: no-op
  om.move_after(a, a);
  CHECK(contents(om, l) == std::vector<node_id>{a});

  om.detach(a);
  CHECK_FALSE(om.attached(a));
  CHECK(om.list_of(a) == npos);
  CHECK(om.empty(l));
  CHECK(om.first(l) == npos);
  CHECK(om.group_count() == 0);  // the emptied group is recycled
  CHECK(om.invariants_hold());

  om.push_front(l, a);  // reattach
  CHECK(contents(om, l) == std::vector<node_id>{a});
  CHECK(om.group_count() == 1);
}

TEST_CASE("exact small sequences") {
  order_maintenance om;
  const list_id l = om.create_list();
  const auto v = add_nodes(om, 5);  // 0..4
  om.push_back(l, v[1]);
  om.push_front(l, v[0]);
  om.push_back(l, v[3]);
  om.insert_before(v[2], v[3]);
  om.insert_after(v[4], v[3]);
  CHECK(contents(om, l) == std::vector<node_id>{0, 1, 2, 3, 4});
  CHECK(contents_backwards(om, l) == std::vector<node_id>{0, 1, 2, 3, 4});
  CHECK(om.is_before(0, 4));
  CHECK(om.is_before(2, 3));
  CHECK_FALSE(om.is_before(3, 2));
  CHECK(om.next(4) == npos);
  CHECK(om.prev(0) == npos);
  CHECK(om.next(1) == 2);
  CHECK(om.prev(1) == 0);

  SUBCASE("move to self and to the current place are no-ops") {
    om.move_before(2, 2);
    om.move_after(2, 2);
    om.move_before(2, 3);  // already right before 3
    om.move_after(2, 1);   // already right after 1
    CHECK(contents(om, l) == std::vector<node_id>{0, 1, 2, 3, 4});
  }
  SUBCASE("move within the list") {
    om.move_before(4, 0);
    CHECK(contents(om, l) == std::vector<node_id>{4, 0, 1, 2, 3});
    om.move_after(4, 3);
    CHECK(contents(om, l) == std::vector<node_id>{0, 1, 2, 3, 4});
    om.move_after(0, 2);
    CHECK(contents(om, l) == std::vector<node_id>{1, 2, 0, 3, 4});
    CHECK(om.is_before(2, 0));
    CHECK(om.is_before(0, 3));
    CHECK(om.first(l) == 1);
  }
  SUBCASE("move across lists") {
    const list_id m = om.create_list();
    const node_id x = om.add_node();  // 5
    om.push_back(m, x);
    om.move_before(2, x);
    om.move_after(4, x);
    CHECK(contents(om, l) == std::vector<node_id>{0, 1, 3});
    CHECK(contents(om, m) == std::vector<node_id>{2, 5, 4});
    CHECK(om.list_of(2) == m);
    CHECK(om.list_of(1) == l);
    CHECK(om.size(l) == 3);
    CHECK(om.size(m) == 3);
    CHECK(om.is_before(2, 4));
    CHECK(om.is_before(1, 3));
    // Emptying a list and moving its last node elsewhere.
    om.move_after(x, 3);
    om.move_after(2, 3);
    om.move_after(4, 0);
    CHECK(om.empty(m));
    CHECK(om.first(m) == npos);
    CHECK(contents(om, l) == std::vector<node_id>{0, 4, 1, 3, 2, 5});
  }
  SUBCASE("a detached node moves into a list") {
    om.detach(2);
    CHECK(contents(om, l) == std::vector<node_id>{0, 1, 3, 4});
    om.move_after(2, 4);
    CHECK(contents(om, l) == std::vector<node_id>{0, 1, 3, 4, 2});
    om.detach(2);
    om.move_before(2, 0);
    CHECK(contents(om, l) == std::vector<node_id>{2, 0, 1, 3, 4});
  }
  CHECK(om.invariants_hold());
}

TEST_CASE("node range is a view usable with std::ranges") {
  order_maintenance om;
  const list_id l = om.create_list();
  for (node_id i = 0; i < 10; ++i) om.push_back(l, om.add_node());
  auto r = om.nodes(l);
  static_assert(std::ranges::forward_range<decltype(r)>);
  static_assert(std::ranges::bidirectional_range<decltype(r)>);
  CHECK(std::ranges::distance(r) == 10);
  CHECK(*std::ranges::find(r, node_id{7}) == 7);
  // Not `r | std::views::reverse`: clang 14 cannot instantiate any libstdc++ 12 view adaptor.
  const std::vector<node_id> rev(std::make_reverse_iterator(r.end()), std::make_reverse_iterator(r.begin()));
  CHECK(rev == std::vector<node_id>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(std::ranges::is_sorted(r, [&](node_id a, node_id b) { return om.is_before(a, b); }));
  CHECK(*r.begin() == 0);
  CHECK_FALSE(r.empty());
  CHECK(r.size() == 10);
  CHECK(std::ranges::size(r) == 10);
}

// A capacity outside [2, 65536] is a NEURONRW_ASSERT (a bug, not an input error): the process
// aborts with the message, which tests/detail/ checks in a separate process. Here: both ends of
// the range work, and the capacity is what the structure uses.
TEST_CASE("the extreme group capacities 2 and 65536 work") {
  for (const std::uint32_t cap : {2u, 65536u}) {
    CAPTURE(cap);
    order_maintenance om(order_maintenance_options{.group_capacity = cap});
    CHECK(om.group_capacity() == cap);
    const list_id l = om.create_list();
    constexpr std::size_t count = 3000;
    const auto v = add_nodes(om, count);
    // Alternate front and back inserts, then move every third node to the front.
    std::vector<node_id> expected;
    for (std::size_t i = 0; i < count; ++i) {
      if (i % 2 == 0) {
        om.push_back(l, v[i]);
        expected.push_back(v[i]);
      } else {
        om.push_front(l, v[i]);
        expected.insert(expected.begin(), v[i]);
      }
    }
    for (std::size_t i = 0; i < count; i += 3) {
      om.move_before(v[i], om.first(l));
      expected.erase(std::find(expected.begin(), expected.end(), v[i]));
      expected.insert(expected.begin(), v[i]);
    }
    CHECK(om.invariants_hold());
    CHECK(contents(om, l) == expected);
    check_sampled_order(om, expected, 5'000, cap);
    // Capacity 2 splits into many small groups; 65536 keeps all 3000 nodes in one.
    if (cap == 2) CHECK(om.group_count() >= count / 2);
    else CHECK(om.group_count() == 1);
  }
}

// ---- randomized comparison with a naive model --------------------------------------------

namespace {

struct model {
  std::vector<std::vector<node_id>> lists;
  std::vector<list_id> where;  // npos when detached

  std::size_t index(node_id n) const {
    const auto& v = lists[where[n]];
    return static_cast<std::size_t>(std::find(v.begin(), v.end(), n) - v.begin());
  }
  void erase(node_id n) {
    auto& v = lists[where[n]];
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(index(n)));
    where[n] = npos;
  }
  void insert_at(node_id n, list_id l, std::size_t i) {
    lists[l].insert(lists[l].begin() + static_cast<std::ptrdiff_t>(i), n);
    where[n] = l;
  }
};

void run_random(std::uint32_t seed, std::uint32_t capacity, std::size_t ops) {
  constexpr std::size_t node_total = 300;
  constexpr std::size_t list_total = 4;
  order_maintenance om(order_maintenance_options{.group_capacity = capacity});
  model m;
  for (std::size_t i = 0; i < list_total; ++i) {
    om.create_list();
    m.lists.emplace_back();
  }
  for (std::size_t i = 0; i < node_total; ++i) {
    om.add_node();
    m.where.push_back(npos);
  }
  std::mt19937 rng(seed);
  auto uniform = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  std::size_t attached = 0;
  auto random_attached = [&]() -> node_id {
    for (;;) {
      const auto n = static_cast<node_id>(uniform(node_total));
      if (m.where[n] != npos) return n;
    }
  };

  std::size_t mismatches = 0;
  std::size_t queries = 0;
  for (std::size_t step = 0; step < ops; ++step) {
    const auto n = static_cast<node_id>(uniform(node_total));
    const auto l = static_cast<list_id>(uniform(list_total));
    const std::size_t kind = uniform(100);
    if (m.where[n] == npos) {
      // Keep the lists populated: reattach a detached node somewhere.
      if (attached == 0 || kind < 20) {
        om.push_back(l, n);
        m.insert_at(n, l, m.lists[l].size());
      } else if (kind < 35) {
        om.push_front(l, n);
        m.insert_at(n, l, 0);
      } else {
        const node_id a = random_attached();
        const list_id al = m.where[a];
        const std::size_t ai = m.index(a);
        if (kind < 55) {
          om.insert_before(n, a);
          m.insert_at(n, al, ai);
        } else if (kind < 75) {
          om.insert_after(n, a);
          m.insert_at(n, al, ai + 1);
        } else if (kind < 88) {
          om.move_before(n, a);
          m.insert_at(n, al, ai);
        } else {
          om.move_after(n, a);
          m.insert_at(n, al, ai + 1);
        }
      }
      ++attached;
    } else if (kind < 12) {
      om.detach(n);
      m.erase(n);
      --attached;
    } else if (kind < 20) {
      // A run after an anchor: distinct nodes (attached or not, often a stretch that follows
      // each other in a list), sometimes repeating one or holding the anchor.
      const node_id a = random_attached();
      std::vector<node_id> run;
      const std::size_t len = 1 + uniform(48);
      if (uniform(2) == 0) {
        const node_id s0 = random_attached();
        for (node_id x = s0; x != npos && run.size() < len; x = om.next(x))
          if (x != a) run.push_back(x);
      }
      while (run.size() < len) {
        const auto x = static_cast<node_id>(uniform(node_total));
        if (x != a && std::find(run.begin(), run.end(), x) == run.end()) run.push_back(x);
      }
      const std::size_t twist = uniform(20);
      if (twist == 0) run.push_back(run[uniform(run.size())]);
      if (twist == 1) run.insert(run.begin() + static_cast<std::ptrdiff_t>(uniform(run.size())), a);
      om.move_run_after(run, a);
      node_id at = a;
      for (const node_id x : run) {
        if (x != at) {
          if (m.where[x] == npos) ++attached; else m.erase(x);
          m.insert_at(x, m.where[at], m.index(at) + 1);
        }
        at = x;
      }
    } else {
      // Anchors include n itself (a no-op) and nodes of other lists.
      const node_id a = random_attached();
      const bool before = kind < 56;
      if (before) om.move_before(n, a); else om.move_after(n, a);
      if (a != n) {
        m.erase(n);
        const std::size_t ai = m.index(a);
        m.insert_at(n, m.where[a], before ? ai : ai + 1);
      }
    }

    // Random queries against the model.
    for (int q = 0; q < 3; ++q) {
      const auto ql = static_cast<list_id>(uniform(list_total));
      const auto& v = m.lists[ql];
      ++queries;
      mismatches += om.size(ql) != v.size();
      mismatches += om.empty(ql) != v.empty();
      mismatches += om.first(ql) != (v.empty() ? npos : v.front());
      mismatches += om.last(ql) != (v.empty() ? npos : v.back());
      if (!v.empty()) {
        const std::size_t i = uniform(v.size()), j = uniform(v.size());
        mismatches += om.is_before(v[i], v[j]) != (i < j);
        mismatches += om.next(v[i]) != (i + 1 < v.size() ? v[i + 1] : npos);
        mismatches += om.prev(v[i]) != (i > 0 ? v[i - 1] : npos);
      }
      const auto qn = static_cast<node_id>(uniform(node_total));
      mismatches += om.list_of(qn) != m.where[qn];
      mismatches += om.attached(qn) != (m.where[qn] != npos);
    }
    if (step % 997 == 0 || step + 1 == ops) {
      REQUIRE(om.invariants_hold());
      for (list_id k = 0; k < list_total; ++k) REQUIRE(contents(om, k) == m.lists[k]);
    }
    if (mismatches != 0) {
      INFO("seed " << seed << ", capacity " << capacity << ", step " << step);
      REQUIRE(mismatches == 0);
    }
  }
  CHECK(queries == 3 * ops);
}

}  // namespace

TEST_CASE("random operations match a naive model") {
  constexpr std::size_t ops = 100'000;
  SUBCASE("fixed seed, default capacity") { run_random(20240601u, 64, ops); }
  SUBCASE("seed 1, capacity 2 (a split on nearly every insert)") { run_random(1u, 2, ops); }
  SUBCASE("seed 2, capacity 5") { run_random(2u, 5, ops); }
  SUBCASE("seed 3, capacity 16") { run_random(3u, 16, ops); }
}

TEST_CASE("move_run_after: a long run leaves what single moves leave") {
  for (const std::uint32_t cap : {64u, 2u, 5u}) {
    CAPTURE(cap);
    order_maintenance om(order_maintenance_options{.group_capacity = cap});
    const list_id l = om.create_list();
    const auto v = add_nodes(om, 10'000);
    for (node_id n : v) om.push_back(l, n);
    // Segments U0 X C1..Ck U1..Uk D: the repair's sink moves C1..Ck after D in one run, then back.
    std::vector<node_id> expect(v.begin(), v.end());
    for (int round = 0; round < 20; ++round) {
      const std::size_t k = 1 + static_cast<std::size_t>(round) * 97 % 3000;
      const std::size_t start = static_cast<std::size_t>(round) * 131 % 2000;
      std::vector<node_id> run(expect.begin() + static_cast<std::ptrdiff_t>(start + 2),
                               expect.begin() + static_cast<std::ptrdiff_t>(start + 2 + k));
      const node_id d = expect[start + 2 + 2 * k];
      om.move_run_after(run, d);
      // The model: remove the run, then put it after d.
      std::vector<node_id> next;
      for (node_id n : expect)
        if (std::find(run.begin(), run.end(), n) == run.end()) next.push_back(n);
      const auto at = std::find(next.begin(), next.end(), d) + 1;
      next.insert(at, run.begin(), run.end());
      expect = next;
      REQUIRE(om.invariants_hold());
      REQUIRE(contents(om, l) == expect);
      REQUIRE(contents_backwards(om, l) == expect);
      check_sampled_order(om, expect, 2000, static_cast<std::uint32_t>(round));
    }
  }
}

TEST_CASE("move_run_after: a repeated node or the anchor in the run gives the single moves' outcome") {
  order_maintenance om;
  const list_id l = om.create_list();
  const auto v = add_nodes(om, 100);
  for (node_id n : v) om.push_back(l, n);
  // 40 nodes, the 10th again at the end: it ends last, as a second move_after would leave it.
  std::vector<node_id> run(v.begin() + 20, v.begin() + 60);
  run.push_back(v[29]);
  om.move_run_after(run, v[80]);
  std::vector<node_id> expect;
  for (std::size_t i = 0; i < 100; ++i) {
    if (i >= 20 && i < 60) continue;
    expect.push_back(v[i]);
    if (i == 80)
      for (std::size_t j = 20; j < 60; ++j)
        if (j != 29) expect.push_back(v[j]);
    if (i == 80) expect.push_back(v[29]);
  }
  CHECK(om.invariants_hold());
  CHECK(contents(om, l) == expect);
  // The anchor inside the run: move_after(anchor, anchor) is a no-op, the rest follows it.
  order_maintenance om2;
  const list_id l2 = om2.create_list();
  const auto w = add_nodes(om2, 100);
  for (node_id n : w) om2.push_back(l2, n);
  std::vector<node_id> run2(w.begin(), w.begin() + 30);
  run2.insert(run2.begin() + 10, w[50]);
  om2.move_run_after(run2, w[50]);
  std::vector<node_id> expect2;
  for (std::size_t i = 30; i < 100; ++i) {
    if (i == 50) {
      for (std::size_t j = 0; j < 10; ++j) expect2.push_back(w[j]);
      expect2.push_back(w[50]);
      for (std::size_t j = 10; j < 30; ++j) expect2.push_back(w[j]);
      continue;
    }
    expect2.push_back(w[i]);
  }
  CHECK(om2.invariants_hold());
  CHECK(contents(om2, l2) == expect2);
}

TEST_CASE("move_run_after: groups the run holds whole are relinked, not rebuilt") {
  // 64 full groups of 64 (a list built by appending fills each group before the next).
  order_maintenance om;
  const list_id l = om.create_list();
  const auto v = add_nodes(om, 64 * 64);
  for (node_id n : v) om.push_back(l, n);
  REQUIRE(om.group_count() == 64);
  // Groups 10..19 whole, after the last node of group 40: no group is made or dropped.
  std::vector<node_id> run(v.begin() + 640, v.begin() + 1280);
  om.move_run_after(run, v[40 * 64 + 63]);
  std::vector<node_id> expect;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i >= 640 && i < 1280) continue;
    expect.push_back(v[i]);
    if (i == 40 * 64 + 63) expect.insert(expect.end(), run.begin(), run.end());
  }
  CHECK(om.invariants_hold());
  CHECK(contents(om, l) == expect);
  CHECK(contents_backwards(om, l) == expect);
  CHECK(om.group_count() == 64);
  check_sampled_order(om, expect, 5'000, 11u);
  // Half a group on each side of three whole ones, after a node inside a group: each half is
  // packed into a fresh group (before and after the whole ones), anchor's group is split at the
  // anchor (one group for its tail), the three whole groups stay, and the halves' old groups
  // keep their other halves.
  std::vector<node_id> run2(expect.begin() + 32, expect.begin() + 32 + 4 * 64);
  const node_id anchor = expect[3000];
  om.move_run_after(run2, anchor);
  std::vector<node_id> expect2;
  for (std::size_t i = 0; i < expect.size(); ++i) {
    if (i >= 32 && i < 32 + 4 * 64) continue;
    expect2.push_back(expect[i]);
    if (expect[i] == anchor) expect2.insert(expect2.end(), run2.begin(), run2.end());
  }
  CHECK(om.invariants_hold());
  CHECK(contents(om, l) == expect2);
  CHECK(contents_backwards(om, l) == expect2);
  CHECK(om.group_count() == 64 + 3);
  check_sampled_order(om, expect2, 5'000, 12u);
}

TEST_CASE("move_run_after: whole groups from another list, between detached and packed nodes") {
  order_maintenance om(order_maintenance_options{.group_capacity = 8});
  const list_id a = om.create_list(), b = om.create_list();
  const auto v = add_nodes(om, 200);
  for (std::size_t i = 0; i < 100; ++i) om.push_back(a, v[i]);
  for (std::size_t i = 100; i < 190; ++i) om.push_back(b, v[i]);
  // v[190..199] stay detached. The run: two detached nodes, 24 nodes of b (three whole groups
  // of 8), one detached node, 10 nodes of a, the rest of the detached ones.
  std::vector<node_id> run = {v[190], v[191]};
  run.insert(run.end(), v.begin() + 120, v.begin() + 144);
  run.push_back(v[192]);
  run.insert(run.end(), v.begin() + 3, v.begin() + 13);
  run.insert(run.end(), v.begin() + 193, v.end());
  om.move_run_after(run, v[50]);
  std::vector<node_id> expect_a, expect_b;
  for (std::size_t i = 0; i < 100; ++i) {
    if (i >= 3 && i < 13) continue;
    expect_a.push_back(v[i]);
    if (i == 50) expect_a.insert(expect_a.end(), run.begin(), run.end());
  }
  for (std::size_t i = 100; i < 190; ++i)
    if (i < 120 || i >= 144) expect_b.push_back(v[i]);
  CHECK(om.invariants_hold());
  CHECK(contents(om, a) == expect_a);
  CHECK(contents_backwards(om, a) == expect_a);
  CHECK(contents(om, b) == expect_b);
  CHECK(contents_backwards(om, b) == expect_b);
  CHECK(om.size(a) == expect_a.size());
  CHECK(om.size(b) == expect_b.size());
  for (node_id n : run) CHECK(om.list_of(n) == a);
  check_sampled_order(om, expect_a, 2'000, 13u);
}

namespace {

// Applies `run` after `anchor` one node at a time: the definition move_run_after must match.
void single_moves(order_maintenance& om, const std::vector<node_id>& run, node_id anchor) {
  node_id at = anchor;
  for (node_id n : run) {
    om.move_after(n, at);
    at = n;
  }
}

}  // namespace

TEST_CASE("move_run_after: a node of a whole group met again, before or after it, gives single moves' outcome") {
  // A list of full groups of 8; group k holds v[8k .. 8k + 7].
  auto fresh = [](order_maintenance& om, std::vector<node_id>& v) {
    const list_id l = om.create_list();
    v = add_nodes(om, 160);
    for (node_id n : v) om.push_back(l, n);
    return l;
  };
  struct shape {
    const char* what;
    std::vector<std::size_t> run;  // indexes into v
  };
  auto range = [](std::size_t from, std::size_t to) {
    std::vector<std::size_t> r;
    for (std::size_t i = from; i < to; ++i) r.push_back(i);
    return r;
  };
  auto cat = [](std::vector<std::size_t> x, const std::vector<std::size_t>& y) {
    x.insert(x.end(), y.begin(), y.end());
    return x;
  };
  const std::vector<shape> shapes = {
      {"after it", cat(range(16, 40), {20})},
      {"before it, alone", cat({20}, range(16, 40))},
      {"before it, as the start of the group", cat(range(60, 64), cat(range(16, 40), {16}))},
      {"before it, at the end of a stretch that runs into the group", cat(range(12, 17), range(16, 40))},
      {"the same group twice", cat(range(16, 24), range(16, 24))},
      {"the anchor's group, held whole but for the anchor", cat(range(96, 100), range(101, 104))},
  };
  for (const std::uint32_t cap : {8u, 64u}) {
    for (const shape& sh : shapes) {
      CAPTURE(cap);
      CAPTURE(sh.what);
      order_maintenance om(order_maintenance_options{.group_capacity = cap}), twin(order_maintenance_options{.group_capacity = cap});
      std::vector<node_id> v, w;
      const list_id l = fresh(om, v);
      fresh(twin, w);
      std::vector<node_id> run;
      for (std::size_t i : sh.run) run.push_back(v[i]);
      om.move_run_after(run, v[100]);
      single_moves(twin, run, w[100]);
      CHECK(om.invariants_hold());
      CHECK(contents(om, l) == contents(twin, l));
      CHECK(contents_backwards(om, l) == contents(twin, l));
    }
  }
}

TEST_CASE("move_run_after: random runs of list stretches match single moves") {
  for (const std::uint32_t cap : {2u, 4u, 8u, 64u}) {
    CAPTURE(cap);
    std::mt19937 rng(977u + cap);
    auto uniform = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
    order_maintenance om(order_maintenance_options{.group_capacity = cap}), twin(order_maintenance_options{.group_capacity = cap});
    constexpr std::size_t lists = 3, nodes = 3000;
    for (std::size_t k = 0; k < lists; ++k) {
      om.create_list();
      twin.create_list();
    }
    add_nodes(om, nodes);
    add_nodes(twin, nodes);
    for (node_id n = 0; n < nodes - 50; ++n) {  // the last 50 start detached
      om.push_back(static_cast<list_id>(n % lists), n);
      twin.push_back(static_cast<list_id>(n % lists), n);
    }
    for (int step = 0; step < 400; ++step) {
      CAPTURE(step);
      // The run: 1-6 stretches of 1-300 nodes that follow each other in some list (often
      // whole groups), detached nodes between them, sometimes a node repeated or the anchor.
      std::vector<node_id> attached_nodes;
      for (list_id k = 0; k < lists; ++k)
        for (node_id n : om.nodes(k)) attached_nodes.push_back(n);
      const node_id anchor = attached_nodes[uniform(attached_nodes.size())];
      std::vector<node_id> run;
      std::vector<char> in_run(nodes, 0);
      const std::size_t stretches = 1 + uniform(6);
      for (std::size_t s = 0; s < stretches; ++s) {
        const std::size_t len = 1 + uniform(300);
        std::size_t taken = 0;
        for (node_id x = attached_nodes[uniform(attached_nodes.size())]; x != npos && taken < len; x = om.next(x)) {
          if (x == anchor || in_run[x]) break;
          run.push_back(x);
          in_run[x] = 1;
          ++taken;
        }
        const node_id d = static_cast<node_id>(uniform(nodes));
        if (!om.attached(d) && !in_run[d]) {
          run.push_back(d);
          in_run[d] = 1;
        }
      }
      if (run.empty()) continue;
      const std::size_t twist = uniform(10);
      if (twist == 0) run.push_back(run[uniform(run.size())]);
      if (twist == 1) run.insert(run.begin() + static_cast<std::ptrdiff_t>(uniform(run.size())), run[uniform(run.size())]);
      if (twist == 2) run.insert(run.begin() + static_cast<std::ptrdiff_t>(uniform(run.size())), anchor);
      om.move_run_after(run, anchor);
      single_moves(twin, run, anchor);
      // Detach a few nodes now and then, so that detached nodes keep coming.
      if (step % 7 == 0)
        for (int k = 0; k < 5; ++k) {
          const node_id d = attached_nodes[uniform(attached_nodes.size())];
          if (om.attached(d) && d != anchor) {
            om.detach(d);
            twin.detach(d);
          }
        }
      REQUIRE(om.invariants_hold());
      for (list_id k = 0; k < lists; ++k) {
        REQUIRE(contents(om, k) == contents(twin, k));
        REQUIRE(contents_backwards(om, k) == contents(twin, k));
        REQUIRE(om.size(k) == twin.size(k));
      }
      if (step % 50 == 0)
        for (list_id k = 0; k < lists; ++k)
          if (!om.empty(k)) check_sampled_order(om, contents(twin, k), 500, static_cast<std::uint32_t>(step));
    }
  }
}

// ---- adversarial patterns ------------------------------------------------------------------

TEST_CASE("always inserting at the front") {
  for (const std::uint32_t cap : {64u, 2u}) {
    CAPTURE(cap);
    order_maintenance om(order_maintenance_options{.group_capacity = cap});
    const list_id l = om.create_list();
    constexpr std::size_t count = 100'000;
    const auto v = add_nodes(om, count);
    for (node_id n : v) om.push_front(l, n);
    std::vector<node_id> expected(v.rbegin(), v.rend());
    CHECK(om.invariants_hold());
    CHECK(contents(om, l) == expected);
    check_sampled_order(om, expected, 20'000, cap);
    // Built by edge inserts, groups stay full.
    CHECK(om.group_count() == (count + cap - 1) / cap);
  }
}

TEST_CASE("always inserting after one node and before another (gap halving from both sides)") {
  for (const std::uint32_t cap : {64u, 2u, 7u}) {
    CAPTURE(cap);
    order_maintenance om(order_maintenance_options{.group_capacity = cap});
    const list_id l = om.create_list();
    constexpr std::size_t count = 50'000;
    const auto v = add_nodes(om, 2 * count + 2);
    // Two fixed anchors in the middle of one list: insert right after the left one and right
    // before the right one, so both sides of the same gap are halved over and over.
    om.push_back(l, v[0]);
    om.push_back(l, v[1]);
    for (std::size_t i = 0; i < count; ++i) {
      om.insert_after(v[2 + 2 * i], v[0]);
      om.insert_before(v[3 + 2 * i], v[1]);
    }
    std::vector<node_id> expected{v[0]};
    for (std::size_t i = count; i-- > 0;) expected.push_back(v[2 + 2 * i]);
    for (std::size_t i = 0; i < count; ++i) expected.push_back(v[3 + 2 * i]);
    expected.push_back(v[1]);
    CHECK(om.invariants_hold());
    CHECK(contents(om, l) == expected);
    check_sampled_order(om, expected, 20'000, cap + 1);
  }
}

TEST_CASE("alternating moves of the first node to the end") {
  for (const std::uint32_t cap : {64u, 3u}) {
    CAPTURE(cap);
    order_maintenance om(order_maintenance_options{.group_capacity = cap});
    const list_id l = om.create_list();
    constexpr std::size_t count = 1000;
    std::vector<node_id> expected = add_nodes(om, count);
    for (node_id n : expected) om.push_back(l, n);
    for (std::size_t step = 0; step < 100'000; ++step) {
      if (step % 3 == 2) {
        om.move_before(om.last(l), om.first(l));  // and back again, now and then
        std::rotate(expected.rbegin(), expected.rbegin() + 1, expected.rend());
      } else {
        om.move_after(om.first(l), om.last(l));
        std::rotate(expected.begin(), expected.begin() + 1, expected.end());
      }
      if (step % 10'007 == 0) {
        REQUIRE(om.invariants_hold());
        REQUIRE(contents(om, l) == expected);
      }
    }
    CHECK(om.invariants_hold());
    CHECK(contents(om, l) == expected);
    check_sampled_order(om, expected, 20'000, cap + 2);
    // Emptied groups are recycled rather than leaked.
    CHECK(om.group_count() <= count);
  }
}

TEST_CASE("a 1M-node list built by inserting after one anchor") {
  order_maintenance om;
  const list_id l = om.create_list();
  constexpr std::size_t count = 1'000'000;
  om.reserve_nodes(count);
  const auto v = add_nodes(om, count);
  om.push_back(l, v[0]);
  for (std::size_t i = 1; i < count; ++i) om.insert_after(v[i], v[0]);
  // Final order: v[0], v[count-1], ..., v[1].
  std::vector<node_id> expected{v[0]};
  for (std::size_t i = count; i-- > 1;) expected.push_back(v[i]);
  CHECK(om.size(l) == count);
  CHECK(om.first(l) == v[0]);
  CHECK(om.last(l) == v[1]);
  CHECK(om.next(v[0]) == v[count - 1]);
  CHECK(om.invariants_hold());
  check_sampled_order(om, expected, 100'000, 7u);
}

}  // TEST_SUITE
