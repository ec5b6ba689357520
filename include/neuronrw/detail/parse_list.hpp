// neuronrw/detail/parse_list.hpp — the one loop a recursive-descent parser reads a delimited list
// with: OPEN, elements separated by SEP with an optional trailing SEP, CLOSE.
//
//   detail::list_syntax{open, open_what, sep, close, close_what}   the punctuation, and what the
//                                                                  parser says when OPEN or CLOSE
//                                                                  is missing
//   detail::parse_list(cursor, syntax, element) -> bool            element() once per element
//   detail::parse_list(cursor, syntax, element, at_close) -> bool  at_close() once the elements
//                                                                  are read, before CLOSE
//   detail::punct_cursor<C>                                        what parse_list needs of a
//                                                                  cursor over tokens
//
// How: expect_punct(open, open_what); then, until the cursor is at CLOSE: element(), and stop
// unless the cursor is at SEP, else step over it; then expect_punct(close, close_what). So `()`,
// `(a)`, `(a,)` and `(a, b)` are lists and `(,)` is not (element() sees the SEP); an element not
// followed by SEP or CLOSE is an error of expect_punct(close, close_what). element() reads one
// element and reports its own errors; at_close() sees the cursor where CLOSE should be (a check
// of the whole list whose error points there).
//
// Errors without exceptions: expect_punct(), element() and at_close() return false when they
// failed (having recorded their error in the parser), and parse_list then stops and returns false
// at once; true when the whole list was read.
//
// Generic: no IR headers, no allocation, no exceptions.
//
// Customization points: none.
#pragma once

#include <concepts>
#include <string_view>
#include <type_traits>

namespace neuronrw::detail {

/// The punctuation of one kind of list, and the `what` passed to expect_punct when its opening or
/// closing token is missing ("to open a shape", "to close a shape").
struct list_syntax {
  std::string_view open;
  std::string_view open_what;
  std::string_view sep;
  std::string_view close;
  std::string_view close_what;
};

/// A cursor over tokens: tests for a punctuation token at the cursor, consumes one (or reports
/// `expected PUNCT WHAT` and returns false), steps over the current token.
template <class C>
concept punct_cursor = requires(C& c, const C& cc, std::string_view p) {
  { cc.at_punct(p) } -> std::convertible_to<bool>;
  { c.expect_punct(p, p) } -> std::convertible_to<bool>;
  c.next();
};

/// Reads `syntax.open`, the elements (element() reads one) separated by `syntax.sep` with an
/// optional trailing one, then calls at_close() and reads `syntax.close`. O(elements) calls.
/// False as soon as a step fails.
template <punct_cursor Cursor, class Element, class AtClose>
  requires std::convertible_to<std::invoke_result_t<Element&>, bool> &&
           std::convertible_to<std::invoke_result_t<AtClose&>, bool>
[[nodiscard]] bool parse_list(Cursor& c, const list_syntax& syntax, Element&& element, AtClose&& at_close) {
  if (!c.expect_punct(syntax.open, syntax.open_what)) return false;
  while (!c.at_punct(syntax.close)) {
    if (!element()) return false;
    if (!c.at_punct(syntax.sep)) break;
    c.next();
  }
  if (!at_close()) return false;
  return c.expect_punct(syntax.close, syntax.close_what);
}

/// The same without a check at the close.
template <punct_cursor Cursor, class Element>
  requires std::convertible_to<std::invoke_result_t<Element&>, bool>
[[nodiscard]] bool parse_list(Cursor& c, const list_syntax& syntax, Element&& element) {
  return parse_list(c, syntax, element, [] { return true; });
}

}  // namespace neuronrw::detail
