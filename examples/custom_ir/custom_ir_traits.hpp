// examples/custom_ir/custom_ir_traits.hpp — the whole adaptation of the `mini` IR to neuronrw:
// one specialization of neuronrw::ir_traits, read + ordered + reschedulable + groupable (what
// ScheduleFusion needs; docs/concepts.md numbers each requirement), and transactions (optional O5,
// what the gated apply needs to roll back). The IR is not changed.
// G, the object the pass receives, is the compiler's `mini::Module`; handles are its own
// pointers (hashable through std::hash, so nothing else is needed).
#pragma once

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kinds.hpp>

#include "mini_ir.hpp"

template <>
struct neuronrw::ir_traits<mini::Module> {
  using G = mini::Module;
  using op_handle = mini::Instr*;
  using value_handle = mini::Value*;
  using block_handle = mini::Block*;

  // ---- R1 (passes/parallel.hpp): reads only follow pointers and read strings; nothing is cached
  // on a read, so threads may read the module at once (the parallel driver requires it).
  static constexpr bool concurrent_reads = true;

  // ---- optional R2 (passes/parallel.hpp): the rewrites of one function touch nothing another
  // function's rewrites or reads touch — every Instr, Value and Block is owned by its function,
  // a value's users are in its function, fusions are named per function. (The undo log is the
  // module's: no parallel apply inside a transaction.) So run_pass_parallel rewrites
  // different functions on different threads.
  static constexpr bool concurrent_function_mutation = true;

  // ---- read: the compiler's opcodes mapped to library kinds, once
  static op_handle null_op() { return nullptr; }
  static kind_id kind(const G&, op_handle o) {
    const std::string& c = o->opcode;
    if (c == "all-gather") return kind_id_v<kinds::all_gather>;
    if (c == "reduce-scatter") return kind_id_v<kinds::reduce_scatter>;
    if (c == "all-reduce") return kind_id_v<kinds::all_reduce>;
    if (c == "all-to-all") return kind_id_v<kinds::all_to_all>;
    if (c == "get-tuple-element") return kind_id_v<kinds::get_tuple_element>;
    if (c == "fusion") return kind_id_v<kinds::fusion>;
    if (c == "return") return kind_id_v<kinds::return_>;
    return kind_id_of(c);
  }
  static const std::vector<value_handle>& operands(const G&, op_handle o) { return o->operands; }
  static op_handle defining_op(const G&, value_handle v) { return v->def; }
  static const std::vector<op_handle>& users(const G&, value_handle v) { return v->users; }
  static std::vector<value_handle> results(const G&, op_handle o) {
    std::vector<value_handle> r;
    for (auto& v : o->results) r.push_back(v.get());
    return r;
  }
  static op_handle parent_op(const G&, op_handle o) { return o->parent->owner; }

  // ---- ordered: the block's std::list; order by walking it (the compiler has no numbering)
  class instr_range {  // the Instr* of a block, in order
   public:
    struct iterator {
      using value_type = op_handle;
      using difference_type = std::ptrdiff_t;
      std::list<mini::Instr>::iterator it;
      op_handle operator*() const { return &*it; }
      iterator& operator++() { return ++it, *this; }
      iterator operator++(int) { auto t = *this; return ++it, t; }
      bool operator==(const iterator&) const = default;
    };
    explicit instr_range(block_handle b) : b_(b) {}
    iterator begin() const { return {b_->instrs.begin()}; }
    iterator end() const { return {b_->instrs.end()}; }
   private:
    block_handle b_;
  };
  static block_handle block_of(const G&, op_handle o) { return o->parent; }
  static instr_range ops(const G&, block_handle b) { return instr_range(b); }
  static bool is_before_in_block(const G&, op_handle a, op_handle b) {
    for (auto it = std::next(a->self); it != a->parent->instrs.end(); ++it)
      if (&*it == b) return true;
    return false;
  }
  static op_handle next_op(const G&, op_handle o) {
    auto it = std::next(o->self);
    return it == o->parent->instrs.end() ? nullptr : &*it;
  }
  static op_handle prev_op(const G&, op_handle o) {
    return o->self == o->parent->instrs.begin() ? nullptr : &*std::prev(o->self);
  }
  static std::vector<block_handle> regions(const G&, op_handle o) {
    if (!o->body) return {};
    return {o->body.get()};
  }

  // ---- reschedulable: splice within the block
  static void move_before(G& g, op_handle o, op_handle anchor) {
    note_position(g, o);
    anchor->parent->instrs.splice(anchor->self, o->parent->instrs, o->self);
  }
  static void move_after(G& g, op_handle o, op_handle anchor) {
    note_position(g, o);
    anchor->parent->instrs.splice(std::next(anchor->self), o->parent->instrs, o->self);
  }

  // ---- optional O4: a block's parameters, in order (the rewrite checks follow a fusion's
  // parameters to its operands with it)
  static std::vector<value_handle> block_arguments(const G&, block_handle b) {
    std::vector<value_handle> out;
    for (const auto& p : b->params) out.push_back(p.get());
    return out;
  }

