// neuronrw/ir/host/traits.hpp — the reference host IR as a model of the host-program concepts
// (neuronrw/concepts/host.hpp): `host_traits<host::program>`.
//
// Customization points: none (this header is the specialization). Handles are the node
// pointers of ir.hpp; they are identities, so the read functions hand out non-const pointers
// from a const program, and only the functions taking `program&` modify through them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/ir/host/ir.hpp>

namespace neuronrw::host {

/// A forward range over a vector of unique_ptr<T>, yielding T*. (std::views::transform would do,
/// but clang 14 cannot compile libstdc++ 12's views.)
template <class T>
class ptr_range {
  using base_it = typename std::vector<std::unique_ptr<T>>::const_iterator;

 public:
  class iterator {
   public:
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::forward_iterator_tag;
    using value_type = T*;
    using difference_type = std::ptrdiff_t;
    using reference = T*;
    iterator() = default;
    explicit iterator(base_it it) : it_(it) {}
    T* operator*() const { return it_->get(); }
    iterator& operator++() {
      ++it_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++it_;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.it_ == b.it_; }

   private:
    base_it it_{};
  };
  ptr_range() = default;
  explicit ptr_range(const std::vector<std::unique_ptr<T>>& v) : begin_(v.begin()), end_(v.end()) {}
  iterator begin() const { return iterator(begin_); }
  iterator end() const { return iterator(end_); }
  std::size_t size() const { return static_cast<std::size_t>(end_ - begin_); }

 private:
  base_it begin_{};
  base_it end_{};
};

}  // namespace neuronrw::host

template <>
struct neuronrw::host_traits<neuronrw::host::program> {
  using program = host::program;
  using function_handle = host::function*;
  using stmt_handle = host::stmt*;
  using expr_handle = host::expr*;
  using var_handle = host::var*;
  using window_handle = host::window_ptr;
  /// passes/parallel.hpp rule R1: reads are plain loads from the nodes (no cache filled lazily).
  static constexpr bool concurrent_reads = true;
  /// passes/parallel.hpp rule R2: make_window_buffer, attach_window and wrap_body change only the
  /// given function's nodes (every node is owned by its function; WindowBuffers are new objects),
  /// so different functions may be rewritten on different threads — outside a transaction: inside
  /// one they also append to the program's undo journal, which is shared.
  static constexpr bool concurrent_function_mutation = true;

  static host::ptr_range<host::function> functions(const program& p) { return host::ptr_range<host::function>(p.functions); }
  static std::string_view function_name(const program&, function_handle f) { return f->name; }
  /// The decorator's level and role, or the ones its `type=` implies (ir.hpp effective_level).
  static std::string_view level(const program&, function_handle f) { return host::effective_level(*f); }
  static std::string_view role(const program&, function_handle f) { return host::effective_role(*f); }
  // optional F1
  static std::string_view function_type(const program&, function_handle f) { return f->type; }
  static host::ptr_range<host::stmt> body(const program&, function_handle f) { return host::ptr_range<host::stmt>(f->body); }

  static host_stmt_kind stmt_kind(const program&, stmt_handle s) {
    switch (s->kind) {
      case host::stmt_kind::assign: return host_stmt_kind::assign;
      case host::stmt_kind::for_range:  // pl.while_: no bounds, a condition (pl.cond) in its body
        return s->loop && s->loop->iterator == "pl.while_" ? host_stmt_kind::while_loop : host_stmt_kind::for_range;
      case host::stmt_kind::while_loop: return host_stmt_kind::while_loop;
      case host::stmt_kind::expr_stmt: return host_stmt_kind::expr_stmt;
      case host::stmt_kind::ret: return host_stmt_kind::ret;
      case host::stmt_kind::comm_domain_scope: return host_stmt_kind::comm_domain_scope;
      // pypto's device scopes, ifs (their branches are blocks, bodies of the if), jumps and
      // tuple assignments: the passes visit their operands and bodies.
      case host::stmt_kind::with_scope:
      case host::stmt_kind::if_stmt:
      case host::stmt_kind::block:
      case host::stmt_kind::break_stmt:
      case host::stmt_kind::continue_stmt:
      case host::stmt_kind::tuple_assign:
      case host::stmt_kind::subscript_assign: break;
    }
    return host_stmt_kind::other;
  }
  static host::ptr_range<host::stmt> stmt_body(const program&, stmt_handle s) { return host::ptr_range<host::stmt>(s->body); }
  static std::vector<expr_handle> operands(const program&, stmt_handle s) {
    std::vector<expr_handle> out;
    switch (s->kind) {
      case host::stmt_kind::for_range:
        for (auto* e : {s->start.get(), s->stop.get(), s->step.get()})
          if (e) out.push_back(e);
        if (s->loop)  // init_values=, stage=, ...: evaluated before the loop, as its bounds are
          for (auto& k : s->loop->kwargs)
            if (k.value) out.push_back(k.value.get());
        break;
      case host::stmt_kind::ret:
        for (auto& e : s->values)
          if (e) out.push_back(e.get());
        break;
      case host::stmt_kind::comm_domain_scope: break;
      case host::stmt_kind::subscript_assign:  // the value, then the target (Python's order)
        if (s->value) out.push_back(s->value.get());
        for (auto& e : s->values)
          if (e) out.push_back(e.get());
        break;
      default:
        if (s->value) out.push_back(s->value.get());
    }
    return out;
  }
  static var_handle assign_target(const program&, stmt_handle s) { return s->target.get(); }
  static expr_handle assign_value(const program&, stmt_handle s) { return s->value.get(); }
  static var_handle loop_var(const program&, stmt_handle s) { return s->target.get(); }
  static expr_handle loop_start(const program&, stmt_handle s) { return s->start.get(); }
  static expr_handle loop_stop(const program&, stmt_handle s) { return s->stop.get(); }
  static expr_handle loop_step(const program&, stmt_handle s) { return s->step.get(); }

