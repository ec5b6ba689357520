// tests/archetype/host_archetype.hpp — archetype host programs, one per host concept layer,
// generated from one template like archetype_ir.hpp's IR archetypes (Boost.Graph's archetype
// idea):
//
//   archetype::host_at<host_layer L, unsigned Without = 0>
//
// Its `neuronrw::host_traits` specialization exposes exactly the requirements of layer L
// (concepts/host.hpp: host_program, rewritable_host_program), minus those in the `Without`
// bitmask (`host_req::*`, one bit per NEURONRW_HOST_CHECK entry, named after the concept that
// checks it; the compile-fail tests remove one at a time). The model is as poor as a model may
// be: integer handles, no std::hash for variables (only neuronrw::handle_hash), every range
// returned by value, linear searches everywhere. MaterializeCommDomainScopes is instantiated on
// it, which proves the pass asks for nothing beyond rewritable_host_program.
// `archetype::host_program` (the name the older tests use) is the full instance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>

namespace neuronrw::archetype {

/// The concept layers of concepts/host.hpp, weakest first.
enum class host_layer : std::uint8_t { program, rewritable };

/// One bit per requirement check of concepts/host.hpp (its NEURONRW_HOST_CHECK entries), named
/// after the concept each entry tests, in the header's order. Removing a bit removes that
/// requirement and, where it can be done, nothing else (has_window_factory drops
/// make_window_buffer but keeps the window_handle type requirements 16-17 name); removing the
/// handle types (has_handles) necessarily breaks every later requirement that names them.
namespace host_req {
enum : unsigned {
  // host_program
  specialized = 1u << 0,  ///< no host_traits specialization at all (the primary template)
  has_handles = 1u << 1,
  handles_regular = 1u << 2,  ///< var_handle loses its handle_hash
  has_functions = 1u << 3,
  has_function_info = 1u << 4,
  has_body = 1u << 5,
  has_stmt_kind = 1u << 6,
  has_stmt_body = 1u << 7,
  has_operands = 1u << 8,
  has_assign = 1u << 9,
  has_loop = 1u << 10,
  has_expr_kind = 1u << 11,
  has_leaves = 1u << 12,
  has_calls = 1u << 13,
  has_locations = 1u << 14,
  has_window_query = 1u << 15,
  // rewritable_host_program
  has_window_factory = 1u << 16,
  has_attach_window = 1u << 17,
  has_wrap_body = 1u << 18,
};
}  // namespace host_req


struct hfn {
  int id = -1;
  friend bool operator==(hfn, hfn) = default;
};
struct hstmt {
  int id = -1;
  friend bool operator==(hstmt, hstmt) = default;
};
struct hexpr {
  int id = -1;
  friend bool operator==(hexpr, hexpr) = default;
};
/// A variable handle; only the Hashable one has a handle_hash (see host_req::handles_regular).
template <bool Hashable>
struct basic_hvar {
  int id = -1;
  friend bool operator==(basic_hvar, basic_hvar) = default;
};
using hvar = basic_hvar<true>;
struct hwindow {
  int id = -1;
  friend bool operator==(hwindow, hwindow) = default;
};

/// The data every instance shares: plain vectors of records, every node referring to others by
/// index, and the builders the tests use.
struct host_storage {
  struct fn_data {
    std::string name, level, role;
    std::vector<int> body;
  };
  struct stmt_data {
    host_stmt_kind kind = host_stmt_kind::expr_stmt;
    int target = -1;           // assign / for: the variable
    std::vector<int> exprs;    // assign, expr_stmt, while: {value}; for: {start, stop, step}
    std::vector<int> body;
    std::string scope_name;    // comm_domain_scope
    std::vector<std::int64_t> devices;
    std::vector<int> slots;    // window ids
  };
  struct expr_data {
    host_expr_kind kind = host_expr_kind::other;
    int var = -1;
    std::int64_t value = 0;
    std::optional<std::string> str;
    host_callee_kind callee = host_callee_kind::op;
    std::string name;
    std::vector<int> args;
    std::vector<std::pair<std::string, int>> kwargs, attrs;
    source_loc loc;
    int window = -1;  // the WindowBuffer in the call's result type
  };
  struct var_data {
    std::string name;
    bool distributed = false;  // its type is a distributed tensor
    int window = -1;
  };
  struct window_data {
    int base = -1;
    int size = -1;
  };
  std::vector<fn_data> fns;
  std::vector<stmt_data> stmts;
  std::vector<expr_data> exprs;
  std::vector<var_data> vars;
  std::vector<window_data> windows;
  std::string file = "archetype.py";

