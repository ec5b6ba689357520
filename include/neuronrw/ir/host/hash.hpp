// neuronrw/ir/host/hash.hpp — structural equality and structural hash of reference host programs
// (docs/host-programs.md §"Structural equality and hash"): variables are compared by binding, not
// by name, and WindowBuffers by identity the same way — two views of one allocation share one
// object, and that sharing is part of the program (a copy where each view has its own,
// equal-looking WindowBuffer is a different program).
//
//   structural_equal(const program&, const program&) -> bool
//   structural_hash(const program&) -> std::uint64_t     equal programs hash equally
//
// How: both are read off one canonical encoding. A walk in program order numbers every variable
// and every WindowBuffer at its first sight (writing its type / its contents there, and only its
// number afterwards) and writes every other field. Two programs are equal up to a consistent
// renaming of variables and WindowBuffers exactly when their encodings are equal, so equality and
// hash cannot disagree. Locations, variable names and the source file name are not part of it.
//
// Customization points: none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include <neuronrw/detail/fnv1a.hpp>
#include <neuronrw/ir/host/ir.hpp>

namespace neuronrw::host {

namespace hash_detail {

class encoder {
 public:
  std::string run(const program& p) {
    str(p.name);
    u64(p.functions.size());
    for (auto& f : p.functions) function_(*f);
    // Module constants (a program without any encodes as before). Imports are spelling only.
    if (!p.constants.empty()) {
      tag('C');
      u64(p.constants.size());
      for (auto& c : p.constants) {
        str(c.name);
        expr_(c.value.get());
      }
    }
    return std::move(out_);
  }

 private:
  std::string out_;
  std::unordered_map<const var*, std::uint64_t> vars_;
  std::unordered_map<const window_buffer*, std::uint64_t> windows_;

  void tag(char c) { out_ += c; }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xff);
  }
  void str(std::string_view s) {
    u64(s.size());
    out_.append(s);
  }