  static host_expr_kind expr_kind(const program&, expr_handle e) {
    if (!e) return host_expr_kind::other;
    switch (e->kind) {
      case host::expr_kind::var_ref: return host_expr_kind::var_ref;
      case host::expr_kind::int_const: return host_expr_kind::int_const;
      case host::expr_kind::call: return host_expr_kind::call;
      case host::expr_kind::arith:  // B1 is integer arithmetic: device code's `/`, `<<`, ... are not
        return static_cast<int>(host::op_of(*e)) <= static_cast<int>(host::arith_op::neg) ? host_expr_kind::binary
                                                                                         : host_expr_kind::other;
      default: return host_expr_kind::other;
    }
  }
  // optional B1
  static host_binary<expr_handle> binary(const program&, expr_handle e) {
    host_binary<expr_handle> b;
    if (!e || e->kind != host::expr_kind::arith || e->args.empty()) return b;
    b.op = static_cast<host_binary_op>(static_cast<int>(host::op_of(*e)));
    b.lhs = e->args[0].get();
    b.rhs = e->args.size() > 1 ? e->args[1].get() : nullptr;
    return b;
  }
  static var_handle referenced_var(const program&, expr_handle e) {
    return e && e->kind == host::expr_kind::var_ref ? e->ref : nullptr;
  }
  static std::int64_t int_value(const program&, expr_handle e) {
    return e && (e->kind == host::expr_kind::int_const || e->kind == host::expr_kind::bool_const) ? e->value : 0;
  }
  static std::optional<std::string_view> string_value(const program&, expr_handle e) {
    if (!e || e->kind != host::expr_kind::str_const) return std::nullopt;
    return std::string_view(e->text);
  }
  static host_callee_kind callee_kind(const program&, expr_handle e) {
    return e->callee == host::callee_kind::op ? host_callee_kind::op : host_callee_kind::function;
  }
  static std::string_view callee_name(const program&, expr_handle e) { return e->text; }
  static host::ptr_range<host::expr> call_args(const program&, expr_handle e) { return host::ptr_range<host::expr>(e->args); }
  static std::optional<expr_handle> keyword_arg(const program&, expr_handle e, std::string_view name) {
    if (!e->call) return std::nullopt;
    return find(e->call->kwargs, name);
  }
  static std::optional<expr_handle> call_attr(const program&, expr_handle e, std::string_view name) {
    if (!e->call) return std::nullopt;
    return find(e->call->attrs, name);
  }
  static source_loc location(const program&, expr_handle e) { return e ? e->loc : source_loc{}; }
  static std::string_view source_file(const program& p) { return p.file; }
  static bool can_carry_window(const program&, var_handle v) {
    return v && v->type.kind == host::type_kind::distributed_tensor;
  }

