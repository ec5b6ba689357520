// Tests for neuronrw/algorithms/walk.hpp, the one region walker, on the archetype of the layer the
// walker documents (ordered_ir: ops and regions, nothing else): exact visit sequences in pre- and
// post-order from a block and inside an op, skip, interrupt, the descend predicate (and when it
// is asked), visitors by value and by reference, rewriting while walking (moves in pre-order on
// a reschedulable archetype, erasure in post-order on an outlinable one), and nesting deep enough
// that a recursive walk would exhaust the call stack. Uses nothing that throws.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <neuronrw/algorithms/walk.hpp>

#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;
namespace a = neuronrw::archetype;

// Failing comparisons print the sequences.
template <>
struct doctest::StringMaker<std::vector<std::string>> {
  static doctest::String convert(const std::vector<std::string>& v) {
    std::string s = "{";
    for (const auto& x : v) s += (s.size() > 1 ? ", " : "") + x;
    return (s + "}").c_str();
  }
};

namespace {

using strings = std::vector<std::string>;
using nr::walk_action;
using nr::walk_order;

// The walker needs ordered_ir; the archetype of that layer has nothing more.
using ordered = a::ir_at<a::layer::ordered>;
static_assert(nr::ordered_ir<ordered> && !nr::reschedulable_ir<ordered> && !nr::indexed_ir<ordered>);

/// Ops are named "t.<label>"; labels identify them in expectations.
template <class G>
struct program {
  G g;
  a::op_h f;
  int body = -1;
  program() {
    auto [fn, b] = g.add_function("f", {});
    f = fn;
    body = b;
  }
  a::op_h op(int block, const std::string& label) { return g.add(block, "t." + label, {}); }
  std::string label(a::op_h o) const {
    const auto& n = g.op(o).name;
    return n.rfind("t.", 0) == 0 ? n.substr(2) : g.op(o).symbol;
  }
  a::op_h find(const std::string& label) const {
    for (std::size_t i = 0; i < g.ops.size(); ++i)
      if (g.ops[i].name == "t." + label) return {static_cast<int>(i)};
    return {};
  }
  strings order(int block) const {
    strings r;
    for (int o : g.block_ops(block)) r.push_back(label(a::op_h{o}));
    return r;
  }
};

/// body:
///   a
///   b { b1, b2 { b21, b22 }, b3 }
///   c { c1 } { } { c3a, c3b { c3b1 } }     three regions, the middle one empty
///   d
template <class G>
program<G> sample() {
  program<G> p;
  p.op(p.body, "a");
  auto b = p.op(p.body, "b");
  const int rb = p.g.add_region(b);
  p.op(rb, "b1");
  auto b2 = p.op(rb, "b2");
  const int rb2 = p.g.add_region(b2);
  p.op(rb2, "b21");
  p.op(rb2, "b22");
  p.op(rb, "b3");
  auto c = p.op(p.body, "c");
  const int rc1 = p.g.add_region(c);
  p.g.add_region(c);
  const int rc3 = p.g.add_region(c);
  p.op(rc1, "c1");
  p.op(rc3, "c3a");
  auto c3b = p.op(rc3, "c3b");
  p.op(p.g.add_region(c3b), "c3b1");
  p.op(p.body, "d");
  return p;
}

const strings pre_all{"a", "b", "b1", "b2", "b21", "b22", "b3", "c", "c1", "c3a", "c3b", "c3b1", "d"};
const strings post_all{"a", "b1", "b21", "b22", "b2", "b3", "b", "c1", "c3a", "c3b1", "c3b", "c", "d"};

/// Labels of the ops `walk<Order>` visits from `block`, with an optional action per label.
template <walk_order Order, class P, class Action>
strings visited_from(const P& p, int block, Action action, bool* completed = nullptr) {
  strings seen;
  const bool done = nr::walk<Order>(p.g, a::block_h{block}, [&](a::op_h o) {
    seen.push_back(p.label(o));
    return action(seen.back());
  });
  if (completed) *completed = done;
  return seen;
}

walk_action advance(const std::string&) { return walk_action::advance; }

}  // namespace

