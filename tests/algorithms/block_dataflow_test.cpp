// for_each_producer_in_block / for_each_consumer_in_block (and the vector forms) on the reference
// IR and the archetype IR, nested-region uses included.
#include <doctest/doctest.h>

#include <algorithm>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "algorithms/block_program.hpp"
#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;
using block_test::program;
using block_test::strings;

namespace {

constexpr const char* nested_text = R"(
  a = foo.a %0
  b = foo.b a %0
  c = foo.c a b
  r = foo.region b {
    i = foo.use a
    j = foo.region2 i {
      k = foo.use c
    }
    l = foo.use i
  }
  d = foo.d r a
  ret = func.return d
)";

template <class G>
nr::block_handle_t<G> region_of(const program<G>& p, std::string_view label) {
  auto rs = nr::ir::regions(p.g, p[label]);
  return *std::ranges::begin(rs);
}

strings sorted(strings v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE_TEMPLATE("producers in a block count nested uses for their ancestor", G, nr::ref::module,
                   nr::archetype::ir) {
  program<G> p(nested_text);
  auto prod = [&](const char* op) { return p.labels(nr::producers_in_block(p.g, p[op], p.body)); };
  CHECK(prod("a") == strings{});  // block arguments have no producer
  CHECK(prod("b") == strings{"a"});
  CHECK(prod("c") == strings{"a", "b"});
  // r's own operand, then the nested ops in order: i uses a, k (two levels down) uses c; the
  // uses of i (defined inside r) resolve to r itself and are dropped.
  CHECK(prod("r") == strings{"b", "a", "c"});
  CHECK(prod("d") == strings{"r", "a"});
  CHECK(prod("ret") == strings{"d"});

  // Inside r's region: c is outside that block (no ancestor there), i is a sibling.
  auto rb = region_of(p, "r");
  CHECK(p.labels(nr::producers_in_block(p.g, p["j"], rb)) == strings{"i"});
  CHECK(p.labels(nr::producers_in_block(p.g, p["l"], rb)) == strings{"i"});
}

TEST_CASE_TEMPLATE("consumers in a block count nested users for their ancestor", G, nr::ref::module,
                   nr::archetype::ir) {
  program<G> p(nested_text);
  auto cons = [&](const char* op) { return sorted(p.labels(nr::consumers_in_block(p.g, p[op], p.body))); };
  CHECK(cons("a") == strings{"b", "c", "d", "r"});
  CHECK(cons("b") == strings{"c", "r"});
  CHECK(cons("c") == strings{"r"});  // through k, two regions down
  CHECK(cons("r") == strings{"d"});
  CHECK(cons("d") == strings{"ret"});
  CHECK(cons("ret") == strings{});

  auto rb = region_of(p, "r");
  CHECK(sorted(p.labels(nr::consumers_in_block(p.g, p["i"], rb))) == strings{"j", "l"});
  // i's users j and l are in rb, not in the body: the body has no ancestor... except r itself,
  // which is i's own ancestor and therefore excluded when asking about r.
  CHECK(p.labels(nr::consumers_in_block(p.g, p["j"], rb)) == strings{});
}

TEST_CASE_TEMPLATE("callbacks see one call per use and can stop early", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    a = foo.a %0
    b = foo.b %0
    x = foo.x a a b
    y = foo.y x
    z = foo.z x
  )");
  using op = nr::op_handle_t<G>;
  strings seen;
  CHECK(nr::for_each_producer_in_block(p.g, p["x"], p.body, [&](op o) { seen.push_back(p.label(o)); }));
  CHECK(seen == strings{"a", "a", "b"});
  CHECK(p.labels(nr::producers_in_block(p.g, p["x"], p.body)) == strings{"a", "b"});

  seen.clear();
  CHECK_FALSE(nr::for_each_producer_in_block(p.g, p["x"], p.body, [&](op o) {
    seen.push_back(p.label(o));
    return false;
  }));
  CHECK(seen == strings{"a"});

  int calls = 0;
  CHECK_FALSE(nr::for_each_consumer_in_block(p.g, p["x"], p.body, [&](op) { return ++calls < 1; }));
  CHECK(calls == 1);
  calls = 0;
  CHECK(nr::for_each_consumer_in_block(p.g, p["x"], p.body, [&](op) { ++calls; }));
  CHECK(calls == 2);
}

TEST_CASE_TEMPLATE("a callback that stops inside a nested region stops the whole enumeration", G, nr::ref::module,
                   nr::archetype::ir) {
  // r's producers in order: b (its own operand), then a (i, one level down), then c (k, two
  // levels down). The nested ones come through the type-erased path (nested_producers).
  program<G> p(nested_text);
  using op = nr::op_handle_t<G>;
  for (const auto& stop : {std::pair<std::string, strings>{"a", {"b", "a"}}, {"c", {"b", "a", "c"}}}) {
    strings seen;
    CHECK_FALSE(nr::for_each_producer_in_block(p.g, p["r"], p.body, [&](op o) {
      seen.push_back(p.label(o));
      return p.label(o) != stop.first;
    }));
    CHECK(seen == stop.second);
  }
  // A callback that never stops sees all three and the enumeration reports completion, whether
  // it returns bool or nothing.
  strings all;
  CHECK(nr::for_each_producer_in_block(p.g, p["r"], p.body, [&](op o) {
    all.push_back(p.label(o));
    return true;
  }));
  CHECK(all == strings{"b", "a", "c"});
  all.clear();
  CHECK(nr::for_each_producer_in_block(p.g, p["r"], p.body, [&](op o) { all.push_back(p.label(o)); }));
  CHECK(all == strings{"b", "a", "c"});
}

