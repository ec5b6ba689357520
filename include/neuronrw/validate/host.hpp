// neuronrw/validate/host.hpp — the rewrite checks of the host passes (docs/validation.md
// §"Host programs"): MaterializeCommDomainScopes and SynthesizeAllReduceSignals, compared with a
// snapshot of their input.
//
//   auto snap = neuronrw::snapshot_host(p);                     // before apply
//   apply_comm_domain_scopes(p, plan);
//   auto check = neuronrw::check_comm_domain_rewrite(p, plan, snap);   // rewrite_check<source_loc>
//
// What a check proves, per function of the program:
// - the statement sequence of the output, with the comm-domain scope wrappers taken away (and,
//   for SynthesizeAllReduceSignals, without the statements it synthesized), is the input's: the
//   same statements (by identity), in the same order and nesting, each evaluating the same
//   expressions (a structural digest: kinds, callees, constants, variables by identity, every
//   subexpression in order);
// - MaterializeCommDomainScopes: every window view of the output is used only inside a scope
//   holding its WindowBuffer; every WindowBuffer is the one of its allocation and a slot of
//   exactly one scope; each scope's device set equals the one an independent recomputation from
//   the output alone finds (the pass's inference run on the output with its scopes taken away),
//   and so holds the devices of every allocation in it; a function the plan does not materialize
//   keeps its scopes;
// - SynthesizeAllReduceSignals: right before each rewritten allreduce stand exactly the
//   statements its plan names (world size, signal buffer, signal view; the bound result), the
//   call's one new argument is that signal, and a returned allreduce is returned through its
//   result variable, whose value is the input's expression.
// It proves nothing about why the plan chose these scopes: only that the output is what the
// plan's rewrite of this input must be. Digests are 64-bit FNV-1a: two different expressions
// collide with probability about 2^-64.
//
// Customization point: optional capability S1 of host_traits<P> (the MaterializeCommDomainScopes
// check needs it; docs/host-programs.md):
//   static R scope_devices(const P&, stmt_handle)  — a comm-domain scope's devices (ascending;
//                                                     empty: every device)
//   static R scope_slots(const P&, stmt_handle)    — its WindowBuffers (window_handles), in order
//   static std::optional<window_handle> var_window(const P&, var_handle) — the WindowBuffer a
//                                                     variable's type carries, if any
//   static var_handle window_base(const P&, const window_handle&) — its allocation variable
// with window_handle equality-comparable. Nothing here throws or needs RTTI.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/host_walk.hpp>
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/detail/fnv1a.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/validate/check.hpp>

namespace neuronrw {

namespace host_check_detail {
template <class P> using T = host_traits<std::remove_cvref_t<P>>;

template <class P>
concept has_scope_reads =
    requires { typename T<P>::window_handle; } &&
    std::equality_comparable<typename T<P>::window_handle> &&
    requires(const P& p, typename T<P>::stmt_handle s, typename T<P>::var_handle v,
             const typename T<P>::window_handle& w) {
      { T<P>::scope_devices(p, s) } -> host_concepts_detail::range_of<std::int64_t>;
      { T<P>::scope_slots(p, s) } -> host_concepts_detail::range_of<typename T<P>::window_handle>;
      { T<P>::var_window(p, v) } -> std::same_as<std::optional<typename T<P>::window_handle>>;
      { T<P>::window_base(p, w) } -> std::same_as<typename T<P>::var_handle>;
    };
}  // namespace host_check_detail

/// Optional capability S1: a host program whose comm-domain scopes and WindowBuffers can be read.
template <class P>
concept scope_inspectable_host_program = host_program<P> && host_check_detail::has_scope_reads<P>;

/// A host program seen without its comm-domain scopes: every scope statement is replaced, in
/// place, by the statements of its body (nested scopes likewise). Everything else reads through.
/// With `only`, the program has just those functions (in that order). What the
/// MaterializeCommDomainScopes check recomputes the device sets on.
template <class P>
struct unscoped_program {
  const P* program = nullptr;
  const std::vector<host_function_t<P>>* only = nullptr;
};

namespace host_check_detail {
/// `stmts` with every comm-domain scope replaced by its body, recursively.
template <class P, class Range>
std::vector<host_stmt_t<P>> flatten_scopes(const P& p, Range&& stmts) {
  std::vector<host_stmt_t<P>> out;
  walk_host_stmts(p, std::forward<Range>(stmts), [&](host_stmt_t<P> s) {
    if (host_access::stmt_kind(p, s) == host_stmt_kind::comm_domain_scope) return host_walk::advance;
    out.push_back(s);
    return host_walk::skip;
  });
  return out;
}
}  // namespace host_check_detail

}  // namespace neuronrw

