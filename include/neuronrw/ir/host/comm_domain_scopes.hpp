// neuronrw/ir/host/comm_domain_scopes.hpp — MaterializeCommDomainScopes on the reference host IR:
// the driver's entry point, and a checker of the pass's output invariants (pypto's
// CommDomainScopesMaterialized property verifier, plus the view typing docs/host-programs.md
// lists under its output invariants):
//   1. no comm-domain scope is empty;
//   2. no slot is null;
//   3. a WindowBuffer is a slot of at most one scope in the whole program;
//   4. in a host orchestrator that holds scopes, every window view (`v = window(buf, ...)` on an
//      allocation variable) is typed with a WindowBuffer whose base is `buf`, its defining call
//      carries the same one, all views of one allocation share one object, and that object is a
//      slot of an enclosing scope.
//
//   materialize_comm_domain_scopes(host::program&) -> diagnostics
//   check_comm_domain_scopes(const host::program&, const comm_domain_options& = {}) -> diagnostics
//
// Customization points: the names in comm_domain_options (levels, role, op names).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/traits.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>

namespace neuronrw {

/// The driver's entry point on the reference host IR: empty = success (program changed or already
/// materialized); on error the program is unchanged.
inline diagnostics materialize_comm_domain_scopes(host::program& p) {
  return materialize_comm_domain_scopes<host::program>(p, comm_domain_options{});
}

namespace comm_domain_detail {

class checker {
 public:
  checker(const host::program& p, const comm_domain_options& o) : p_(p), o_(o) {}

  diagnostics run() {
    for (auto& f : p_.functions) {
      const bool host_orch = f->level == o_.host_level && f->role == o_.orchestrator_role;
      std::vector<const host::stmt*> enclosing;
      allocs_.clear();
      views_.clear();
      bool has_scope = false;
      walk(f->body, enclosing, has_scope);
      if (host_orch && has_scope) check_views();
    }
    return std::move(errors_);
  }

 private:
  const host::program& p_;
  const comm_domain_options& o_;
  diagnostics errors_;
  std::unordered_map<const host::window_buffer*, const host::stmt*> owner_;  // slot → its scope

  struct view_info {
    const host::stmt* assign;
    const host::var* alloc;
    std::vector<const host::stmt*> scopes;  // enclosing, outermost first
  };
  std::unordered_map<const host::var*, bool> allocs_;
  std::vector<view_info> views_;

  void error(source_loc loc, std::string msg) {
    errors_.push_back({p_.file, loc, "CommDomainScopesMaterialized: " + std::move(msg)});
  }

  static bool is_op(const host::expr* e, std::string_view name) {
    return e && e->kind == host::expr_kind::call && e->callee == host::callee_kind::op && e->text == name;
  }

  void walk(const std::vector<host::stmt_ptr>& body, std::vector<const host::stmt*>& enclosing, bool& has_scope) {
    for (auto& sp : body) {
      const host::stmt& s = *sp;
      if (s.kind == host::stmt_kind::assign && s.target) {
        if (is_op(s.value.get(), o_.alloc_op)) {
          allocs_[s.target.get()] = true;
        } else if (is_op(s.value.get(), o_.window_op) && !s.value->args.empty() && s.value->args[0] &&
                   s.value->args[0]->kind == host::expr_kind::var_ref && allocs_.count(s.value->args[0]->ref)) {
          views_.push_back({&s, s.value->args[0]->ref, enclosing});
        }
      }
      if (s.kind == host::stmt_kind::comm_domain_scope) {
        has_scope = true;
        check_scope(s);
        enclosing.push_back(&s);
        walk(s.body, enclosing, has_scope);
        enclosing.pop_back();
      } else {
        walk(s.body, enclosing, has_scope);
      }
    }
  }

  void check_scope(const host::stmt& s) {
    if (s.scope->slots.empty()) {
      error(s.loc, "CommDomainScopeStmt '" + s.scope->name +
                       "' has no slots — every comm-domain scope must carry at least one WindowBuffer");
      return;
    }
    for (auto& w : s.scope->slots) {
      if (!w) {
        error(s.loc, "CommDomainScopeStmt '" + s.scope->name + "' has a null slot");
        continue;
      }
      auto [it, fresh] = owner_.emplace(w.get(), &s);
      if (!fresh)
        error(w->loc.known() ? w->loc : s.loc, "WindowBuffer '" + std::string(w->name()) + "' appears in multiple CommDomainScopeStmts ('" +
                         it->second->scope->name + "' and '" + s.scope->name + "')");
    }
  }

  void check_views() {
    std::unordered_map<const host::var*, const host::window_buffer*> shared;  // alloc → first view's
    for (auto& v : views_) {
      const host::var& view = *v.assign->target;
      const host::expr& call = *v.assign->value;
      const std::string alloc_name = v.alloc->name;
      const host::window_buffer* w = view.type.kind == host::type_kind::distributed_tensor ? view.type.window.get() : nullptr;
      if (!w || w->base != v.alloc) {
        error(v.assign->loc, "window view '" + view.name + "' is not typed with the WindowBuffer of its alloc '" +
                                 alloc_name + "'");
        continue;
      }
      if (call.call->type.window.get() != w)
        error(call.loc, "the defining call of window view '" + view.name +
                            "' does not carry the WindowBuffer of its alloc '" + alloc_name + "'");
      auto [it, fresh] = shared.emplace(v.alloc, w);
      if (!fresh && it->second != w)
        error(v.assign->loc, "window views of alloc '" + alloc_name + "' do not share one WindowBuffer");
      bool in_scope = false;
      for (const host::stmt* s : v.scopes)
        for (auto& slot : s->scope->slots)
          if (slot.get() == w) in_scope = true;
      if (!in_scope)
        error(v.assign->loc, "WindowBuffer '" + alloc_name + "' of window view '" + view.name +
                                 "' is not a slot of an enclosing comm-domain scope");
    }
  }
};

}  // namespace comm_domain_detail

/// Checks the output invariants listed above; empty = they hold. Deterministic (program order).
/// O(size of p).
inline diagnostics check_comm_domain_scopes(const host::program& p, const comm_domain_options& opts = {}) {
  return comm_domain_detail::checker(p, opts).run();
}

}  // namespace neuronrw