  // ---- groupable: a fusion instruction whose body holds the run
  static op_handle group_ops(G& g, const group_request<op_handle, value_handle>& r) {
    mini::Block& outer = *r.ops.front()->parent;
    mini::Function& fn = mini::function_of(*r.ops.front());
    const std::string name = "%fusion." + std::to_string(fn.fusion_count++);
    std::vector<std::pair<std::string, std::string>> outs;
    for (std::size_t i = 0; i < r.live_outs.size(); ++i)
      outs.emplace_back(name + (r.live_outs.size() > 1 ? "#" + std::to_string(i) : ""), r.live_outs[i]->shape);
    std::vector<std::pair<std::string, std::string>> attrs;
    for (auto& a : r.attrs) attrs.emplace_back(std::string(a.name), neuronrw::attribute_text(a.value));
    mini::Instr& f = mini::emit(outer, std::string(r.op_name), {r.live_ins.begin(), r.live_ins.end()}, outs, attrs,
                                r.ops.front());
    f.body = std::make_unique<mini::Block>();
    f.body->owner = &f;
    for (op_handle o : r.ops) {  // move, not clone
      f.body->instrs.splice(f.body->instrs.end(), outer.instrs, o->self);
      o->parent = f.body.get();
    }
    auto inside = [&](op_handle u) {
      for (; u; u = u->parent->owner)
        if (u == &f) return true;
      return false;
    };
    for (std::size_t i = 0; i < r.live_ins.size(); ++i) {
      mini::Value& p = mini::add_param(*f.body, "%p" + std::to_string(i), r.live_ins[i]->shape);
      rewire(r.live_ins[i], &p, [&](op_handle u) { return u != &f && inside(u); });
    }
    mini::emit(*f.body, std::string(r.terminator_name), {r.live_outs.begin(), r.live_outs.end()});
    for (std::size_t i = 0; i < r.live_outs.size(); ++i)
      rewire(r.live_outs[i], f.results[i].get(), [&](op_handle u) { return !inside(u); });
    if (g.transactions > 0)  // undo: rewire back, drop the return, move the run out, drop f
      g.undo_log.push_back([&fn, &f, &outer, ins = std::vector<value_handle>(r.live_ins.begin(), r.live_ins.end()),
                             outs = std::vector<value_handle>(r.live_outs.begin(), r.live_outs.end()),
                             run = std::vector<op_handle>(r.ops.begin(), r.ops.end())] {
        auto all = [](op_handle) { return true; };
        for (std::size_t i = 0; i < outs.size(); ++i) rewire(f.results[i].get(), outs[i], all);
        for (std::size_t i = 0; i < ins.size(); ++i) rewire(f.body->params[i].get(), ins[i], all);
        drop_uses(&f.body->instrs.back());
        for (op_handle o : run) {
          outer.instrs.splice(f.self, f.body->instrs, o->self);
          o->parent = &outer;
        }
        drop_uses(&f);
        outer.instrs.erase(f.self);
        --fn.fusion_count;
      });
    return &f;
  }
  static std::optional<std::string> string_attribute(const G&, op_handle o, std::string_view name) {
    for (auto& [k, v] : o->attrs)
      if (k == name && v.size() >= 2 && v.front() == '"') return v.substr(1, v.size() - 2);
    return std::nullopt;
  }

  // ---- optional O5, transactions: the compiler's undo log (mini_ir.hpp); the token is its length
  static std::size_t begin_transaction(G& g) { return ++g.transactions, g.undo_log.size(); }
  static void commit(G& g, std::size_t) {
    if (--g.transactions == 0) g.undo_log.clear();
  }
  static void rollback(G& g, std::size_t token) {
    for (; g.undo_log.size() > token; g.undo_log.pop_back()) g.undo_log.back()();
    if (--g.transactions == 0) g.undo_log.clear();
  }

 private:
  // Records where `o` is, so rollback can splice it back before its old successor.
  static void note_position(G& g, op_handle o) {
    if (g.transactions > 0)
      g.undo_log.push_back([o, block = o->parent, next = std::next(o->self)] {
        block->instrs.splice(next, o->parent->instrs, o->self);
      });
  }
  static void drop_uses(op_handle o) {
    for (value_handle v : o->operands) v->users.erase(std::find(v->users.begin(), v->users.end(), o));
  }
  template <class Pred>
  static void rewire(value_handle from, value_handle to, Pred use_here) {
    const std::vector<op_handle> users = from->users;  // set_operand edits the list
    for (op_handle u : users)
      if (use_here(u))
        for (std::size_t k = 0; k < u->operands.size(); ++k)
          if (u->operands[k] == from) u->set_operand(k, to);
  }
};

static_assert(neuronrw::require_groupable_ir<mini::Module>());
static_assert(neuronrw::transactional_ir<mini::Module>);
static_assert(neuronrw::block_arguments_ir<mini::Module>);
