// Run-time tests for neuronrw/descriptors/kinds.hpp: the id index answers the same at run time.
#include <neuronrw/descriptors/kinds.hpp>

#include <doctest/doctest.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace {

TEST_CASE("kind_id_of matches FNV-1a and never yields unknown_kind") {
  CHECK(neuronrw::kind_id_of("all_gather") == 0x77f23e4eu);
  CHECK(neuronrw::kind_id_of("reduce_scatter") == neuronrw::kind_id_v<neuronrw::kinds::reduce_scatter>);
  CHECK(neuronrw::kind_id_of("return") != neuronrw::unknown_kind);
}

TEST_CASE("hashed kind_id_index finds each of 300 names at run time and rejects others") {
  static constexpr auto names = [] {
    std::array<std::string_view, 300> a{};
    // Names live in a static table so the string_views stay valid.
    constexpr std::string_view pool =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-abcdefghijklmnopqrstuvwxyz"
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        "0123456789_-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-abcdefghijklmno"
        "pqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-abcdefghijklmnopqrstuvwxyz0123456789abcdef";
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = pool.substr(i % 64, 3 + i / 64);
    return a;
  }();
  constexpr auto index = neuronrw::detail::make_kind_id_index(names);
  static_assert(decltype(index)::hashed);
  REQUIRE(index.conflict == neuronrw::detail::id_conflict::none);
  std::vector<std::string> owned(names.begin(), names.end());
  for (std::size_t i = 0; i < owned.size(); ++i)
    CHECK(index.find(neuronrw::kind_id_of(owned[i])) == i);
  CHECK(index.find(neuronrw::kind_id_of("not-a-kind")) == neuronrw::detail::npos_index);
  CHECK(index.max_probe < 16);
}

}  // namespace