  // ---- building ----------------------------------------------------------------------------
  int fn(std::string name, std::string level, std::string role) {
    fns.push_back({std::move(name), std::move(level), std::move(role), {}});
    return static_cast<int>(fns.size()) - 1;
  }
  int var(std::string name, bool distributed = false) {
    vars.push_back({std::move(name), distributed, -1});
    return static_cast<int>(vars.size()) - 1;
  }
  int e(expr_data d) {
    exprs.push_back(std::move(d));
    return static_cast<int>(exprs.size()) - 1;
  }
  int e_int(std::int64_t v) { return e({host_expr_kind::int_const, -1, v, {}, {}, {}, {}, {}, {}, {}, -1}); }
  int e_var(int v) { return e({host_expr_kind::var_ref, v, 0, {}, {}, {}, {}, {}, {}, {}, -1}); }
  int e_str(std::string s) { return e({host_expr_kind::other, -1, 0, std::move(s), {}, {}, {}, {}, {}, {}, -1}); }
  int e_call(host_callee_kind ck, std::string name, std::vector<int> args,
             std::vector<std::pair<std::string, int>> kwargs = {}, std::vector<std::pair<std::string, int>> attrs = {},
             source_loc loc = {}) {
    return e({host_expr_kind::call, -1, 0, {}, ck, std::move(name), std::move(args), std::move(kwargs),
              std::move(attrs), loc, -1});
  }
  int s(stmt_data d) {
    stmts.push_back(std::move(d));
    return static_cast<int>(stmts.size()) - 1;
  }
  int s_assign(int v, int value) { return s({host_stmt_kind::assign, v, {value}, {}, {}, {}, {}}); }
  int s_expr(int value) { return s({host_stmt_kind::expr_stmt, -1, {value}, {}, {}, {}, {}}); }
  int s_for(int v, int start, int stop, int step, std::vector<int> body) {
    return s({host_stmt_kind::for_range, v, {start, stop, step}, std::move(body), {}, {}, {}});
  }
  int s_while(int cond, std::vector<int> body) {
    return s({host_stmt_kind::while_loop, -1, {cond}, std::move(body), {}, {}, {}});
  }

  // ---- rewriting (the mechanics behind the rewritable_host_program requirements) -----------
  int make_window(int base, int size) {
    windows.push_back({base, size});
    return static_cast<int>(windows.size()) - 1;
  }
  void attach(int var_id, int call, int window) {
    vars[static_cast<std::size_t>(var_id)].window = window;
    exprs[static_cast<std::size_t>(call)].window = window;
  }
  /// Replaces function f's body by one comm-domain scope holding it.
  void wrap(int f, std::string_view name, std::vector<std::int64_t> devices, std::vector<int> slots) {
    stmt_data d;
    d.kind = host_stmt_kind::comm_domain_scope;
    d.body = fns[static_cast<std::size_t>(f)].body;
    d.scope_name = std::string(name);
    d.devices = std::move(devices);
    d.slots = std::move(slots);
    const int id = s(std::move(d));
    fns[static_cast<std::size_t>(f)].body = {id};
  }
};

/// The archetype host program of layer L without the requirements in `Without` (host_req bits).
template <host_layer L, unsigned Without = 0>
struct host_at : host_storage {
  static constexpr host_layer level = L;
  static constexpr unsigned without = Without;