TEST_CASE("pre-order: an op before the ops nested in it; siblings in block order, regions in order") {
  const auto p = sample<ordered>();
  bool done = false;
  CHECK(visited_from<walk_order::pre>(p, p.body, advance, &done) == pre_all);
  CHECK(done);
  // From the module body the function op comes first.
  strings with_f{"f"};
  with_f.insert(with_f.end(), pre_all.begin(), pre_all.end());
  CHECK(visited_from<walk_order::pre>(p, 0, advance) == with_f);
}

TEST_CASE("post-order: the ops nested in an op before the op") {
  const auto p = sample<ordered>();
  bool done = false;
  CHECK(visited_from<walk_order::post>(p, p.body, advance, &done) == post_all);
  CHECK(done);
  strings with_f = post_all;
  with_f.push_back("f");
  CHECK(visited_from<walk_order::post>(p, 0, advance) == with_f);
}

TEST_CASE("the default order is pre-order; a visitor returning void visits everything") {
  const auto p = sample<ordered>();
  strings seen;
  CHECK(nr::walk(p.g, a::block_h{p.body}, [&](a::op_h o) { seen.push_back(p.label(o)); }));
  CHECK(seen == pre_all);
}

TEST_CASE("walk_inside: the ops nested in an op, not the op itself") {
  const auto p = sample<ordered>();
  auto inside = [&](const std::string& root, auto order) {
    strings seen;
    constexpr walk_order o = decltype(order)::value;
    const bool done = nr::walk_inside<o>(p.g, p.find(root), [&](a::op_h x) { seen.push_back(p.label(x)); });
    CHECK(done);
    return seen;
  };
  using pre = std::integral_constant<walk_order, walk_order::pre>;
  using post = std::integral_constant<walk_order, walk_order::post>;
  CHECK(inside("b", pre{}) == strings{"b1", "b2", "b21", "b22", "b3"});
  CHECK(inside("b", post{}) == strings{"b1", "b21", "b22", "b2", "b3"});
  CHECK(inside("c", pre{}) == strings{"c1", "c3a", "c3b", "c3b1"});
  CHECK(inside("c", post{}) == strings{"c1", "c3a", "c3b1", "c3b"});
  CHECK(inside("b2", pre{}) == strings{"b21", "b22"});
  CHECK(inside("a", pre{}).empty());  // no regions
  CHECK(inside("a", post{}).empty());
  // walk_inside of the function op = walk of its body.
  strings fn;
  nr::walk_inside(p.g, p.f, [&](a::op_h x) { fn.push_back(p.label(x)); });
  CHECK(fn == pre_all);
}

TEST_CASE("an empty block: nothing visited, the walk completes") {
  program<ordered> p;
  int calls = 0;
  CHECK(nr::walk(p.g, a::block_h{p.body}, [&](a::op_h) { ++calls; }));
  CHECK(nr::walk<walk_order::post>(p.g, a::block_h{p.body}, [&](a::op_h) { ++calls; }));
  CHECK(calls == 0);
}

TEST_CASE("skip: pre-order does not enter the op's regions and goes on with its siblings") {
  const auto p = sample<ordered>();
  auto skip_b2_and_c = [](const std::string& l) { return l == "b2" || l == "c" ? walk_action::skip : walk_action::advance; };
  bool done = false;
  CHECK(visited_from<walk_order::pre>(p, p.body, skip_b2_and_c, &done) ==
        strings{"a", "b", "b1", "b2", "b3", "c", "d"});
  CHECK(done);  // skipping is not interrupting
  // Post-order has already visited the nested ops when it reaches an op: skip means nothing there.
  CHECK(visited_from<walk_order::post>(p, p.body, skip_b2_and_c, &done) == post_all);
  CHECK(done);
}

