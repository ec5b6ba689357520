// Run-time tests for neuronrw/descriptors/device_coverage.hpp: printing, iteration, large
// ranks, and a differential test of join/leq/contains against std::set.
#include <neuronrw/descriptors/device_coverage.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using dc = neuronrw::device_coverage;

std::vector<dc::rank_type> ranks_of(const dc& c) {
  std::vector<dc::rank_type> out;
  for (dc::rank_type r : c.ranks()) out.push_back(r);
  return out;
}

TEST_CASE("to_string prints bottom, all, and ascending rank sets") {
  CHECK(to_string(dc{}) == "bottom");
  CHECK(to_string(dc::bottom()) == "bottom");
  CHECK(to_string(dc::all()) == "all");
  CHECK(to_string(dc::of({2, 0, 1})) == "{0, 1, 2}");
  CHECK(to_string(dc::single(7)) == "{7}");
  CHECK(to_string(dc::join(dc::range(0, 2), dc::of({5, 9}))) == "{0, 1, 5, 9}");
  CHECK(to_string(dc::of({})) == "bottom");
}

TEST_CASE("ranks iterate ascending; ⊥ and ⊤ iterate nothing") {
  CHECK(ranks_of(dc::of({40000, 3, 2, 39999})) == std::vector<dc::rank_type>{2, 3, 39999, 40000});
  CHECK(ranks_of(dc::bottom()).empty());
  CHECK(ranks_of(dc::all()).empty());
  CHECK(ranks_of(dc::single(4294967295u)) == std::vector<dc::rank_type>{4294967295u});
  CHECK(ranks_of(dc::range(4294967293u, 4294967295u)) == std::vector<dc::rank_type>{4294967293u, 4294967294u});
}

TEST_CASE("a range of tens of thousands of ranks stays one interval, and so does its join") {
  dc c = dc::range(0, 50000);
  CHECK(c.intervals().size() == 1);
  CHECK(c.rank_count() == std::optional<std::uint64_t>{50000});
  c.join_with(dc::range(50000, 65536)).insert(70000);
  CHECK(c.intervals().size() == 2);
  CHECK(c.rank_count() == std::optional<std::uint64_t>{65537});
  CHECK(c.contains(65535));
  CHECK_FALSE(c.contains(65536));
  CHECK(c.contains(70000));
  CHECK(to_string(dc::range(0, 3).join_with(dc::single(60000))) == "{0, 1, 2, 60000}");
}

TEST_CASE("equal coverages hash equally; moved-from coverages are bottom") {
  CHECK(hash_value(dc::of({1, 2, 3})) == hash_value(dc::range(1, 4)));
  CHECK(hash_value(dc::all()) != hash_value(dc::bottom()));
  dc a = dc::of({1, 3, 5, 7});  // 4 intervals: on the heap
  dc b = std::move(a);
  CHECK(to_string(b) == "{1, 3, 5, 7}");
  CHECK(a.is_bottom());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  dc c = dc::single(9);
  c = std::move(b);
  CHECK(to_string(c) == "{1, 3, 5, 7}");
  CHECK(b.is_bottom());  // NOLINT(bugprone-use-after-move)
  dc d = c;  // copy keeps the source intact
  d.insert(2);
  CHECK(to_string(c) == "{1, 3, 5, 7}");
  CHECK(to_string(d) == "{1, 2, 3, 5, 7}");
}

// A reference model: std::set of ranks, with nullopt as ⊤.
using model = std::optional<std::set<dc::rank_type>>;
dc from_model(const model& m) {
  return m ? dc::from_ranks(*m) : dc::all();
}
std::string print_model(const model& m) {
  if (!m) return "all";
  if (m->empty()) return "bottom";
  std::string s = "{";
  for (auto r : *m) s += (s.size() > 1 ? ", " : "") + std::to_string(r);
  return s + "}";
}

TEST_CASE("differential: join, leq, contains and equality agree with a std::set model") {
  std::mt19937 rng(20240611);
  auto random_model = [&]() -> model {
    if (rng() % 16 == 0) return std::nullopt;
    std::set<dc::rank_type> s;
    const dc::rank_type base = rng() % 3 == 0 ? 60000 : 0;  // tens of thousands, sometimes
    const int n = static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) s.insert(base + rng() % 24);
    return s;
  };
  for (int iter = 0; iter < 3000; ++iter) {
    const model ma = random_model();
    const model mb = random_model();
    const dc a = from_model(ma);
    const dc b = from_model(mb);
    model mj;
    if (ma && mb) {
      mj = *ma;
      mj->insert(mb->begin(), mb->end());
    }
    const bool model_leq = !mb || (ma && std::includes(mb->begin(), mb->end(), ma->begin(), ma->end()));
    REQUIRE(to_string(dc::join(a, b)) == print_model(mj));
    REQUIRE(dc::join(a, b) == from_model(mj));
    REQUIRE(dc::leq(a, b) == model_leq);
    REQUIRE((a == b) == (ma == mb));
    const dc::rank_type probe = static_cast<dc::rank_type>(rng() % 2 ? rng() % 24 : 60000 + rng() % 24);
    REQUIRE(a.contains(probe) == (!ma || ma->count(probe) == 1));
  }
}

}  // namespace
