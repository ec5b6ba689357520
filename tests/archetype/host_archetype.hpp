// tests/archetype/host_archetype.hpp — archetype host programs, one per host concept layer,
// generated from one template like archetype_ir.hpp's IR archetypes (Boost.Graph's archetype
// idea):
//
//   archetype::host_at<host_layer L, unsigned Without = 0>
//
// Its `neuronrw::host_traits` specialization exposes exactly the requirements of layer L
// (concepts/host.hpp: host_program, rewritable_host_program, and buildable = both plus the
// builders of buildable_host_program), minus those in the `Without` bitmask (`host_req::*`, one
// bit per NEURONRW_HOST_CHECK entry, named after the concept that checks it; the compile-fail
// tests remove one at a time). The buildable layer alone also has the optional capabilities B1
// (`binary`, integer arithmetic) and F1 (`function_type`), removable with `host_opt::*`; the
// weaker layers never have them, so they ask for what they always did. The model is as poor as
// a model may be: integer handles, no std::hash for variables (only neuronrw::handle_hash),
// every range returned by value, linear searches everywhere (insert_assign_before looks for the
// block holding its statement in every block of the program). MaterializeCommDomainScopes is
// instantiated on it, which proves the pass asks for nothing beyond rewritable_host_program;
// SynthesizeAllReduceSignals runs on the buildable layer without 15-17, which proves it asks for
// nothing beyond buildable_host_program. `archetype::host_program` (the name the older tests
// use) is the rewritable instance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>

namespace neuronrw::archetype {

/// The concept layers of concepts/host.hpp, weakest first.
/// buildable has every requirement of rewritable too (the MaterializeCommDomainScopes tests use
/// B1 / F1 on it); `host_at<host_layer::buildable, host_req::has_window_factory |
/// host_req::has_attach_window | host_req::has_wrap_body>` is buildable_host_program alone.
enum class host_layer : std::uint8_t { program, rewritable, buildable };

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
  // buildable_host_program
  has_new_var = 1u << 19,        ///< requirement 18
  has_leaf_builders = 1u << 20,  ///< 19: make_int, make_string, make_symbol, make_var_ref
  has_node_builders = 1u << 21,  ///< 19: make_binary, make_list, make_op_call
  has_stmt_builders = 1u << 22,  ///< 20-22
  has_names = 1u << 23,          ///< 23-25: var_name, params, children
};
}  // namespace host_req

