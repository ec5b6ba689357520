// detail::handle_map: find / try_emplace / insert_or_assign against std::unordered_map over a
// random mix of keys (pointers that are 8 bytes apart, small integers, colliding hashes), clear()
// forgetting everything while the next round reuses the table, a key without a default
// constructor, string_view keys, and growth from empty past many doublings.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <neuronrw/detail/handle_map.hpp>

namespace {

using neuronrw::detail::handle_map;

// Every key of `ref` maps to its value in `m`, sizes agree, and `absent` keys are absent.
template <class K, class V, class H, class RefH>
void check_same(const handle_map<K, V, H>& m, const std::unordered_map<K, V, RefH>& ref, const std::vector<K>& absent) {
  REQUIRE(m.size() == ref.size());
  for (const auto& [k, v] : ref) {
    const V* got = m.find(k);
    REQUIRE(got != nullptr);
    REQUIRE(*got == v);
  }
  for (const K& k : absent)
    if (!ref.count(k)) REQUIRE_FALSE(m.contains(k));
}

// A handle type with no default constructor (handles need only be copyable and comparable).
struct handle {
  explicit handle(int v) : value(v) {}
  int value;
  friend bool operator==(const handle&, const handle&) = default;
};
struct handle_hash_fn {
  std::size_t operator()(const handle& h) const noexcept { return static_cast<std::size_t>(h.value); }
};

// Every key hashes alike: one probe chain holds all of them.
struct constant_hash {
  std::size_t operator()(int) const noexcept { return 42; }
};

}  // namespace

TEST_CASE("handle_map: a random mix of inserts, overwrites and lookups agrees with std::unordered_map") {
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> storage(4096);  // keys are addresses 8 bytes apart, as heap handles are
  handle_map<const std::uint64_t*, std::uint32_t> m;
  std::unordered_map<const std::uint64_t*, std::uint32_t> ref;
  std::vector<const std::uint64_t*> probe;
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t* k = &storage[rng() % storage.size()];
    const auto v = static_cast<std::uint32_t>(rng());
    switch (rng() % 3) {
      case 0: {  // try_emplace keeps an existing value
        const auto [at, fresh] = m.try_emplace(k, v);
        const auto [it, ref_fresh] = ref.try_emplace(k, v);
        REQUIRE(fresh == ref_fresh);
        REQUIRE(*at == it->second);
        break;
      }
      case 1:
        m.insert_or_assign(k, v);
        ref.insert_or_assign(k, v);
        break;
      default: {
        const std::uint32_t* got = m.find(k);
        const auto it = ref.find(k);
        REQUIRE((got != nullptr) == (it != ref.end()));
        if (got) REQUIRE(*got == it->second);
      }
    }
    probe.push_back(k);
  }
  check_same(m, ref, probe);
}

TEST_CASE("handle_map: clear forgets every key, and the next round reuses the table") {
  handle_map<int, int> m;
  std::mt19937 rng(11);
  for (int round = 0; round < 50; ++round) {
    m.clear();
    CHECK(m.empty());
    std::unordered_map<int, int> ref;
    const int n = 1 + static_cast<int>(rng() % 3000);  // rounds small and large, in any order
    for (int i = 0; i < n; ++i) {
      const int k = static_cast<int>(rng() % 5000);
      m.insert_or_assign(k, i);
      ref.insert_or_assign(k, i);
    }
    std::vector<int> all(5000);
    for (int i = 0; i < 5000; ++i) all[static_cast<std::size_t>(i)] = i;
    check_same(m, ref, all);  // nothing of an earlier round shows through
  }
}

TEST_CASE("handle_map: keys without a default constructor, colliding hashes, string_view keys") {
  handle_map<handle, std::string, handle_hash_fn> named;
  for (int i = 0; i < 300; ++i) CHECK(named.try_emplace(handle(i * 1024), "v" + std::to_string(i)).second);
  CHECK_FALSE(named.try_emplace(handle(0), "again").second);
  CHECK(*named.find(handle(0)) == "v0");
  CHECK(*named.find(handle(299 * 1024)) == "v299");
  CHECK(named.find(handle(1)) == nullptr);
  CHECK(named.size() == 300);

  handle_map<int, int, constant_hash> chain;
  for (int i = 0; i < 200; ++i) chain.insert_or_assign(i, -i);
  for (int i = 0; i < 200; ++i) REQUIRE(*chain.find(i) == -i);
  CHECK_FALSE(chain.contains(200));
  chain.clear();
  CHECK_FALSE(chain.contains(0));
  chain.insert_or_assign(7, 1);
  CHECK(*chain.find(7) == 1);
  CHECK(chain.size() == 1);

  const std::vector<std::string> names{"a", "b", "buffer_0", "buffer_0_long_enough_to_leave_sso", "a2"};
  handle_map<std::string_view, char> seen;
  for (const std::string& s : names) CHECK(seen.try_emplace(s, 1).second);
  const std::string again = "buffer_0";  // another string, equal text
  CHECK_FALSE(seen.try_emplace(again, 1).second);
  CHECK_FALSE(seen.contains("c"));
}

TEST_CASE("handle_map: growth from empty keeps every entry (100K keys)") {
  handle_map<std::uint64_t, std::uint64_t> m;
  CHECK(m.find(0) == nullptr);  // empty, never grown
  for (std::uint64_t i = 0; i < 100000; ++i) REQUIRE(m.try_emplace(i * 64, i).second);
  for (std::uint64_t i = 0; i < 100000; ++i) {
    REQUIRE(*m.find(i * 64) == i);
    REQUIRE_FALSE(m.contains(i * 64 + 1));
  }
}
