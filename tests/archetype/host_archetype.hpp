// tests/archetype/host_archetype.hpp — a minimal host program that models the host-program
// concepts and nothing more (Boost.Graph's archetype idea, like archetype_ir.hpp for the SSA IR):
// integer handles, no std::hash for variables (only neuronrw::handle_hash), every range returned
// by value, linear searches everywhere. MaterializeCommDomainScopes is instantiated on it, which
// proves the pass asks for nothing beyond rewritable_host_program.
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
struct hvar {
  int id = -1;
  friend bool operator==(hvar, hvar) = default;
};
struct hwindow {
  int id = -1;
  friend bool operator==(hwindow, hwindow) = default;
};

/// Plain vectors of records; every node refers to others by index.
struct host_program {
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
};

}  // namespace neuronrw::archetype

template <>
struct neuronrw::handle_hash<neuronrw::archetype::hvar> {
  std::size_t operator()(neuronrw::archetype::hvar v) const noexcept { return std::hash<int>{}(v.id); }
};

template <>
struct neuronrw::host_traits<neuronrw::archetype::host_program> {
  using P = neuronrw::archetype::host_program;
  using function_handle = archetype::hfn;
  using stmt_handle = archetype::hstmt;
  using expr_handle = archetype::hexpr;
  using var_handle = archetype::hvar;
  using window_handle = archetype::hwindow;

  static std::vector<function_handle> functions(const P& p) {
    std::vector<function_handle> out;
    for (int i = 0; i < static_cast<int>(p.fns.size()); ++i) out.push_back({i});
    return out;
  }
  static std::string_view function_name(const P& p, function_handle f) { return p.fns[idx(f.id)].name; }
  static std::string_view level(const P& p, function_handle f) { return p.fns[idx(f.id)].level; }
  static std::string_view role(const P& p, function_handle f) { return p.fns[idx(f.id)].role; }
  static std::vector<stmt_handle> body(const P& p, function_handle f) { return stmts(p.fns[idx(f.id)].body); }
  static host_stmt_kind stmt_kind(const P& p, stmt_handle s) { return p.stmts[idx(s.id)].kind; }
  static std::vector<stmt_handle> stmt_body(const P& p, stmt_handle s) { return stmts(p.stmts[idx(s.id)].body); }
  static std::vector<expr_handle> operands(const P& p, stmt_handle s) {
    std::vector<expr_handle> out;
    for (int e : p.stmts[idx(s.id)].exprs) out.push_back({e});
    return out;
  }
  static var_handle assign_target(const P& p, stmt_handle s) { return {p.stmts[idx(s.id)].target}; }
  static expr_handle assign_value(const P& p, stmt_handle s) { return {p.stmts[idx(s.id)].exprs.at(0)}; }
  static var_handle loop_var(const P& p, stmt_handle s) { return {p.stmts[idx(s.id)].target}; }
  static expr_handle loop_start(const P& p, stmt_handle s) { return {p.stmts[idx(s.id)].exprs.at(0)}; }
  static expr_handle loop_stop(const P& p, stmt_handle s) { return {p.stmts[idx(s.id)].exprs.at(1)}; }
  static expr_handle loop_step(const P& p, stmt_handle s) { return {p.stmts[idx(s.id)].exprs.at(2)}; }
  static host_expr_kind expr_kind(const P& p, expr_handle e) { return p.exprs[idx(e.id)].kind; }
  static var_handle referenced_var(const P& p, expr_handle e) { return {p.exprs[idx(e.id)].var}; }
  static std::int64_t int_value(const P& p, expr_handle e) { return p.exprs[idx(e.id)].value; }
  static std::optional<std::string_view> string_value(const P& p, expr_handle e) {
    const auto& d = p.exprs[idx(e.id)];
    if (!d.str) return std::nullopt;
    return std::string_view(*d.str);
  }
  static host_callee_kind callee_kind(const P& p, expr_handle e) { return p.exprs[idx(e.id)].callee; }
  static std::string_view callee_name(const P& p, expr_handle e) { return p.exprs[idx(e.id)].name; }
  static std::vector<expr_handle> call_args(const P& p, expr_handle e) {
    std::vector<expr_handle> out;
    for (int a : p.exprs[idx(e.id)].args) out.push_back({a});
    return out;
  }
  static std::optional<expr_handle> keyword_arg(const P& p, expr_handle e, std::string_view n) {
    for (auto& [k, v] : p.exprs[idx(e.id)].kwargs)
      if (k == n) return expr_handle{v};
    return std::nullopt;
  }
  static std::optional<expr_handle> call_attr(const P& p, expr_handle e, std::string_view n) {
    for (auto& [k, v] : p.exprs[idx(e.id)].attrs)
      if (k == n) return expr_handle{v};
    return std::nullopt;
  }
  static source_loc location(const P& p, expr_handle e) { return p.exprs[idx(e.id)].loc; }
  static std::string_view source_file(const P& p) { return p.file; }
  static bool can_carry_window(const P& p, var_handle v) { return p.vars[idx(v.id)].distributed; }

  static window_handle make_window_buffer(P& p, const window_request<var_handle, expr_handle>& r) {
    p.windows.push_back({r.base.id, r.size.id});
    return {static_cast<int>(p.windows.size()) - 1};
  }
  static void attach_window(P& p, var_handle v, expr_handle call, const window_handle& w) {
    p.vars[idx(v.id)].window = w.id;
    p.exprs[idx(call.id)].window = w.id;
  }
  static void wrap_body(P& p, function_handle f, const scope_request<window_handle>& r) {
    P::stmt_data d;
    d.kind = host_stmt_kind::comm_domain_scope;
    d.body = p.fns[idx(f.id)].body;
    d.scope_name = std::string(r.name);
    d.devices.assign(r.devices.begin(), r.devices.end());
    for (auto w : r.slots) d.slots.push_back(w.id);
    const int id = p.s(std::move(d));
    p.fns[idx(f.id)].body = {id};
  }

 private:
  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }
  static std::vector<stmt_handle> stmts(const std::vector<int>& ids) {
    std::vector<stmt_handle> out;
    for (int i : ids) out.push_back({i});
    return out;
  }
};
