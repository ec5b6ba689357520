// neuronrw/detail/fnv1a.hpp — the library's one FNV-1a (Fowler–Noll–Vo, variant 1a), 32- and
// 64-bit, constexpr, in an incremental form.
//
//   detail::fnv1a_32 / detail::fnv1a_64     hasher: update(bytes), update_byte(b), mix(word), value()
//   detail::fnv1a_32_of(s) / fnv1a_64_of(s)  the hash of one byte string
//
// Who uses it: op-kind ids (descriptors/kinds.hpp, 32-bit, so ids are compile-time constants that
// two independent libraries agree on), the host program's structural hash (ir/host/hash.hpp,
// 64-bit, the same on every platform) and device_coverage's hash_value (descriptors/
// device_coverage.hpp, which mixes whole 64-bit words with the same step). Values are part of
// the library's contract: tests pin them (tests/descriptors/kinds_static_test.cpp,
// tests/ir/host/hash_test.cpp), so the constants and the byte order here never change.
//
// Why FNV-1a: no table, one xor and one multiply per byte, trivially constexpr, and simple enough
// that a test checks its values against an independent implementation (three lines of Python).
// It is not a cryptographic hash and not collision-free: users of the 32-bit form detect
// collisions where they matter (boundary sets reject colliding kind ids at compile time).
//
// Customization points: none.
#pragma once

#include <cstdint>
#include <string_view>

namespace neuronrw::detail {

template <class H>
struct fnv1a_parameters;
template <>
struct fnv1a_parameters<std::uint32_t> {
  static constexpr std::uint32_t offset_basis = 2166136261u;
  static constexpr std::uint32_t prime = 16777619u;
};
template <>
struct fnv1a_parameters<std::uint64_t> {
  static constexpr std::uint64_t offset_basis = 0xcbf29ce484222325ull;
  static constexpr std::uint64_t prime = 0x100000001b3ull;
};

/// FNV-1a state of width H (std::uint32_t or std::uint64_t). Feed bytes in order; value() is the
/// hash of everything fed so far, so a caller can hash a structure piece by piece without
/// building its encoding first.
template <class H>
class basic_fnv1a {
 public:
  using value_type = H;
  static constexpr H offset_basis = fnv1a_parameters<H>::offset_basis;
  static constexpr H prime = fnv1a_parameters<H>::prime;

  constexpr basic_fnv1a() noexcept = default;
  /// Starts from `seed` instead of the offset basis (for hashes that must tell two families of
  /// inputs apart before the first byte, as device_coverage does for "all" and the rest).
  constexpr explicit basic_fnv1a(H seed) noexcept : h_(seed) {}

  constexpr basic_fnv1a& update_byte(unsigned char b) noexcept { return mix(b); }
  constexpr basic_fnv1a& update(std::string_view bytes) noexcept {
    for (char c : bytes) update_byte(static_cast<unsigned char>(c));
    return *this;
  }
  /// One FNV-1a step over a whole word instead of one byte: `h = (h ^ w) * prime`. Cheaper than
  /// feeding the word's bytes and as good for hash tables; not the byte-wise FNV-1a of the word.
  constexpr basic_fnv1a& mix(H w) noexcept {
    h_ = static_cast<H>((h_ ^ w) * prime);
    return *this;
  }
  constexpr H value() const noexcept { return h_; }

 private:
  H h_ = offset_basis;
};

using fnv1a_32 = basic_fnv1a<std::uint32_t>;
using fnv1a_64 = basic_fnv1a<std::uint64_t>;

/// 32-bit FNV-1a of `bytes`. O(bytes).
constexpr std::uint32_t fnv1a_32_of(std::string_view bytes) noexcept { return fnv1a_32{}.update(bytes).value(); }
/// 64-bit FNV-1a of `bytes`. O(bytes).
constexpr std::uint64_t fnv1a_64_of(std::string_view bytes) noexcept { return fnv1a_64{}.update(bytes).value(); }

}  // namespace neuronrw::detail
