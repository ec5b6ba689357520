// Small exhaustive universes for the lattice law tests, shared by the static and run-time tests.
//
// Universes are std::vector, not std::array: g++ 12 rejects copying an array of objects that own
// constexpr-allocated memory ("deallocation of already deallocated storage"), and device_coverage
// owns a std::vector.
#pragma once

#include <neuronrw/descriptors/device_coverage.hpp>
#include <neuronrw/descriptors/lattice.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace neuronrw::test {

/// ⊥, every subset of `points` (as rank sets), and ⊤. 2^|points| + 1 elements.
constexpr std::vector<device_coverage> coverage_universe(const std::vector<device_coverage::rank_type>& points) {
  std::vector<device_coverage> u;
  for (std::size_t mask = 0; mask < (std::size_t{1} << points.size()); ++mask) {
    device_coverage c;
    for (std::size_t b = 0; b < points.size(); ++b)
      if (mask & (std::size_t{1} << b)) c.insert(points[b]);
    u.push_back(c);
  }
  u.push_back(device_coverage::all());
  return u;
}

/// The points whose subsets exercise every merge case: {0, 2, 4} gives up to three intervals
/// (past the inline capacity), and 1 and 3 fill the gaps (adjacency coalescing).
constexpr std::vector<device_coverage> small_coverage_universe() {
  std::vector<device_coverage> u = coverage_universe({0, 2, 4});
  u.push_back(device_coverage::single(1));
  u.push_back(device_coverage::of({1, 3}));
  return u;
}

// initializer_list, not vector: clang 14 cannot evaluate libstdc++'s vector<bool> in constexpr.
template <class T>
constexpr std::vector<max_lattice<T>> max_universe(std::initializer_list<T> values) {
  std::vector<max_lattice<T>> u;
  for (T v : values) u.push_back(max_lattice<T>{v});
  return u;
}

template <class A, class B>
constexpr std::vector<product_lattice<A, B>> product_universe(const std::vector<A>& as,
                                                              const std::vector<B>& bs) {
  std::vector<product_lattice<A, B>> u;
  for (const A& a : as)
    for (const B& b : bs) u.push_back({a, b});
  return u;
}

}  // namespace neuronrw::test