template <class P>
struct neuronrw::host_traits<neuronrw::unscoped_program<P>> {
  using base = host_traits<P>;
  using W = unscoped_program<P>;
  using function_handle = typename base::function_handle;
  using stmt_handle = typename base::stmt_handle;
  using expr_handle = typename base::expr_handle;
  using var_handle = typename base::var_handle;

  static std::vector<function_handle> functions(const W& w) {
    if (w.only) return *w.only;
    std::vector<function_handle> fs;
    for (auto f : base::functions(*w.program)) fs.push_back(f);
    return fs;
  }
  static std::string_view function_name(const W& w, function_handle f) { return base::function_name(*w.program, f); }
  static std::string_view level(const W& w, function_handle f) { return base::level(*w.program, f); }
  static std::string_view role(const W& w, function_handle f) { return base::role(*w.program, f); }
  static std::string_view function_type(const W& w, function_handle f)
    requires host_concepts_detail::has_function_type<P>
  {
    return base::function_type(*w.program, f);
  }
  static std::vector<stmt_handle> body(const W& w, function_handle f) {
    return host_check_detail::flatten_scopes(*w.program, base::body(*w.program, f));
  }
  static host_stmt_kind stmt_kind(const W& w, stmt_handle s) { return base::stmt_kind(*w.program, s); }
  static std::vector<stmt_handle> stmt_body(const W& w, stmt_handle s) {
    return host_check_detail::flatten_scopes(*w.program, base::stmt_body(*w.program, s));
  }
  static decltype(auto) operands(const W& w, stmt_handle s) { return base::operands(*w.program, s); }
  static var_handle assign_target(const W& w, stmt_handle s) { return base::assign_target(*w.program, s); }
  static expr_handle assign_value(const W& w, stmt_handle s) { return base::assign_value(*w.program, s); }
  static var_handle loop_var(const W& w, stmt_handle s) { return base::loop_var(*w.program, s); }
  static expr_handle loop_start(const W& w, stmt_handle s) { return base::loop_start(*w.program, s); }
  static expr_handle loop_stop(const W& w, stmt_handle s) { return base::loop_stop(*w.program, s); }
  static expr_handle loop_step(const W& w, stmt_handle s) { return base::loop_step(*w.program, s); }
  static host_expr_kind expr_kind(const W& w, expr_handle e) { return base::expr_kind(*w.program, e); }
  static var_handle referenced_var(const W& w, expr_handle e) { return base::referenced_var(*w.program, e); }
  static std::int64_t int_value(const W& w, expr_handle e) { return base::int_value(*w.program, e); }
  static std::optional<std::string_view> string_value(const W& w, expr_handle e) {
    return base::string_value(*w.program, e);
  }
  static host_binary<expr_handle> binary(const W& w, expr_handle e)
    requires host_concepts_detail::has_binary<P>
  {
    return base::binary(*w.program, e);
  }
  static host_callee_kind callee_kind(const W& w, expr_handle e) { return base::callee_kind(*w.program, e); }
  static std::string_view callee_name(const W& w, expr_handle e) { return base::callee_name(*w.program, e); }
  static decltype(auto) call_args(const W& w, expr_handle e) { return base::call_args(*w.program, e); }
  static std::optional<expr_handle> keyword_arg(const W& w, expr_handle e, std::string_view n) {
    return base::keyword_arg(*w.program, e, n);
  }
  static std::optional<expr_handle> call_attr(const W& w, expr_handle e, std::string_view n) {
    return base::call_attr(*w.program, e, n);
  }
  static source_loc location(const W& w, expr_handle e) { return base::location(*w.program, e); }
  static std::string_view source_file(const W& w) { return base::source_file(*w.program); }
  static bool can_carry_window(const W& w, var_handle v) { return base::can_carry_window(*w.program, v); }
};