TEST_CASE("interrupt: the walk stops at once and reports it") {
  const auto p = sample<ordered>();
  auto stop_at = [](std::string label) {
    return [label](const std::string& l) { return l == label ? walk_action::interrupt : walk_action::advance; };
  };
  bool done = true;
  CHECK(visited_from<walk_order::pre>(p, p.body, stop_at("b21"), &done) == strings{"a", "b", "b1", "b2", "b21"});
  CHECK_FALSE(done);
  // Post-order: interrupted at b2, the op holding it (b) is never visited.
  done = true;
  CHECK(visited_from<walk_order::post>(p, p.body, stop_at("b2"), &done) == strings{"a", "b1", "b21", "b22", "b2"});
  CHECK_FALSE(done);
  // Interrupting at the very last op still reports the interruption.
  done = true;
  CHECK(visited_from<walk_order::pre>(p, p.body, stop_at("d"), &done) == pre_all);
  CHECK_FALSE(done);
  done = true;
  CHECK(visited_from<walk_order::post>(p, p.body, stop_at("d"), &done) == post_all);
  CHECK_FALSE(done);
  // Interrupting inside walk_inside.
  strings seen;
  CHECK_FALSE(nr::walk_inside<walk_order::post>(p.g, p.find("c"), [&](a::op_h o) {
    seen.push_back(p.label(o));
    return p.label(o) == "c3b1" ? walk_action::interrupt : walk_action::advance;
  }));
  CHECK(seen == strings{"c1", "c3a", "c3b1"});
}

TEST_CASE("descend: ops it refuses are visited, their nested ops are not; asked once per op") {
  const auto p = sample<ordered>();
  for (const walk_order order : {walk_order::pre, walk_order::post}) {
    CAPTURE(static_cast<int>(order));
    strings seen, asked;
    auto visit = [&](a::op_h o) { seen.push_back(p.label(o)); };
    auto descend = [&](a::op_h o) {
      asked.push_back(p.label(o));
      return p.label(o) != "b2" && p.label(o) != "c";
    };
    const bool done = order == walk_order::pre ? nr::walk<walk_order::pre>(p.g, a::block_h{p.body}, visit, descend)
                                               : nr::walk<walk_order::post>(p.g, a::block_h{p.body}, visit, descend);
    CHECK(done);
    CHECK(seen == (order == walk_order::pre ? strings{"a", "b", "b1", "b2", "b3", "c", "d"}
                                            : strings{"a", "b1", "b2", "b3", "b", "c", "d"}));
    // Asked at most once per op, about every op with regions the walk reached, before entering
    // it (so in pre-order's visiting order), and never about an op inside a refused one.
    strings asked_with_regions;
    for (auto& l : asked) {
      CHECK(std::count(asked.begin(), asked.end(), l) == 1);
      if (!p.g.op(p.find(l)).regions.empty()) asked_with_regions.push_back(l);
    }
    CHECK(asked_with_regions == strings{"b", "b2", "c"});
    for (auto& never : {"b21", "b22", "c1", "c3a", "c3b", "c3b1"})
      CHECK(std::count(asked.begin(), asked.end(), std::string(never)) == 0);
  }
}

TEST_CASE("descend in walk_inside: the root is always entered and never asked about") {
  const auto p = sample<ordered>();
  strings seen, asked;
  CHECK(nr::walk_inside(
      p.g, p.find("c"), [&](a::op_h o) { seen.push_back(p.label(o)); },
      [&](a::op_h o) {
        asked.push_back(p.label(o));
        return false;
      }));
  CHECK(seen == strings{"c1", "c3a", "c3b"});
  CHECK(std::count(asked.begin(), asked.end(), std::string("c")) == 0);
  CHECK(std::count(asked.begin(), asked.end(), std::string("c3b")) == 1);
}

TEST_CASE("skip wins over descend: a skipped op's regions are not entered, and descend is not asked") {
  const auto p = sample<ordered>();
  strings seen, asked;
  CHECK(nr::walk(
      p.g, a::block_h{p.body},
      [&](a::op_h o) {
        seen.push_back(p.label(o));
        return p.label(o) == "b" ? walk_action::skip : walk_action::advance;
      },
      [&](a::op_h o) {
        asked.push_back(p.label(o));
        return true;
      }));
  CHECK(seen == strings{"a", "b", "c", "c1", "c3a", "c3b", "c3b1", "d"});
  CHECK(std::count(asked.begin(), asked.end(), std::string("b")) == 0);
}

namespace {
/// A stateful visitor: passed as an lvalue, the walk uses it in place, not a copy.
struct counter {
  int ops = 0;
  int stop_after = -1;
  walk_action operator()(a::op_h) {
    ++ops;
    return ops == stop_after ? walk_action::interrupt : walk_action::advance;
  }
};
}  // namespace

