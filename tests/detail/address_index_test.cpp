// detail::address_index (and its u64_table): every key finds its number, absent addresses find
// none, whatever the layout of the keys: one after the other 64 bytes apart (the MLIR adapter's
// case), closer than a granule (the overflow table), one per page, strides that are powers of
// two, and a random mix checked against std::unordered_map. Addresses are integers: the index
// never dereferences them.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include <neuronrw/detail/address_index.hpp>

namespace {

using neuronrw::detail::address_index;
using neuronrw::detail::u64_table;

const void* at(std::uint64_t a) { return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(a)); }

// Numbers keys base + i * stride for i < n (in the given order), then checks each and the
// addresses between them.
void check_stride(std::uint64_t base, std::uint64_t stride, std::uint32_t n) {
  address_index x;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto [v, fresh] = x.try_emplace(at(base + i * stride), i);
    REQUIRE(fresh);
    REQUIRE(v == i);
  }
  CHECK(x.size() == n);
  for (std::uint32_t i = 0; i < n; ++i) {
    REQUIRE(x.find(at(base + i * stride)) == i);
    if (stride > 1) REQUIRE(x.find(at(base + i * stride + 1)) == address_index::npos);
  }
  CHECK(x.find(at(base + n * stride)) == address_index::npos);
  CHECK(x.find(at(base - stride)) == address_index::npos);
}

}  // namespace

TEST_CASE("address_index: empty, null, and a second insert of a key") {
  address_index x;
  CHECK(x.size() == 0);
  CHECK(x.find(nullptr) == address_index::npos);
  CHECK(x.find(at(0x1000)) == address_index::npos);
  CHECK(x.try_emplace(at(0x1000), 7) == std::pair<std::uint32_t, bool>{7, true});
  CHECK(x.try_emplace(at(0x1000), 9) == std::pair<std::uint32_t, bool>{7, false});  // keeps its number
  CHECK(x.find(at(0x1000)) == 7);
  CHECK(x.find(nullptr) == address_index::npos);
  CHECK(x.find(at(0x1040)) == address_index::npos);  // same page, another granule
  CHECK(x.find(at(0x1001)) == address_index::npos);  // same granule, another address
  CHECK(x.size() == 1);
  CHECK(x.bytes() > 0);
}

TEST_CASE("address_index: keys one after the other, granule-sized and larger") {
  check_stride(0x7f0000001000ull, 64, 20000);   // one key per granule, every slot of a page used
  check_stride(0x7f0000001000ull, 112, 20000);  // an mlir::Operation with two operands, about
  check_stride(0x55d4c3a20010ull, 72, 5000);    // unaligned base
  check_stride(0x10000ull, 2048, 3000);         // one key per page
  check_stride(0x10000ull, 1ull << 20, 3000);   // pages far apart, strides of a power of two
  check_stride(0x10000ull, 1ull << 32, 300);
}

TEST_CASE("address_index: keys closer than a granule go to the overflow table") {
  check_stride(0x20000ull, 8, 10000);  // eight keys per granule
  check_stride(0x20000ull, 1, 5000);   // every byte
  // A key whose granule is taken, in a page whose other granules are empty.
  address_index x;
  x.try_emplace(at(0x40000), 1);
  x.try_emplace(at(0x40008), 2);
  CHECK(x.find(at(0x40000)) == 1);
  CHECK(x.find(at(0x40008)) == 2);
  CHECK(x.find(at(0x40010)) == address_index::npos);  // taken granule, not a key
  CHECK(x.find(at(0x40040)) == address_index::npos);  // empty granule
  CHECK(x.try_emplace(at(0x40008), 5) == std::pair<std::uint32_t, bool>{2, false});
  CHECK(x.size() == 2);
}

TEST_CASE("address_index: a random mix of layouts agrees with std::unordered_map") {
  std::mt19937_64 rng(20261205);
  address_index x;
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  std::vector<std::uint64_t> keys;
  std::uint64_t cursor = 0x560000000000ull;
  for (std::uint32_t i = 0; i < 60000; ++i) {
    // Runs of ops allocated one after the other, jumps to other arenas, reuse of an old address.
    const auto r = rng() % 100;
    if (r < 80) cursor += 64 + (rng() % 8) * 16;
    else if (r < 90) cursor += (rng() % 64) * 4096 + 8;
    else if (r < 95) cursor = 0x7f0000000000ull + (rng() % (1ull << 30)) * 16;
    else if (!keys.empty()) cursor = keys[rng() % keys.size()] + (rng() % 4) * 8;
    const auto [v, fresh] = x.try_emplace(at(cursor), i);
    const auto [it, ref_fresh] = ref.try_emplace(cursor, i);
    REQUIRE(fresh == ref_fresh);
    REQUIRE(v == it->second);
    if (fresh) keys.push_back(cursor);
  }
  CHECK(x.size() == ref.size());
  for (const auto k : keys) REQUIRE(x.find(at(k)) == ref.at(k));
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t probe = keys[rng() % keys.size()] + (rng() % 256) - 128;
    const auto it = ref.find(probe);
    REQUIRE(x.find(at(probe)) == (it == ref.end() || probe == 0 ? address_index::npos : it->second));
  }
}

TEST_CASE("address_index: reserve keeps every key") {
  address_index x;
  x.reserve(100000);
  for (std::uint32_t i = 0; i < 1000; ++i) x.try_emplace(at(0x9000 + 4096ull * i), i);
  for (std::uint32_t i = 0; i < 1000; ++i) REQUIRE(x.find(at(0x9000 + 4096ull * i)) == i);
}

TEST_CASE("u64_table: insert, find, growth, absent keys") {
  u64_table t;
  CHECK(t.find(5) == u64_table::npos);
  for (std::uint64_t k = 1; k <= 50000; ++k) REQUIRE(t.try_emplace(k * 0x10000, static_cast<std::uint32_t>(k)).second);
  CHECK(t.size() == 50000);
  CHECK_FALSE(t.try_emplace(0x10000, 3).second);
  CHECK(t.try_emplace(0x10000, 3).first == 1);
  for (std::uint64_t k = 1; k <= 50000; ++k) {
    REQUIRE(t.find(k * 0x10000) == k);
    REQUIRE(t.find(k * 0x10000 + 1) == u64_table::npos);
  }
}
