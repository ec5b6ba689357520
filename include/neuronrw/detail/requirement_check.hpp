// neuronrw/detail/requirement_check.hpp — the "first missing requirement" diagnostic shared by
// every concept family (concepts/ir.hpp, concepts/host.hpp).
//
// A `require_*<T>()` function is a chain of NEURONRW_REQUIREMENT_CHECK(T, cond, msg) after an
// `if constexpr (false) {}` and ends with `else return true;`: the first failing requirement
// fires its own static_assert and no other, so the user reads one message with its fix instead
// of the compiler's account of an unsatisfied conjunction.
//
// Customization points: none.
#pragma once

namespace neuronrw::detail {
template <class>
inline constexpr bool dependent_false = false;
}  // namespace neuronrw::detail

#define NEURONRW_REQUIREMENT_CHECK(T, cond, msg)                                             \
  else if constexpr (!(cond)) {                                                              \
    static_assert(::neuronrw::detail::dependent_false<T>, msg);                              \
    return false;                                                                            \
  }