namespace neuronrw {

namespace host_check_detail {

/// A structural digest of expressions: pre-order over kind, payload (variable identity, integer,
/// callee, operator, string) and child count, without recursion. `skip` leaves subexpressions out
/// (SynthesizeAllReduceSignals' new signal argument); `inlined` reads a variable reference as the
/// expression given (its bound result: `r = value; return r` digests as `return value`).
template <class P>
struct expr_digest {
  using expr_t = host_expr_t<P>;
  using var_t = host_var_t<P>;
  const P& p;
  std::vector<expr_t> skip{};
  std::vector<std::pair<var_t, expr_t>> inlined{};

  std::vector<expr_t> children_of(expr_t e, host_expr_kind k) const {
    std::vector<expr_t> out;
    if constexpr (host_concepts_detail::has_names<std::remove_cvref_t<P>>) {
      for (auto c : host_traits<std::remove_cvref_t<P>>::children(p, e)) out.push_back(c);
      (void)k;
    } else {
      if (k == host_expr_kind::call)
        for (auto c : host_access::call_args(p, e)) out.push_back(c);
      if constexpr (host_concepts_detail::has_binary<std::remove_cvref_t<P>>)
        if (k == host_expr_kind::binary) {
          const auto b = host_access::binary(p, e);
          out.push_back(b.lhs);
          if (b.op != host_binary_op::neg) out.push_back(b.rhs);
        }
    }
    std::erase_if(out, [&](const expr_t& c) { return std::find(skip.begin(), skip.end(), c) != skip.end(); });
    return out;
  }