/// The optional capabilities of concepts/host.hpp the buildable layer has, one bit each in the
/// same `Without` mask (no NEURONRW_HOST_CHECK checks them: a program without them is still a
/// host program). The weaker layers never have them.
namespace host_opt {
enum : unsigned {
  binary = 1u << 24,         ///< B1: `binary(p, e)`
  function_type = 1u << 25,  ///< F1: `function_type(p, f)`
};
}  // namespace host_opt


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
    std::string type;         // F1: pypto's FunctionType ("Orchestration", "Graph"; empty: none)
    std::vector<int> params;  // variables
  };
  struct stmt_data {
    host_stmt_kind kind = host_stmt_kind::expr_stmt;
    int target = -1;           // assign / for: the variable
    std::vector<int> exprs;    // assign, expr_stmt, while: {value}; for: {start, stop, step};
                               // ret: the values (-1: a hole take_return_value left)
    std::vector<int> body;
    std::string scope_name;    // comm_domain_scope
    std::vector<std::int64_t> devices;
    std::vector<int> slots;    // window ids
  };
  /// What an expression of kind `other` is.
  enum class other_form : std::uint8_t { none, string, symbol, list };
  struct expr_data {
    host_expr_kind kind = host_expr_kind::other;
    int var = -1;
    std::int64_t value = 0;
    std::optional<std::string> str;
    host_callee_kind callee = host_callee_kind::op;
    std::string name;                // call: the callee; symbol: its spelling (pl.INT32)
    std::vector<int> args;           // call: positional arguments; list: elements;
                                     // binary: {lhs, rhs} ({lhs} for neg)
    std::vector<std::pair<std::string, int>> kwargs, attrs;
    source_loc loc;
    int window = -1;  // the WindowBuffer in the call's result type
    host_binary_op op = host_binary_op::add;  // binary
    other_form form = other_form::none;       // other
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
  /// The archetype's type inference, all there is of it: a variable assigned a call of one of
  /// these ops, or a reference to a distributed variable, is a distributed tensor (requirement 20:
  /// "the variable's type follows the value").
  std::vector<std::string> distributed_ops{"pld.tensor.window"};

  // ---- building ----------------------------------------------------------------------------
  int fn(std::string name, std::string level, std::string role, std::string type = {}) {
    fn_data d;
    d.name = std::move(name);
    d.level = std::move(level);
    d.role = std::move(role);
    d.type = std::move(type);
    fns.push_back(std::move(d));
    return static_cast<int>(fns.size()) - 1;
  }
  int var(std::string name, bool distributed = false) {
    vars.push_back({std::move(name), distributed, -1});
    return static_cast<int>(vars.size()) - 1;
  }
  /// A new variable, parameter of function f.
  int param(int f, std::string name, bool distributed = false) {
    const int v = var(std::move(name), distributed);
    fns[static_cast<std::size_t>(f)].params.push_back(v);
    return v;
  }
  int e(expr_data d) {
    exprs.push_back(std::move(d));
    return static_cast<int>(exprs.size()) - 1;
  }
  int e_int(std::int64_t v, source_loc loc = {}) {
    expr_data d;
    d.kind = host_expr_kind::int_const;
    d.value = v;
    d.loc = loc;
    return e(std::move(d));
  }
  int e_var(int v, source_loc loc = {}) {
    expr_data d;
    d.kind = host_expr_kind::var_ref;
    d.var = v;
    d.loc = loc;
    return e(std::move(d));
  }
  int e_str(std::string s, source_loc loc = {}) {
    expr_data d;
    d.str = std::move(s);
    d.form = other_form::string;
    d.loc = loc;
    return e(std::move(d));
  }
  /// A symbol such as `pl.INT32` (kind other, no string value).
  int e_sym(std::string spelling, source_loc loc = {}) {
    expr_data d;
    d.name = std::move(spelling);
    d.form = other_form::symbol;
    d.loc = loc;
    return e(std::move(d));
  }
  int e_list(std::vector<int> elems, source_loc loc = {}) {
    expr_data d;
    d.args = std::move(elems);
    d.form = other_form::list;
    d.loc = loc;
    return e(std::move(d));
  }
  /// `lhs op rhs` (B1); `rhs` is ignored for neg.
  int e_bin(host_binary_op op, int lhs, int rhs = -1, source_loc loc = {}) {
    expr_data d;
    d.kind = host_expr_kind::binary;
    d.op = op;
    d.args = {lhs};
    if (op != host_binary_op::neg) d.args.push_back(rhs);
    d.loc = loc;
    return e(std::move(d));
  }
  int e_call(host_callee_kind ck, std::string name, std::vector<int> args,
             std::vector<std::pair<std::string, int>> kwargs = {}, std::vector<std::pair<std::string, int>> attrs = {},
             source_loc loc = {}) {
    expr_data d;
    d.kind = host_expr_kind::call;
    d.callee = ck;
    d.name = std::move(name);
    d.args = std::move(args);
    d.kwargs = std::move(kwargs);
    d.attrs = std::move(attrs);
    d.loc = loc;
    return e(std::move(d));
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
  int s_ret(std::vector<int> values) { return s({host_stmt_kind::ret, -1, std::move(values), {}, {}, {}, {}}); }

  // ---- reading (for the tests) --------------------------------------------------------------
  const expr_data& expr(int id) const { return exprs[static_cast<std::size_t>(id)]; }
  const stmt_data& stmt(int id) const { return stmts[static_cast<std::size_t>(id)]; }
  const var_data& variable(int id) const { return vars[static_cast<std::size_t>(id)]; }
  /// The variable named `name` (linear search; the first if several), -1 when none.
  int var_named(std::string_view name) const {
    for (std::size_t i = 0; i < vars.size(); ++i)
      if (vars[i].name == name) return static_cast<int>(i);
    return -1;
  }
  /// Whether a variable assigned `value` is a distributed tensor (distributed_ops).
  bool yields_distributed(int value) const {
    const expr_data& d = expr(value);
    if (d.kind == host_expr_kind::var_ref) return variable(d.var).distributed;
    if (d.kind != host_expr_kind::call || d.callee != host_callee_kind::op) return false;
    for (const std::string& op : distributed_ops)
      if (op == d.name) return true;
    return false;
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

  // ---- building in place (the mechanics behind the buildable_host_program requirements) -----
  /// Inserts `var = value` right before statement `at` in the block holding it: every function
  /// body and statement body is searched, in turn. The variable's type follows the value.
  void insert_assign(int at, int var_id, int value) {
    const int id = s_assign(var_id, value);
    vars[static_cast<std::size_t>(var_id)].distributed = yields_distributed(value);
    auto put = [&](std::vector<int>& block) {
      for (auto it = block.begin(); it != block.end(); ++it)
        if (*it == at) {
          block.insert(it, id);
          return true;
        }
      return false;
    };
    for (fn_data& f : fns)
      if (put(f.body)) return;
    for (stmt_data& st : stmts)
      if (put(st.body)) return;
  }
  void append_arg(int call, int arg) { exprs[static_cast<std::size_t>(call)].args.push_back(arg); }
  /// Detaches return value i of `ret`, leaving the hole -1.
  int take_returned(int ret, std::size_t i) {
    int& slot = stmts[static_cast<std::size_t>(ret)].exprs.at(i);
    const int taken = slot;
    slot = -1;
    return taken;
  }
  void set_returned(int ret, std::size_t i, int value) { stmts[static_cast<std::size_t>(ret)].exprs.at(i) = value; }
};

/// The archetype host program of layer L without the requirements in `Without` (host_req bits).
template <host_layer L, unsigned Without = 0>
struct host_at : host_storage {
  static constexpr host_layer level = L;
  static constexpr unsigned without = Without;

  host_at() = default;
  explicit host_at(const host_storage& content) : host_storage(content) {}
};

/// The rewritable instance: what MaterializeCommDomainScopes and the older tests use.
using host_program = host_at<host_layer::rewritable>;
/// Every requirement and optional capability: what the SynthesizeAllReduceSignals tests use.
using host_builder = host_at<host_layer::buildable>;

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
#define NEURONRW_HOST_ARCHETYPE_OPT(bit)                                                       \
  requires(::neuronrw::archetype::host_archetype_detail::provides(                             \
      L, W, ::neuronrw::archetype::host_layer::buildable, ::neuronrw::archetype::host_opt::bit))

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
  /// passes/parallel.hpp R1: reads are loads from the archetype's vectors.
  static constexpr bool concurrent_reads = true;
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
  /// Arithmetic is `binary` only with B1 (concepts/host.hpp: a program says `binary` only when it
  /// can say what the operands are); without it, `other`, like any expression the reader does not
  /// model.
  static host_expr_kind expr_kind(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(program, has_expr_kind) {
    const host_expr_kind k = p.exprs[idx(e.id)].kind;
    if (k == host_expr_kind::binary &&
        !archetype::host_archetype_detail::provides(L, W, archetype::host_layer::buildable, archetype::host_opt::binary))
      return host_expr_kind::other;
    return k;
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

  // ---- optional capability S1 (validate/host.hpp), with the rewritable layer: what the
  // MaterializeCommDomainScopes rewrite check reads ------------------------------------------
  static const std::vector<std::int64_t>& scope_devices(const P& p, S s)
      NEURONRW_HOST_ARCHETYPE_HAS(rewritable, has_wrap_body) {
    return p.stmts[idx(s.id)].devices;
  }
  static std::vector<Win> scope_slots(const P& p, S s) NEURONRW_HOST_ARCHETYPE_HAS(rewritable, has_wrap_body) {
    std::vector<Win> out;
    for (int w : p.stmts[idx(s.id)].slots) out.push_back({w});
    return out;
  }
  static std::optional<Win> var_window(const P& p, Var v) NEURONRW_HOST_ARCHETYPE_HAS(rewritable, has_attach_window) {
    const int w = p.vars[idx(v.id)].window;
    if (w < 0) return std::nullopt;
    return Win{w};
  }
  static Var window_base(const P& p, const Win& w) NEURONRW_HOST_ARCHETYPE_HAS(rewritable, has_window_factory) {
    return {p.windows[idx(w.id)].base};
  }

  // ---- optional capabilities B1, F1 (buildable layer only) ----------------------------------
  static host_binary<E> binary(const P& p, E e) NEURONRW_HOST_ARCHETYPE_OPT(binary) {
    const auto& d = p.exprs[idx(e.id)];
    host_binary<E> b;
    b.op = d.op;
    b.lhs = E{d.args.at(0)};
    if (d.op != host_binary_op::neg) b.rhs = E{d.args.at(1)};
    return b;
  }
  static std::string_view function_type(const P& p, F f) NEURONRW_HOST_ARCHETYPE_OPT(function_type) {
    return p.fns[idx(f.id)].type;
  }

  // ---- buildable_host_program: 18-25 ---------------------------------------------------------
  static Var new_var(P& p, std::string_view name, source_loc) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_new_var) {
    return {p.var(std::string(name))};
  }
  static E make_int(P& p, std::int64_t v, source_loc l) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_leaf_builders) {
    return {p.e_int(v, l)};
  }
  static E make_string(P& p, std::string_view v, source_loc l) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_leaf_builders) {
    return {p.e_str(std::string(v), l)};
  }
  static E make_symbol(P& p, std::string_view v, source_loc l) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_leaf_builders) {
    return {p.e_sym(std::string(v), l)};
  }
  static E make_var_ref(P& p, Var v, source_loc l) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_leaf_builders) {
    return {p.e_var(v.id, l)};
  }
  static E make_binary(P& p, host_binary_op op, E lhs, E rhs, source_loc l)
      NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_node_builders) {
    return {p.e_bin(op, lhs.id, rhs.id, l)};
  }
  static E make_list(P& p, std::span<const E> elems, source_loc l) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_node_builders) {
    std::vector<int> ids;
    for (E x : elems) ids.push_back(x.id);
    return {p.e_list(std::move(ids), l)};
  }
  static E make_op_call(P& p, std::string_view op, std::span<const E> args, std::span<const host_keyword<E>> kwargs,
                        source_loc l) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_node_builders) {
    std::vector<int> ids;
    for (E x : args) ids.push_back(x.id);
    std::vector<std::pair<std::string, int>> kws;
    for (const host_keyword<E>& k : kwargs) kws.emplace_back(std::string(k.name), k.value.id);
    return {p.e_call(host_callee_kind::op, std::string(op), std::move(ids), std::move(kws), {}, l)};
  }
  static void insert_assign_before(P& p, S at, Var v, E value) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_stmt_builders) {
    p.insert_assign(at.id, v.id, value.id);
  }
  static void append_call_arg(P& p, E call, E arg) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_stmt_builders) {
    p.append_arg(call.id, arg.id);
  }
  static E take_return_value(P& p, S ret, std::size_t i) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_stmt_builders) {
    return {p.take_returned(ret.id, i)};
  }
  static void set_return_value(P& p, S ret, std::size_t i, E value)
      NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_stmt_builders) {
    p.set_returned(ret.id, i, value.id);
  }
  static std::string_view var_name(const P& p, Var v) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_names) {
    return p.vars[idx(v.id)].name;
  }
  static std::vector<Var> params(const P& p, F f) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_names) {
    return handles<Var>(p.fns[idx(f.id)].params);
  }
  /// Arguments, keyword values, attributes (call); elements (list); operands (binary).
  static std::vector<E> children(const P& p, E e) NEURONRW_HOST_ARCHETYPE_HAS(buildable, has_names) {
    const auto& d = p.exprs[idx(e.id)];
    std::vector<E> out = handles<E>(d.args);
    for (auto& [k, v] : d.kwargs) out.push_back(E{v});
    for (auto& [k, v] : d.attrs) out.push_back(E{v});
    return out;
  }
};

#undef NEURONRW_HOST_ARCHETYPE_OPT
#undef NEURONRW_HOST_ARCHETYPE_HAS

namespace neuronrw::archetype {

// Each layer's instance models its concept and not the next one.
static_assert(neuronrw::host_program<host_at<host_layer::program>> &&
              !rewritable_host_program<host_at<host_layer::program>>);
static_assert(rewritable_host_program<host_program> && !buildable_host_program<host_program>);
static_assert(buildable_host_program<host_builder> && rewritable_host_program<host_builder>);
static_assert(host_concepts_detail::has_binary<host_builder> && host_concepts_detail::has_function_type<host_builder>);
static_assert(!host_concepts_detail::has_binary<host_program> && !host_concepts_detail::has_function_type<host_program>);
static_assert(buildable_host_program<host_at<host_layer::buildable, host_req::has_window_factory |
                                                                   host_req::has_attach_window | host_req::has_wrap_body>> &&
              !rewritable_host_program<host_at<host_layer::buildable, host_req::has_wrap_body>>);

}  // namespace neuronrw::archetype