  host_at() = default;
  explicit host_at(const host_storage& content) : host_storage(content) {}
};

/// The full instance: what MaterializeCommDomainScopes and the older tests use.
using host_program = host_at<host_layer::rewritable>;

namespace host_archetype_detail {

/// True when an instance of layer L without W provides requirement `bit` of layer `at`.
constexpr bool provides(host_layer l, unsigned without, host_layer at, unsigned bit) {
  return l >= at && (without & bit) == 0;
}

template <bool, class Var>
struct handle_decls {};
template <class Var>
struct handle_decls<true, Var> {
  using function_handle = hfn;
  using stmt_handle = hstmt;
  using expr_handle = hexpr;
  using var_handle = Var;
};
template <bool>
struct window_decl {};
template <>
struct window_decl<true> {
  using window_handle = hwindow;
};

}  // namespace host_archetype_detail

}  // namespace neuronrw::archetype

template <>
struct neuronrw::handle_hash<neuronrw::archetype::hvar> {
  std::size_t operator()(neuronrw::archetype::hvar v) const noexcept { return std::hash<int>{}(v.id); }
};

#define NEURONRW_HOST_ARCHETYPE_HAS(at, bit)                                                   \
  requires(::neuronrw::archetype::host_archetype_detail::provides(                             \
      L, W, ::neuronrw::archetype::host_layer::at, ::neuronrw::archetype::host_req::bit))

/// The traits of every instance but those without a specialization (host_req::specialized), which
/// fall back to the empty primary template. Each member is there exactly when its requirement is
/// (a trailing requires-clause, or a base class for the types).
template <neuronrw::archetype::host_layer L, unsigned W>
  requires((W & neuronrw::archetype::host_req::specialized) == 0)