  /// The WindowBuffer keeps its own copy of the size expression (a separate IR field upstream).
  static window_handle make_window_buffer(program&, const window_request<var_handle, expr_handle>& r) {
    auto w = std::make_shared<host::window_buffer>();
    w->base = r.base;
    if (r.size) w->size = host::cloner{}.clone_expr(*r.size);
    w->load_from_host = r.load_from_host;
    w->store_to_host = r.store_to_host;
    w->loc = r.loc;
    return w;
  }
  /// The view variable takes the WindowBuffer; its defining call takes the variable's new type when
  /// the two agreed up to the WindowBuffer (as pypto re-mints the call): a real shape / dtype
  /// disagreement is left for the checker to report, not papered over.
  static void attach_window(program& p, var_handle view, expr_handle call, const window_handle& w) {
    p.on_rollback([view, old = view->type.window] { view->type.window = old; });
    view->type.window = w;
    if (call && call->call && host::same_type_but_window(call->call->type, view->type)) {
      p.on_rollback([call, old = call->call->type] { call->call->type = old; });
      call->call->type = view->type;
    }
  }
  static void wrap_body(program& p, function_handle f, const scope_request<window_handle>& r) {
    // Undo: the scope is the body's only statement; its statements become the body again.
    p.on_rollback([f] {
      auto scope = std::move(f->body.front());
      f->body = std::move(scope->body);
    });
    auto scope = host::make_scope(std::string(r.name), std::vector<std::int64_t>(r.devices.begin(), r.devices.end()),
                                  std::vector<host::window_ptr>(r.slots.begin(), r.slots.end()), {},
                                  std::move(f->body), r.loc);
    f->body.clear();
    f->body.push_back(std::move(scope));
  }

  // optional S1 (validate/host.hpp): the rewrite check reads scopes and WindowBuffers
  static const std::vector<std::int64_t>& scope_devices(const program&, stmt_handle s) {
    static const std::vector<std::int64_t> none;
    return s->scope ? s->scope->devices : none;
  }
  static const std::vector<window_handle>& scope_slots(const program&, stmt_handle s) {
    static const std::vector<window_handle> none;
    return s->scope ? s->scope->slots : none;
  }
  static std::optional<window_handle> var_window(const program&, var_handle v) {
    if (v && v->type.window) return v->type.window;
    return std::nullopt;
  }
  static var_handle window_base(const program&, const window_handle& w) {
    return w ? const_cast<var_handle>(w->base) : nullptr;
  }

  // buildable_host_program (18-25): new nodes wait in program::loose_exprs / loose_vars until a
  // builder places them. Inside a transaction the builders that change the program (20-22)
  // record their inverse, so a checked SynthesizeAllReduceSignals can be rolled back (new loose
  // nodes are not undone: nothing refers to them once their users are gone).
  static var_handle new_var(program& p, std::string_view name, source_loc loc) {
    p.loose_vars.push_back(host::make_var(std::string(name), {}, loc));
    return p.loose_vars.back().get();
  }
  static expr_handle make_int(program& p, std::int64_t v, source_loc loc) { return loose(p, host::make_int(v, loc)); }
  static expr_handle make_string(program& p, std::string_view v, source_loc loc) {
    return loose(p, host::make_str(std::string(v), loc));
  }
  static expr_handle make_symbol(program& p, std::string_view v, source_loc loc) {
    return loose(p, host::make_symbol(std::string(v), loc));
  }
  static expr_handle make_var_ref(program& p, var_handle v, source_loc loc) { return loose(p, host::make_var_ref(v, loc)); }
  static expr_handle make_binary(program& p, host_binary_op op, expr_handle a, expr_handle b, source_loc loc) {
    auto lhs = take(p, a);
    auto rhs = op == host_binary_op::neg ? nullptr : take(p, b);
    return loose(p, host::make_arith(static_cast<host::arith_op>(static_cast<int>(op)), std::move(lhs), std::move(rhs), loc));
  }
  static expr_handle make_list(program& p, std::span<const expr_handle> elems, source_loc loc) {
    std::vector<host::expr_ptr> v;
    for (auto e : elems) v.push_back(take(p, e));
    return loose(p, host::make_list(std::move(v), loc));
  }
  static expr_handle make_op_call(program& p, std::string_view op, std::span<const expr_handle> args,
                                  std::span<const host_keyword<expr_handle>> kwargs, source_loc loc) {
    std::vector<host::expr_ptr> a;
    for (auto e : args) a.push_back(take(p, e));
    std::vector<host::keyword> k;
    for (const auto& kw : kwargs) k.push_back({std::string(kw.name), take(p, kw.value)});
    auto c = host::make_call(host::callee_kind::op, std::string(op), std::move(a), std::move(k), {}, {}, loc);
    c->call->type = host::infer_call_type(*c);
    return loose(p, std::move(c));
  }
  static void insert_assign_before(program& p, stmt_handle at, var_handle target, expr_handle value) {
    auto v = take_var(p, target);
    auto e = take(p, value);
    v->type = host::type_of(*e);
    // An allocation named after its target is printed without `name=`, as pypto's printer does.
    if (e->kind == host::expr_kind::call && e->call && e->text == host::ops::alloc_window_buffer)
      for (auto& k : e->call->kwargs)
        if (k.name == "name" && k.value && k.value->kind == host::expr_kind::str_const && k.value->text == v->name)
          k.value->flags |= host::expr_flags::implicit;
    auto s = host::make_assign(std::move(v), std::move(e), at->loc);
    const host::stmt* made = s.get();
    for (auto& f : p.functions)
      if (insert_before(f->body, at, s)) {
        // Undo: the statement goes; its value waits in the loose pool (take_return_value's undo
        // may put it back where it was).
        p.on_rollback([&p, fn = f.get(), made] { erase_stmt(p, fn->body, made); });
        return;
      }
  }
  static void append_call_arg(program& p, expr_handle call, expr_handle arg) {
    if (p.in_transaction())
      p.on_rollback([call, old = call->call ? std::optional<host::type>(call->call->type) : std::nullopt] {
        call->args.pop_back();
        if (old) call->call->type = *old;
      });
    call->args.push_back(take(p, arg));
    if (call->call && call->callee == host::callee_kind::op) call->call->type = host::infer_call_type(*call);
  }
  static expr_handle take_return_value(program& p, stmt_handle ret, std::size_t i) {
    if (i >= ret->values.size() || !ret->values[i]) return nullptr;
    // Undo: the value, wherever it went (an assignment's undo returns it to the loose pool), comes
    // back: the same node.
    p.on_rollback([&p, ret, i, value = ret->values[i].get()] { ret->values[i] = take(p, value); });
    p.loose_exprs.push_back(std::move(ret->values[i]));
    return p.loose_exprs.back().get();
  }
  static void set_return_value(program& p, stmt_handle ret, std::size_t i, expr_handle e) {
    if (i >= ret->values.size()) return;
    p.on_rollback([ret, i] { ret->values[i].reset(); });
    ret->values[i] = take(p, e);
  }
  static std::string_view var_name(const program&, var_handle v) { return v ? std::string_view(v->name) : std::string_view(); }
  static host::ptr_range<host::var> params(const program&, function_handle f) { return host::ptr_range<host::var>(f->params); }
  static std::vector<expr_handle> children(const program&, expr_handle e) {
    std::vector<expr_handle> out;
    if (!e) return out;
    for (auto& a : e->args)
      if (a) out.push_back(a.get());
    if (e->call) {
      for (auto& k : e->call->kwargs)
        if (k.value) out.push_back(k.value.get());
      for (auto& k : e->call->attrs)
        if (k.value) out.push_back(k.value.get());
    }
    return out;
  }