TEST_CASE("a visitor passed by reference keeps its state") {
  const auto p = sample<ordered>();
  counter c;
  CHECK(nr::walk<walk_order::post>(p.g, a::block_h{p.body}, c));
  CHECK(c.ops == 13);
  counter limited{0, 4};
  CHECK_FALSE(nr::walk(p.g, a::block_h{p.body}, limited));
  CHECK(limited.ops == 4);
}

TEST_CASE("pre-order visit may move the op it was given: every op is still visited once") {
  // `late*` ops move to the end of their block as they are visited (a reschedulable archetype).
  using G = a::ir_at<a::layer::reschedulable>;
  program<G> p;
  p.op(p.body, "late1");
  auto x = p.op(p.body, "x");
  const int rx = p.g.add_region(x);
  p.op(rx, "late2");
  p.op(rx, "y");
  p.op(rx, "z");
  p.op(p.body, "w");
  strings seen;
  CHECK(nr::walk(p.g, a::block_h{p.body}, [&](a::op_h o) {
    seen.push_back(p.label(o));
    if (p.label(o).rfind("late", 0) == 0) {
      const auto& ops = p.g.block_ops(p.g.op(o).block);
      nr::ir::move_after(p.g, o, a::op_h{ops.back()});
    }
  }));
  CHECK(seen == strings{"late1", "x", "late2", "y", "z", "w"});
  CHECK(p.order(p.body) == strings{"x", "w", "late1"});
  CHECK(p.order(rx) == strings{"y", "z", "late2"});
}

TEST_CASE("post-order visit may erase the op it was given, nested dead ops first") {
  using G = a::ir_at<a::layer::outlinable>;
  program<G> p;
  p.op(p.body, "keep1");
  auto dead = p.op(p.body, "dead_outer");
  const int rd = p.g.add_region(dead);
  p.op(rd, "dead_inner");
  p.op(rd, "keep_inner");
  auto k2 = p.op(p.body, "keep2");
  const int rk = p.g.add_region(k2);
  p.op(rk, "dead_in_keep");
  p.op(rk, "keep3");
  strings erased;
  CHECK(nr::walk<walk_order::post>(p.g, a::block_h{p.body}, [&](a::op_h o) {
    if (p.label(o).rfind("dead", 0) == 0) {
      erased.push_back(p.label(o));
      nr::ir::erase_op(p.g, o);
    }
  }));
  CHECK(erased == strings{"dead_inner", "dead_outer", "dead_in_keep"});
  CHECK(p.order(p.body) == strings{"keep1", "keep2"});
  CHECK(p.order(rk) == strings{"keep3"});
}

TEST_CASE("nesting deeper than a recursive walk could go: an explicit stack") {
  // 200k levels: op i holds op i+1 in its one region. A recursive walker with a few hundred
  // bytes per frame would need far more than a default 8 MiB stack.
  constexpr int depth = 200'000;
  program<ordered> p;
  p.g.ops.reserve(depth + 2);
  p.g.blocks.reserve(depth + 3);
  int block = p.body;
  for (int i = 0; i < depth; ++i) {
    auto o = p.g.add(block, "t.n", {});
    block = p.g.add_region(o);
  }
  std::vector<int> pre, post;
  pre.reserve(depth);
  post.reserve(depth);
  CHECK(nr::walk(p.g, a::block_h{p.body}, [&](a::op_h o) { pre.push_back(o.id); }));
  CHECK(nr::walk<walk_order::post>(p.g, a::block_h{p.body}, [&](a::op_h o) { post.push_back(o.id); }));
  REQUIRE(pre.size() == static_cast<std::size_t>(depth));
  REQUIRE(post.size() == static_cast<std::size_t>(depth));
  // Pre-order goes down (ids increase with depth), post-order comes back up.
  bool pre_down = true, post_up = true;
  for (std::size_t i = 1; i < pre.size(); ++i) {
    pre_down = pre_down && pre[i] == pre[i - 1] + 1;
    post_up = post_up && post[i] == post[i - 1] - 1;
  }
  CHECK(pre_down);
  CHECK(post_up);
  CHECK(pre.front() == post.back());
}

// ============================================================================== read_walk
// walk<pre> for visitors that change nothing: the same visits, reading each op once.