  void add(detail::fnv1a_64& h, expr_t root) const {
    std::vector<expr_t> stack{root};
    while (!stack.empty()) {
      expr_t e = stack.back();
      stack.pop_back();
      host_expr_kind k = host_access::expr_kind(p, e);
      if (k == host_expr_kind::var_ref && !inlined.empty()) {
        const var_t v = host_access::referenced_var(p, e);
        auto it = std::find_if(inlined.begin(), inlined.end(), [&](const auto& kv) { return kv.first == v; });
        if (it != inlined.end()) {
          stack.push_back(it->second);
          continue;
        }
      }
      h.update_byte(static_cast<std::uint8_t>(k));
      switch (k) {
        case host_expr_kind::var_ref:
          h.mix(static_cast<std::uint64_t>(handle_hash<var_t>{}(host_access::referenced_var(p, e))));
          break;
        case host_expr_kind::int_const: h.mix(static_cast<std::uint64_t>(host_access::int_value(p, e))); break;
        case host_expr_kind::call:
          h.update_byte(static_cast<std::uint8_t>(host_access::callee_kind(p, e)));
          h.update(host_access::callee_name(p, e));
          h.update_byte(0);
          break;
        case host_expr_kind::binary:
          h.update_byte(static_cast<std::uint8_t>(host_access::binary(p, e).op));
          break;
        case host_expr_kind::other:
          if (auto s = host_access::string_value(p, e)) {
            h.update(*s);
            h.update_byte(0);
          }
          break;
      }
      auto cs = children_of(e, k);
      h.mix(cs.size());
      for (auto it = cs.rbegin(); it != cs.rend(); ++it) stack.push_back(*it);
    }
  }
};

}  // namespace host_check_detail

/// One statement of a function as a snapshot records it: its identity, its nesting depth (scopes
/// do not count), a digest of what it evaluates and where it is.
template <class P>
struct host_stmt_record {
  host_stmt_t<P> stmt;
  std::uint64_t digest = 0;
  std::uint32_t depth = 0;
  host_stmt_kind kind = host_stmt_kind::other;
  source_loc loc;
};

/// A host program's statements before a rewrite, per function in program order.
template <class P>
struct host_snapshot {
  struct function {
    host_function_t<P> fn;
    std::vector<host_stmt_record<P>> stmts;
    std::size_t scopes = 0;  ///< comm-domain scope statements
  };
  std::vector<function> functions;
  std::size_t statements = 0;
  std::size_t bytes() const noexcept {
    return functions.size() * sizeof(function) + statements * sizeof(host_stmt_record<P>);
  }
};

namespace host_check_detail {

template <class P>
source_loc stmt_location(const P& p, host_stmt_t<P> s) {
  for (auto e : host_access::operands(p, s)) return host_access::location(p, e);
  return {};
}

template <class P>
std::uint64_t stmt_digest(const P& p, host_stmt_t<P> s, const expr_digest<P>& ed) {
  detail::fnv1a_64 h;
  const host_stmt_kind k = host_access::stmt_kind(p, s);
  h.update_byte(static_cast<std::uint8_t>(k));
  if (k == host_stmt_kind::assign)
    h.mix(static_cast<std::uint64_t>(handle_hash<host_var_t<P>>{}(host_access::assign_target(p, s))));
  if (k == host_stmt_kind::for_range)
    h.mix(static_cast<std::uint64_t>(handle_hash<host_var_t<P>>{}(host_access::loop_var(p, s))));
  std::uint64_t n = 0;
  for (auto e : host_access::operands(p, s)) {
    ed.add(h, e);
    ++n;
  }
  h.mix(n);
  return h.value();
}

/// Every statement of `f` in program order with its depth (algorithms/host_walk.hpp); scopes are
/// transparent and reported to `on_scope(scope_stmt, enclosing_scope_index)` as met (their index
/// is the call's order), and each statement gets the index of its innermost scope (npos: none)
/// through `on_stmt(stmt, depth, scope)`.
template <class P, class OnScope, class OnStmt>
void walk_function(const P& p, host_function_t<P> f, OnScope&& on_scope, OnStmt&& on_stmt) {
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<std::size_t> open;  // the scopes around the walk, innermost last
  std::uint32_t depth = 0;
  std::size_t scopes = 0;
  walk_host_function(
      p, f,
      [&](host_stmt_t<P> s) {
        const std::size_t scope = open.empty() ? npos : open.back();
        if (host_access::stmt_kind(p, s) == host_stmt_kind::comm_domain_scope) {
          on_scope(s, scope);
          open.push_back(scopes++);
        } else {
          on_stmt(s, depth, scope);
          ++depth;
        }
      },
      [&](host_stmt_t<P> s) {
        if (host_access::stmt_kind(p, s) == host_stmt_kind::comm_domain_scope)
          open.pop_back();
        else
          --depth;
      });
}

inline std::string_view stmt_words(host_stmt_kind k) {
  switch (k) {
    case host_stmt_kind::assign: return "an assignment";
    case host_stmt_kind::for_range: return "a for loop";
    case host_stmt_kind::while_loop: return "a while loop";
    case host_stmt_kind::expr_stmt: return "an expression statement";
    case host_stmt_kind::ret: return "a return";
    case host_stmt_kind::comm_domain_scope: return "a comm-domain scope";
    case host_stmt_kind::other: break;
  }
  return "a statement";
}

template <class P>
std::string record_words(const host_stmt_record<P>& r) {
  std::string s(stmt_words(r.kind));
  if (r.loc.line != 0) s += " at line " + std::to_string(r.loc.line);
  return s;
}

}  // namespace host_check_detail

/// The snapshot a host check compares the output with: every function's statements (O(statements
/// + expression nodes)).
template <class P>
host_snapshot<P> snapshot_host(const P& p) {
  static_assert(require_host_program<P>());
  host_snapshot<P> snap;
  const host_check_detail::expr_digest<P> ed{p};
  for (auto f : host_access::functions(p)) {
    typename host_snapshot<P>::function fs{f, {}, 0};
    host_check_detail::walk_function(
        p, f, [&](auto, std::size_t) { ++fs.scopes; },
        [&](auto s, std::uint32_t depth, std::size_t) {
          fs.stmts.push_back({s, host_check_detail::stmt_digest(p, s, ed), depth, host_access::stmt_kind(p, s),
                              host_check_detail::stmt_location(p, s)});
        });
    snap.statements += fs.stmts.size();
    snap.functions.push_back(std::move(fs));
  }
  return snap;
}

namespace host_check_detail {

/// Compares one function's output statements with its snapshot. `synthesized(s, input_pos)`
/// decides an output statement the input did not have (input_pos: the input statement it stands
/// before); `digest_of(s, input_pos)` digests an output statement that is the input's statement
/// input_pos (SynthesizeAllReduceSignals adjusts the rewritten ones). Reports the first difference of the function only (the rest would cascade).
template <class P, class Synthesized, class DigestOf>
void compare_statements(const P& p, const typename host_snapshot<P>::function& in,
                        const std::vector<host_stmt_record<P>>& out, rewrite_check<source_loc>& check,
                        Synthesized&& synthesized, DigestOf&& digest_of) {
  const std::string fname(host_access::function_name(p, in.fn));
  std::size_t i = 0;
  for (const auto& o : out) {
    const bool known = i < in.stmts.size() && in.stmts[i].stmt == o.stmt;
    if (!known) {
      if (synthesized(o, i)) continue;
      if (i < in.stmts.size())
        check.add(rewrite_fault::statement_changed, o.loc,
                  "statement " + std::to_string(i + 1) + " of '" + fname +
                      "' is not the input's (scopes aside): a statement was dropped, added or moved",
                  record_words(in.stmts[i]), record_words(o));
      else
        check.add(rewrite_fault::statement_changed, o.loc,
                  "'" + fname + "' has a statement after the input's last one", "", record_words(o));
      return;
    }
    const auto& r = in.stmts[i];
    if (r.depth != o.depth || r.digest != digest_of(o, i)) {
      check.add(rewrite_fault::statement_changed, o.loc,
                "statement " + std::to_string(i + 1) + " of '" + fname + "' " +
                    (r.depth != o.depth ? "changed its nesting" : "evaluates other expressions than in the input"),
                record_words(r) + " at depth " + std::to_string(r.depth),
                record_words(o) + " at depth " + std::to_string(o.depth));
      return;
    }
    ++i;
  }
  if (i < in.stmts.size())
    check.add(rewrite_fault::statement_changed, out.empty() ? in.stmts[i].loc : out.back().loc,
              "'" + fname + "' lost statement " + std::to_string(i + 1) + " of the input",
              record_words(in.stmts[i]), "nothing");
}

template <class P>
std::vector<host_stmt_record<P>> output_records(const P& p, host_function_t<P> f, const expr_digest<P>& ed) {
  std::vector<host_stmt_record<P>> out;
  walk_function(p, f, [](auto, std::size_t) {}, [&](auto s, std::uint32_t depth, std::size_t) {
    out.push_back({s, stmt_digest(p, s, ed), depth, host_access::stmt_kind(p, s), stmt_location(p, s)});
  });
  return out;
}

}  // namespace host_check_detail

}  // namespace neuronrw