struct neuronrw::host_traits<neuronrw::archetype::host_at<L, W>>
    : neuronrw::archetype::host_archetype_detail::handle_decls<
          (W & neuronrw::archetype::host_req::has_handles) == 0,
          neuronrw::archetype::basic_hvar<(W & neuronrw::archetype::host_req::handles_regular) == 0>>,
      neuronrw::archetype::host_archetype_detail::window_decl<(L >= neuronrw::archetype::host_layer::rewritable)> {
 private:
  using P = neuronrw::archetype::host_at<L, W>;
  using F = archetype::hfn;
  using S = archetype::hstmt;
  using E = archetype::hexpr;
  using Var = archetype::basic_hvar<(W & archetype::host_req::handles_regular) == 0>;
  using Win = archetype::hwindow;
  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }
  template <class H>
  static std::vector<H> handles(const std::vector<int>& ids) {
    std::vector<H> out;
    for (int i : ids) out.push_back(H{i});
    return out;
  }

 public:
  static std::vector<F> functions(const P& p) NEURONRW_HOST_ARCHETYPE_HAS(program, has_functions) {
    std::vector<F> out;
    for (int i = 0; i < static_cast<int>(p.fns.size()); ++i) out.push_back({i});
    return out;
  }
  static std::string_view function_name(const P& p, F f) NEURONRW_HOST_ARCHETYPE_HAS(program, has_function_info) {
    return p.fns[idx(f.id)].name;
  }
  static std::string_view level(const P& p, F f) NEURONRW_HOST_ARCHETYPE_HAS(program, has_function_info) {
    return p.fns[idx(f.id)].level;
  }
  static std::string_view role(const P& p, F f) NEURONRW_HOST_ARCHETYPE_HAS(program, has_function_info) {
    return p.fns[idx(f.id)].role;
  }
  static std::vector<S> body(const P& p, F f) NEURONRW_HOST_ARCHETYPE_HAS(program, has_body) {
    return handles<S>(p.fns[idx(f.id)].body);
  }
  static host_stmt_kind stmt_kind(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_stmt_kind) {
    return p.stmts[idx(s.id)].kind;
  }
  static std::vector<S> stmt_body(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_stmt_body) {
    return handles<S>(p.stmts[idx(s.id)].body);
  }
  static std::vector<E> operands(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_operands) {
    return handles<E>(p.stmts[idx(s.id)].exprs);
  }
  static Var assign_target(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_assign) {
    return {p.stmts[idx(s.id)].target};
  }
  static E assign_value(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_assign) {
    return {p.stmts[idx(s.id)].exprs.at(0)};
  }
  static Var loop_var(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_loop) {
    return {p.stmts[idx(s.id)].target};
  }
  static E loop_start(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_loop) {
    return {p.stmts[idx(s.id)].exprs.at(0)};
  }
  static E loop_stop(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_loop) {
    return {p.stmts[idx(s.id)].exprs.at(1)};
  }
  static E loop_step(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(program, has_loop) {
    return {p.stmts[idx(s.id)].exprs.at(2)};
  }
  static host_expr_kind expr_kind(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(program, has_expr_kind) {
    return p.exprs[idx(e.id)].kind;
  }
  static Var referenced_var(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(program, has_leaves) {
    return {p.exprs[idx(e.id)].var};
  }
  static std::int64_t int_value(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(program, has_leaves) {
    return p.exprs[idx(e.id)].value;
  }
  static std::optional<std::string_view> string_value(const P& p, E e)
      NEURONRW_HOST_ARCHETYPE_HAS(program, has_leaves) {
    const auto& d = p.exprs[idx(e.id)];
    if (!d.str) return std::nullopt;
    return std::string_view(*d.str);
  }
  static host_callee_kind callee_kind(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(program, has_calls) {
    return p.exprs[idx(e.id)].callee;
  }
  static std::string_view callee_name(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(program, has_calls) {
    return p.exprs[idx(e.id)].name;
  }
  static std::vector<E> call_args(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(program, has_calls) {
    return handles<E>(p.exprs[idx(e.id)].args);
  }
  static std::optional<E> keyword_arg(const P& p, E e, std::string_view n) NEURONRW_HOST_ARCHETYPE_HAS(program, has_calls) {
    for (auto& [k, v] : p.exprs[idx(e.id)].kwargs)
      if (k == n) return E{v};
    return std::nullopt;
  }
  static std::optional<E> call_attr(const P& p, E e, std::string_view n) NEURONRW_HOST_ARCHETYPE_HAS(program, has_calls) {
    for (auto& [k, v] : p.exprs[idx(e.id)].attrs)
      if (k == n) return E{v};
    return std::nullopt;
  }
  static source_loc location(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(program, has_locations) {
    return p.exprs[idx(e.id)].loc;
  }
  static std::string_view source_file(const P& p) NEURONRW_HOST_ARCHETYPE_HAS(program, has_locations) {
    return p.file;
  }
  static bool can_carry_window(const P& p, Var v) NEURONRW_HOST_ARCHETYPE_HAS(program, has_window_query) {
    return p.vars[idx(v.id)].distributed;
  }

  static Win make_window_buffer(P& p, const window_request<Var, E>& r)
      NEURONRW_HOST_ARCHETYPE_HAS(rewritable, has_window_factory) {
    return {p.make_window(r.base.id, r.size.id)};
  }
  static void attach_window(P& p, Var v, E call, const Win& w) NEURONRW_HOST_ARCHETYPE_HAS(rewritable, has_attach_window) {
    p.attach(v.id, call.id, w.id);
  }
  static void wrap_body(P& p, F f, const scope_request<Win>& r) NEURONRW_HOST_ARCHETYPE_HAS(rewritable, has_wrap_body) {
    std::vector<int> slots;
    for (auto w : r.slots) slots.push_back(w.id);
    p.wrap(f.id, r.name, std::vector<std::int64_t>(r.devices.begin(), r.devices.end()), std::move(slots));
  }
};

#undef NEURONRW_HOST_ARCHETYPE_HAS

namespace neuronrw::archetype {

// Each layer's instance models its concept and not the next one.
static_assert(neuronrw::host_program<host_at<host_layer::program>> &&
              !rewritable_host_program<host_at<host_layer::program>>);
static_assert(rewritable_host_program<host_program>);

}  // namespace neuronrw::archetype
