// Run-time tests for neuronrw/descriptors/lattice.hpp: the one generic law checker run over every
// instance on larger universes than the compile-time ones, and the generic fold.
#include <neuronrw/descriptors/device_coverage.hpp>
#include <neuronrw/descriptors/lattice.hpp>

#include "lattice_universes.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

namespace lattice = neuronrw::lattice;
namespace test = neuronrw::test;
using dc = neuronrw::device_coverage;
using neuronrw::max_lattice;
using neuronrw::product_lattice;

// Reports the failing law by name, so a failure says which law and where.
template <class U>
std::string laws_of(const U& universe) {
  const lattice::law_report r = lattice::check_laws(universe);
  if (r.ok()) return "ok";
  return std::string(lattice::law_name(r.failed)) + " at (" + std::to_string(r.a) + ", " +
         std::to_string(r.b) + ", " + std::to_string(r.c) + ")";
}

TEST_CASE("laws: max_lattice over every uint8_t value") {
  std::vector<max_lattice<std::uint8_t>> u;
  for (int v = 0; v < 256; v += 5) u.push_back({static_cast<std::uint8_t>(v)});
  u.push_back({255});
  CHECK(laws_of(u) == "ok");
}

TEST_CASE("laws: device_coverage over ⊥, all subsets of {0..5} and ⊤ (65 elements)") {
  CHECK(laws_of(test::coverage_universe({0, 1, 2, 3, 4, 5})) == "ok");
}

TEST_CASE("laws: device_coverage over subsets of scattered large ranks") {
  CHECK(laws_of(test::coverage_universe({0, 1, 4095, 4096, 65535, 4294967295u})) == "ok");
}

TEST_CASE("laws: product of device_coverage and a max lattice") {
  CHECK(laws_of(test::product_universe(test::coverage_universe({0, 1, 3}),
                                       test::max_universe<std::uint8_t>({0, 1, 255}))) == "ok");
}

TEST_CASE("laws: nested products") {
  using pair = product_lattice<max_lattice<bool>, max_lattice<std::int16_t>>;
  std::vector<pair> inner = test::product_universe(test::max_universe<bool>({false, true}),
                                                   test::max_universe<std::int16_t>({-32768, -1, 0, 9, 32767}));
  CHECK(laws_of(test::product_universe(inner, test::coverage_universe({2, 3}))) == "ok");
}

TEST_CASE("join_all folds any range, stopping at top; the bulk join of coverages agrees") {
  const std::vector<max_lattice<int>> xs{{3}, {-9}, {12}, {4}};
  CHECK(lattice::join_all(xs) == max_lattice<int>{12});
  CHECK(lattice::join_all(std::vector<max_lattice<int>>{}) == lattice::bottom<max_lattice<int>>());

  std::vector<dc> many;
  dc folded;
  for (dc::rank_type r = 0; r < 20000; r += 2) {  // 10000 scattered points: no coalescing
    many.push_back(dc::single(r));
    folded = dc::join(folded, many.back());
  }
  const dc bulk = lattice::join_all(many);
  CHECK(bulk == folded);
  CHECK(bulk.intervals().size() == 10000);
  CHECK(bulk.rank_count() == 10000);
  many.push_back(dc::all());
  CHECK(lattice::join_all(many).is_all());
}

}  // namespace