TEST_CASE("read_walk: the same visits as pre-order walk, with skip, interrupt and descend") {
  const auto p = sample<ordered>();
  auto labels_of = [&](auto&& run) {
    strings seen;
    const bool done = run([&](a::op_h o) {
      seen.push_back(p.label(o));
      return seen.back();
    });
    return std::pair{seen, done};
  };
  using action_of = walk_action (*)(const std::string&);
  const action_of actions[] = {
      [](const std::string&) { return walk_action::advance; },
      [](const std::string& l) { return l == "b2" || l == "c" ? walk_action::skip : walk_action::advance; },
      [](const std::string& l) { return l == "b21" ? walk_action::interrupt : walk_action::advance; },
      [](const std::string& l) { return l == "d" ? walk_action::interrupt : walk_action::advance; },
      [](const std::string& l) { return l == "c3b1" ? walk_action::interrupt : walk_action::advance; },
  };
  for (const int root : {p.body, 0}) {
    for (std::size_t i = 0; i < std::size(actions); ++i) {
      CAPTURE(root);
      CAPTURE(i);
      auto act = actions[i];
      auto [walked, walk_done] = labels_of([&](auto label) {
        return nr::walk<walk_order::pre>(p.g, a::block_h{root}, [&](a::op_h o) { return act(label(o)); });
      });
      auto [read, read_done] = labels_of([&](auto label) {
        return nr::read_walk(p.g, a::block_h{root}, [&](a::op_h o) { return act(label(o)); });
      });
      CHECK(read == walked);
      CHECK(read_done == walk_done);
    }
    // descend: asked once per op reached, in the same order as walk asks.
    strings asked_walk, asked_read, seen_walk, seen_read;
    auto refuse = [](const std::string& l) { return l != "b2" && l != "c"; };
    CHECK(nr::walk<walk_order::pre>(
        p.g, a::block_h{root}, [&](a::op_h o) { seen_walk.push_back(p.label(o)); },
        [&](a::op_h o) {
          asked_walk.push_back(p.label(o));
          return refuse(asked_walk.back());
        }));
    CHECK(nr::read_walk(
        p.g, a::block_h{root}, [&](a::op_h o) { seen_read.push_back(p.label(o)); },
        [&](a::op_h o) {
          asked_read.push_back(p.label(o));
          return refuse(asked_read.back());
        }));
    CHECK(seen_read == seen_walk);
    CHECK(asked_read == asked_walk);
  }
  // The exact sequence once more, spelled out.
  auto [all, done] = labels_of([&](auto label) {
    return nr::read_walk(p.g, a::block_h{p.body}, [&](a::op_h o) { label(o); });
  });
  CHECK(all == pre_all);
  CHECK(done);
  program<ordered> empty;
  CHECK(nr::read_walk(empty.g, a::block_h{empty.body}, [&](a::op_h) { FAIL("visited an op of an empty block"); }));
}

TEST_CASE("read_walk: nesting deeper than a recursive walk could go, a sibling after each level") {
  // 200k levels, as for walk above, each level's op followed by a sibling: pre-order goes down
  // through the first ops, then comes back visiting the siblings from the deepest up.
  constexpr int depth = 200'000;
  program<ordered> p;
  p.g.ops.reserve(2 * depth + 2);
  p.g.blocks.reserve(depth + 3);
  int block = p.body;
  std::vector<int> down, up;
  for (int i = 0; i < depth; ++i) {
    auto o = p.g.add(block, "t.n", {});
    down.push_back(o.id);
    const int inner = p.g.add_region(o);
    up.push_back(p.g.add(block, "t.s", {}).id);
    block = inner;
  }
  std::vector<int> seen;
  seen.reserve(2 * depth);
  CHECK(nr::read_walk(p.g, a::block_h{p.body}, [&](a::op_h o) { seen.push_back(o.id); }));
  std::vector<int> expect = down;
  expect.insert(expect.end(), up.rbegin(), up.rend());
  CHECK(seen == expect);
  std::vector<int> walked;
  walked.reserve(2 * depth);
  CHECK(nr::walk(p.g, a::block_h{p.body}, [&](a::op_h o) { walked.push_back(o.id); }));
  CHECK(walked == expect);
}
