// examples/neuronrw-opt/utf8.hpp — UTF-8 validation and repair for what neuronrw-opt writes in
// text formats that must be UTF-8 (DOT, dot_escape.hpp): names read from the input are bytes,
// and a quoted MLIR name may hold any of them (`@"\FF"`).
//
//   utf8_sequence_length(s, i)   the length of the well-formed sequence at s[i], or 0
//   utf8_invalid_length(s, i)    where it is not: the length of the maximal subpart to replace
//   is_valid_utf8(s)             every byte is part of a well-formed sequence
//   valid_utf8(s)                `s` with each maximal ill-formed subpart replaced by U+FFFD
//
// Well-formed means Unicode's Table 3-7 (RFC 3629 §4): shortest form only (no overlong `C0 80`),
// no UTF-16 surrogates (U+D800..U+DFFF, `ED A0..BF ..`), nothing above U+10FFFF (`F4 90..`,
// `F5..FF`). Replacement follows Unicode's recommended practice, "U+FFFD substitution of maximal
// subparts" (§3.9; WHATWG's decoder and Python's `errors="replace"` do the same): a truncated
// sequence (`E2 82` then the end or an ASCII byte) is one U+FFFD; a byte that can start no
// sequence (80..C1, F5..FF) is one U+FFFD by itself. So `E0 80 80` (overlong) is three.
//
// No allocation beyond the result, no exceptions. Customization points: none.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace neuronrw_opt {

namespace utf8_detail {

/// The range [lo, hi] the second byte of a sequence led by `lead` must lie in (Table 3-7), or
/// {1, 0} (empty) when `lead` starts no multi-byte sequence.
struct byte_range {
  unsigned char lo, hi;
};
constexpr byte_range second_byte_range(unsigned char lead) noexcept {
  if (lead >= 0xC2 && lead <= 0xDF) return {0x80, 0xBF};
  if (lead == 0xE0) return {0xA0, 0xBF};  // no overlong three-byte form
  if (lead == 0xED) return {0x80, 0x9F};  // no surrogates
  if (lead >= 0xE1 && lead <= 0xEF) return {0x80, 0xBF};
  if (lead == 0xF0) return {0x90, 0xBF};  // no overlong four-byte form
  if (lead >= 0xF1 && lead <= 0xF3) return {0x80, 0xBF};
  if (lead == 0xF4) return {0x80, 0x8F};  // nothing above U+10FFFF
  return {1, 0};
}
constexpr std::size_t expected_length(unsigned char lead) noexcept {
  return lead < 0x80 ? 1 : lead < 0xC2 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF5 ? 4 : 0;
}

/// How many bytes from s[i] on agree with a well-formed sequence (at least 1 when i < size):
/// the whole sequence when it is well formed, else its maximal subpart, or 1 for a bad lead.
/// `complete` tells which.
constexpr std::size_t scan(std::string_view s, std::size_t i, bool& complete) noexcept {
  complete = false;
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = at(i);
  const std::size_t n = expected_length(lead);
  if (n == 1) {
    complete = true;
    return 1;
  }
  if (n == 0) return 1;
  const byte_range second = second_byte_range(lead);
  std::size_t k = 1;
  for (; k < n && i + k < s.size(); ++k) {
    const unsigned char c = at(i + k);
    const bool fits = k == 1 ? (c >= second.lo && c <= second.hi) : (c >= 0x80 && c <= 0xBF);
    if (!fits) return k;
  }
  complete = k == n;
  return k;
}

}  // namespace utf8_detail

/// The length (1-4) of the well-formed UTF-8 sequence starting at s[i], or 0 when none starts
/// there. @pre i < s.size(). O(1).
constexpr std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
  bool complete = false;
  const std::size_t k = utf8_detail::scan(s, i, complete);
  return complete ? k : 0;
}

/// When no well-formed sequence starts at s[i]: the length (1-3) of the ill-formed bytes one
/// U+FFFD replaces (its maximal subpart, see the header comment); 0 when one does start there.
/// @pre i < s.size(). O(1).
constexpr std::size_t utf8_invalid_length(std::string_view s, std::size_t i) noexcept {
  bool complete = false;
  const std::size_t k = utf8_detail::scan(s, i, complete);
  return complete ? 0 : k;
}

/// Whether `s` is entirely well-formed UTF-8. O(s).
constexpr bool is_valid_utf8(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

/// `s` with each maximal ill-formed subpart replaced by U+FFFD (EF BF BD); `s` itself when it is
/// valid. O(s).
inline std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    bool complete = false;
    const std::size_t k = utf8_detail::scan(s, i, complete);
    if (complete) out.append(s.substr(i, k));
    else out += "\xEF\xBF\xBD";
    i += k;
  }
  return out;
}

}  // namespace neuronrw_opt
