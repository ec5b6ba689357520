// neuronrw/algorithms/host_walk.hpp — the statements of a host program in pre-order, what
// algorithms/walk.hpp is for ops: every statement of a block, then (unless skipped) the
// statements of its body (for / while / comm-domain scope / other), at any depth, in source order.
//
//   neuronrw::walk_host_stmts(p, host_access::body(p, f), [&](auto s) { ... });   // every statement
//   neuronrw::walk_host_function(p, f, enter, leave);                               // with a leave
//
// `enter(s)` runs before s's body and may return void (go on) or a host_walk: `advance` (go on),
// `skip` (not into s's body; leave(s) still runs), `stop` (end the whole walk at once; no more
// enter or leave). `leave(s)`, optional, runs after s's body: a loop stack pushes in enter and
// pops in leave. Returns false when stopped.
//
// Customization points: none; needs host_program (requirements 4-6). Complexity: O(statements);
// recursion depth = statement nesting depth (the host text format bounds it).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <neuronrw/concepts/host.hpp>

namespace neuronrw {

/// What an enter callback asks of the walk.
enum class host_walk : std::uint8_t { advance, skip, stop };

namespace host_walk_detail {

struct no_leave {
  template <class S>
  void operator()(S) const noexcept {}
};

template <class F, class S>
host_walk call(F& f, S s) {
  if constexpr (std::is_void_v<std::invoke_result_t<F&, S>>) {
    f(s);
    return host_walk::advance;
  } else {
    return f(s);
  }
}

}  // namespace host_walk_detail

/// Pre-order over `stmts` and every body nested in them (see the header comment).
template <class P, class Stmts, class Enter, class Leave = host_walk_detail::no_leave>
bool walk_host_stmts(const P& p, Stmts&& stmts, Enter&& enter, Leave&& leave = {}) {
  for (auto s : stmts) {
    const host_walk w = host_walk_detail::call(enter, s);
    if (w == host_walk::stop) return false;
    if (w == host_walk::advance && !walk_host_stmts(p, host_access::stmt_body(p, s), enter, leave)) return false;
    leave(s);
  }
  return true;
}

/// walk_host_stmts over the body of function `f`.
template <class P, class Enter, class Leave = host_walk_detail::no_leave>
bool walk_host_function(const P& p, host_function_t<P> f, Enter&& enter, Leave&& leave = {}) {
  return walk_host_stmts(p, host_access::body(p, f), std::forward<Enter>(enter), std::forward<Leave>(leave));
}

}  // namespace neuronrw