TEST_CASE_TEMPLATE("randomized: producers and consumers are inverse relations", G, nr::ref::module,
                   nr::archetype::ir) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 40; ++round) {
    program<G> p(block_test::random_program(rng, 30));
    for (auto&& x : nr::ir::ops(p.g, p.body)) {
      for (auto&& y : nr::producers_in_block(p.g, x, p.body)) {
        auto c = nr::consumers_in_block(p.g, y, p.body);
        CHECK(std::find(c.begin(), c.end(), x) != c.end());
        CHECK(nr::ir::is_before_in_block(p.g, y, x));
      }
      for (auto&& y : nr::consumers_in_block(p.g, x, p.body)) {
        auto pr = nr::producers_in_block(p.g, y, p.body);
        CHECK(std::find(pr.begin(), pr.end(), x) != pr.end());
      }
    }
  }
}

TEST_CASE_TEMPLATE("first_producer_in: the first producer a set of block ops holds, nested uses included", G,
                   nr::ref::module, nr::archetype::ir) {
  program<G> p(nested_text);
  auto first = [&](const char* op, std::initializer_list<const char*> marked, nr::block_handle_t<G> b) {
    nr::op_set<G> marks(p.g);
    for (const char* m : marked) marks.insert(p[m]);
    const auto f = nr::first_producer_in(p.g, p[op], b, marks);
    return nr::ir::is_null<G>(f) ? std::string("-") : p.label(f);
  };
  // r's producers in order are b (its operand), a (i, one level down), c (k, two levels down).
  CHECK(first("r", {}, p.body) == "-");
  CHECK(first("r", {"a", "b", "c"}, p.body) == "b");
  CHECK(first("r", {"c", "a"}, p.body) == "a");
  CHECK(first("r", {"c"}, p.body) == "c");
  CHECK(first("r", {"d"}, p.body) == "-");  // a consumer, not a producer
  CHECK(first("d", {"r"}, p.body) == "r");
  CHECK(first("ret", {"r", "a"}, p.body) == "-");
  // In r's region: i's operand a lies outside the region's block, as do the uses of c below j;
  // a set of that block's ops never holds them, so they are never reported.
  const auto rb = region_of(p, "r");
  CHECK(first("i", {"j", "l"}, rb) == "-");
  CHECK(first("j", {"i"}, rb) == "i");
  CHECK(first("l", {"i", "j"}, rb) == "i");
}

TEST_CASE_TEMPLATE("insert_producers: producers(op in block), plus nothing of the block that is not one", G,
                   nr::ref::module, nr::archetype::ir) {
  program<G> p(nested_text);
  nr::op_set<G> marks(p.g);
  nr::insert_producers(p.g, p["r"], p.body, marks);
  strings in_body;
  for (auto&& o : nr::ir::ops(p.g, p.body))
    if (marks.contains(o)) in_body.push_back(p.label(o));
  CHECK(in_body == strings{"a", "b", "c"});
  CHECK_FALSE(marks.contains(p["i"]));  // nested in r: counted for r, which is excluded
  CHECK_FALSE(marks.contains(p["k"]));
}

TEST_CASE_TEMPLATE("randomized: first_producer_in and insert_producers agree with for_each_producer_in_block", G,
                   nr::ref::module, nr::archetype::ir) {
  std::mt19937 rng(2026);
  using op = nr::op_handle_t<G>;
  using block = nr::block_handle_t<G>;
  int nested_blocks = 0, hits = 0;
  for (int round = 0; round < 40; ++round) {
    program<G> p(block_test::random_program(rng, 40));
    // The body and every region block of its ops (whose ops use values of the body: defining
    // ops outside the block asked about).
    std::vector<block> blocks{p.body};
    for (auto&& x : nr::ir::ops(p.g, p.body))
      for (auto&& b : nr::ir::regions(p.g, x)) blocks.push_back(b);
    nested_blocks += static_cast<int>(blocks.size()) - 1;
    for (const block& b : blocks) {
      std::vector<op> ops;
      for (auto&& x : nr::ir::ops(p.g, b)) ops.push_back(x);
      for (int trial = 0; trial < 4; ++trial) {
        nr::op_set<G> marks(p.g);
        for (const op& x : ops)
          if (rng() % 3 == 0) marks.insert(x);
        for (const op& x : ops) {
          op expected = nr::ir::null_op<G>();
          nr::for_each_producer_in_block(p.g, x, b, [&](op d) {
            if (!marks.contains(d)) return true;
            expected = d;
            return false;
          });
          const op got = nr::first_producer_in(p.g, x, b, marks);
          CHECK(got == expected);
          hits += nr::ir::is_null<G>(got) ? 0 : 1;
        }
      }
      for (const op& x : ops) {
        nr::op_set<G> added(p.g);
        nr::insert_producers(p.g, x, b, added);
        const auto want = nr::producers_in_block(p.g, x, b);
        for (const op& y : ops)
          CHECK(added.contains(y) == (std::find(want.begin(), want.end(), y) != want.end()));
      }
    }
  }
  CHECK(nested_blocks > 20);  // the generator made region blocks to ask about
  CHECK(hits > 100);
}