  void var_(const var* v) {
    if (!v) return tag('0');
    if (auto it = vars_.find(v); it != vars_.end()) {
      tag('v');
      return u64(it->second);
    }
    const std::uint64_t id = vars_.size();
    vars_.emplace(v, id);
    tag('V');
    u64(id);
    type_(v->type);
  }
  void window_(const window_buffer* w) {
    if (!w) return tag('0');
    if (auto it = windows_.find(w); it != windows_.end()) {
      tag('w');
      return u64(it->second);
    }
    const std::uint64_t id = windows_.size();
    windows_.emplace(w, id);
    tag('W');
    u64(id);
    var_(w->base);
    expr_(w->size.get());
    tag(w->load_from_host ? 'L' : 'l');
    tag(w->store_to_host ? 'S' : 's');
  }
  void type_(const type& t) {
    tag('T');
    tag(static_cast<char>('0' + static_cast<int>(t.kind)));
    const bool shaped = t.kind == type_kind::tensor || t.kind == type_kind::distributed_tensor || t.kind == type_kind::tile;
    if (t.kind == type_kind::scalar || shaped) str(t.dtype);
    if (shaped) {
      u64(t.shape.size());
      for (auto& d : t.shape) {
        if (d.e) {
          tag('x');
          expr_(d.e.get());
        } else if (d.sym) {
          tag('s');
          var_(d.sym);
        } else {
          tag('i');
          u64(static_cast<std::uint64_t>(d.value));
        }
      }
    }
    if (t.kind == type_kind::distributed_tensor) window_(t.window.get());
    if (!t.extras.empty()) {  // tagged: a type without them encodes as before
      tag('X');
      u64(t.extras.size());
      for (auto& x : t.extras) expr_(x.get());
    }
    if (t.kind == type_kind::tuple) {
      u64(t.elements.size());
      for (auto& x : t.elements) type_(x);
    }
  }
  void keywords_(const std::vector<keyword>& ks) {
    u64(ks.size());
    for (auto& k : ks) {
      str(k.name);
      expr_(k.value.get());
    }
  }
  void expr_(const expr* e) {
    if (!e) return tag('0');
    tag('E');
    if (e->kind == expr_kind::int_const && !e->text.empty()) {  // a spelled constant: SIZE, pl.FP32.get_byte()
      tag('n');
      u64(static_cast<std::uint64_t>(e->value));
      return str(e->text);
    }
    tag(static_cast<char>('0' + static_cast<int>(e->kind)));
    switch (e->kind) {
      case expr_kind::var_ref: return var_(e->ref);
      case expr_kind::int_const:
      case expr_kind::bool_const: return u64(static_cast<std::uint64_t>(e->value));
      case expr_kind::str_const:
      case expr_kind::symbol: return str(e->text);
      case expr_kind::none: return;
      case expr_kind::list:
      case expr_kind::tuple:
      case expr_kind::subscript:
        u64(e->args.size());
        for (auto& a : e->args) expr_(a.get());
        return;
      case expr_kind::float_const: return str(e->text);
      case expr_kind::arith:
      case expr_kind::boolean:
      case expr_kind::slice:
        u64(static_cast<std::uint64_t>(e->value));
        u64(e->args.size());
        for (auto& a : e->args) expr_(a.get());
        return;
      case expr_kind::call:
        tag(e->callee == callee_kind::op ? 'o' : 'f');
        // Another spelling of the op is part of the program (it prints so): `NAME\0SPELLING`, no
        // callee name holding a NUL; the plain name alone when there is none.
        if (e->call->spelling.empty()) str(e->text);
        else str(e->text + '\0' + e->call->spelling);
        u64(e->args.size());
        for (auto& a : e->args) expr_(a.get());
        keywords_(e->call->kwargs);
        keywords_(e->call->attrs);
        type_(e->call->type);
        return;
    }
  }
  void body_(const std::vector<stmt_ptr>& body) {
    u64(body.size());
    for (auto& s : body) stmt_(*s);
  }
  void stmt_(const stmt& s) {
    tag('S');
    tag(static_cast<char>('0' + static_cast<int>(s.kind)));
    switch (s.kind) {
      case stmt_kind::assign:
        expr_(s.value.get());
        return var_(s.target.get());
      case stmt_kind::for_range:
        expr_(s.start.get());
        expr_(s.stop.get());
        expr_(s.step.get());
        var_(s.target.get());
        if (s.loop) {  // tagged: a plain pl.range loop encodes as before
          tag('P');
          str(s.loop->iterator);
          keywords_(s.loop->kwargs);
          u64(s.loop->carried.size());
          for (auto& c : s.loop->carried) var_(c.get());
        }
        return body_(s.body);
      case stmt_kind::while_loop:
        expr_(s.value.get());
        return body_(s.body);
      case stmt_kind::expr_stmt: return expr_(s.value.get());
      case stmt_kind::ret:
        u64(s.values.size());
        for (auto& v : s.values) expr_(v.get());
        return;
      case stmt_kind::comm_domain_scope:
        str(s.scope->name);
        u64(s.scope->devices.size());
        for (auto d : s.scope->devices) u64(static_cast<std::uint64_t>(d));
        u64(s.scope->slots.size());
        for (auto& w : s.scope->slots) window_(w.get());
        keywords_(s.scope->attrs);
        return body_(s.body);
      case stmt_kind::with_scope:
        expr_(s.value.get());
        var_(s.target.get());
        return body_(s.body);
      case stmt_kind::if_stmt:
        expr_(s.value.get());
        return body_(s.body);
      case stmt_kind::block: return body_(s.body);
      case stmt_kind::break_stmt:
      case stmt_kind::continue_stmt: return;
      case stmt_kind::tuple_assign:
        expr_(s.value.get());
        u64(s.targets.size());
        for (auto& t : s.targets) var_(t.get());
        return;
      case stmt_kind::subscript_assign:
        expr_(s.value.get());
        u64(s.values.size());
        for (auto& v : s.values) expr_(v.get());
        return;
    }
  }
  void function_(const function& f) {
    str(f.name);
    str(f.level);
    str(f.role);
    u64(f.params.size());
    for (auto& v : f.params) var_(v.get());
    // Optional parts, each tagged where a function without them has its R / r (so programs
    // without them encode as before).
    if (!f.type.empty()) {
      tag('Y');
      str(f.type);
    }
    if (!f.verbatim.empty()) {  // a kernel kept as written
      tag('V');
      str(f.verbatim);
    }
    if (!f.doc.empty()) {
      tag('d');
      str(f.doc);
    }
    if (!f.options.empty() || !f.attrs.empty()) {
      tag('O');
      keywords_(f.options);
      keywords_(f.attrs);
    }
    bool directed = false;  // all `in` is the same program as none (the text prints no wrapper)
    for (auto d : f.directions) directed = directed || d != param_direction::in;
    if (directed) {
      tag('D');
      u64(f.directions.size());
      for (auto d : f.directions) tag(static_cast<char>('0' + static_cast<int>(d)));
    }
    tag(f.return_type ? 'R' : 'r');
    if (f.return_type) type_(*f.return_type);
    body_(f.body);
  }
};

}  // namespace hash_detail

/// The canonical encoding both functions below read (see the header comment). O(size of p).
inline std::string structural_encoding(const program& p) { return hash_detail::encoder{}.run(p); }

/// Equal up to a consistent renaming of variables and of WindowBuffers. O(size of a + b).
inline bool structural_equal(const program& a, const program& b) {
  return structural_encoding(a) == structural_encoding(b);
}

/// 64-bit FNV-1a of the canonical encoding: equal programs hash equally, on every platform.
inline std::uint64_t structural_hash(const program& p) {
  return neuronrw::detail::fnv1a_64_of(structural_encoding(p));
}

}  // namespace neuronrw::host