  // optional: transactions (O5) — the program's undo journal (ir.hpp)
  static std::size_t begin_transaction(program& p) { return p.begin_transaction(); }
  static void commit(program& p, std::size_t token) { p.commit(token); }
  static void rollback(program& p, std::size_t token) { p.rollback(token); }

 private:
  static expr_handle loose(program& p, host::expr_ptr e) {
    p.loose_exprs.push_back(std::move(e));
    return p.loose_exprs.back().get();
  }
  /// Takes a loose expression out of the program's pool (the newest first: builders take what
  /// they just made). An expression not in the pool is copied (a handle into the program).
  static host::expr_ptr take(program& p, expr_handle e) {
    if (!e) return nullptr;
    for (auto it = p.loose_exprs.rbegin(); it != p.loose_exprs.rend(); ++it)
      if (it->get() == e) {
        auto out = std::move(*it);
        p.loose_exprs.erase(std::next(it).base());
        return out;
      }
    return host::cloner{}.clone_expr(*e);
  }
  static host::var_ptr take_var(program& p, var_handle v) {
    for (auto it = p.loose_vars.rbegin(); it != p.loose_vars.rend(); ++it)
      if (it->get() == v) {
        auto out = std::move(*it);
        p.loose_vars.erase(std::next(it).base());
        return out;
      }
    return host::make_var(v ? v->name : std::string(), v ? v->type : host::type{}, v ? v->loc : source_loc{});
  }
  static bool erase_stmt(program& p, std::vector<host::stmt_ptr>& body, const host::stmt* s) {
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i].get() == s) {
        if (body[i]->value) p.loose_exprs.push_back(std::move(body[i]->value));
        body.erase(body.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
      }
      if (erase_stmt(p, body[i]->body, s)) return true;
    }
    return false;
  }
  static bool insert_before(std::vector<host::stmt_ptr>& body, stmt_handle at, host::stmt_ptr& s) {
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i].get() == at) {
        body.insert(body.begin() + static_cast<std::ptrdiff_t>(i), std::move(s));
        return true;
      }
      if (insert_before(body[i]->body, at, s)) return true;
    }
    return false;
  }
  static std::optional<expr_handle> find(const std::vector<host::keyword>& ks, std::string_view name) {
    for (auto& k : ks)
      if (k.name == name) return k.value.get();
    return std::nullopt;
  }
};
static_assert(neuronrw::transactional_host_program<neuronrw::host::program>);
static_assert(neuronrw::buildable_host_program<neuronrw::host::program>);
