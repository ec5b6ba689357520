// neuronrw/adapters/mlir/traits.hpp — MLIR as a neuronrw IR: `mlir::Operation*`, `mlir::Value`
// and `mlir::Block*` model every concept layer up to outlinable_ir (docs/mlir.md).
//
// Opt-in: nothing else in neuronrw includes MLIR. Builds with LLVM's own flags (-fno-exceptions
// -fno-rtti) and C++20; link libMLIR and libLLVM (docs/mlir.md §"Building against MLIR").
//
// The IR object an algorithm receives is `neuronrw::mlir_adapter::ir`: the root op (normally the
// ModuleOp), the kind table, and optionally the RewriterBase the mutations go through (a pass
// passes an IRRewriter, a pattern its PatternRewriter, so listeners see every change). The
// adapted MLIR objects are never wrapped: handles are MLIR's own pointers and values.
//
// Customization points:
//   - `kind_table`: maps op names to neuronrw kinds. `kind_table::defaults()` knows the mhlo.*
//     and stablehlo.* collectives, fusion, composite, get_tuple_element and return ops plus
//     func.func / func.call / func.return; `add("my.all_gather", kind_id_v<kinds::all_gather>)`
//     extends it. An op whose name is not in the table has the kind kind_id_of(its full name),
//     which no canonical kind has.
//   - `ir::rewriter`: the RewriterBase used for every mutation (null: MLIR's Operation API).
//
// Cost model, planning: every query is O(1) except is_before_in_block, which is MLIR's
// Operation::isBeforeInBlock: O(1) while the block's order index is valid, one O(block)
// renumbering after the block changed. Planning never changes the IR, so a block is renumbered at
// most once per plan. Applying: a move is a list splice, O(1), and invalidates the order index
// of its block (MLIR then renumbers lazily, on the next isBeforeInBlock query of that block).
// While the index is stale, is_before_in_block first walks up to 128 ops forward from each of the
// two ops (detail::is_before_in_block): ops that close need no renumbering.
// The adapter numbers ops densely (the optional op_index capability), so the algorithms use flat
// arrays and the dependence walk's backward sweep instead of hash sets and a sort by
// isBeforeInBlock: the first algorithm on an `ir` numbers every op under the root (two walks:
// count, then an insert per op), each op_index is then one lookup in detail::address_index, a
// table that keeps ops near each other in memory near each other in the table
// (docs/performance.md §"MLIR adapter" has the figures).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>
#include <mlir/IR/Block.h>
#include <mlir/IR/Builders.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/BuiltinTypes.h>
#include <mlir/IR/IRMapping.h>
#include <mlir/IR/Operation.h>
#include <mlir/IR/OpDefinition.h>
#include <mlir/IR/PatternMatch.h>
#include <mlir/IR/SymbolTable.h>
#include <mlir/IR/Value.h>
#include <mlir/Interfaces/FunctionInterfaces.h>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kind_names.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/detail/address_index.hpp>

namespace neuronrw::mlir_adapter {

inline std::string_view view(llvm::StringRef s) noexcept { return {s.data(), s.size()}; }
inline llvm::StringRef ref(std::string_view s) noexcept { return {s.data(), s.size()}; }

// =================================================================================== kinds

/// Op name → neuronrw kind. Copyable plain data; build it once and share it between passes.
class kind_table {
 public:
  kind_table() = default;

  /// The table the passes use by default: MHLO and StableHLO spellings of the library's kinds.
  static kind_table defaults() {
    kind_table t;
    for (std::string_view dialect : {"mhlo.", "stablehlo."}) {
      const std::string d(dialect);
      t.add(d + "all_gather", kind_id_v<kinds::all_gather>);
      t.add(d + "reduce_scatter", kind_id_v<kinds::reduce_scatter>);
      t.add(d + "all_reduce", kind_id_v<kinds::all_reduce>);
      t.add(d + "all_to_all", kind_id_v<kinds::all_to_all>);
      t.add(d + "collective_permute", kind_id_v<kinds::collective_permute>);
      t.add(d + "get_tuple_element", kind_id_v<kinds::get_tuple_element>);
      t.add(d + "fusion", kind_id_v<kinds::fusion>);
      t.add(d + "composite", kind_id_v<kinds::composite>);
      t.add(d + "return", kind_id_v<kinds::return_>);
    }
    t.add("func.func", kind_id_v<kinds::func>);
    t.add("func.call", kind_id_v<kinds::call>);
    t.add("func.return", kind_id_v<kinds::return_>);
    t.add("builtin.module", kind_id_v<kinds::module>);
    return t;
  }

  /// Maps `op_name` (e.g. "my.all_gather") to `kind`, replacing an earlier entry.
  kind_table& add(std::string_view op_name, kind_id kind) {
    names_[ref(op_name)] = kind;
    return *this;
  }
  template <kind_tag_type Tag>
  kind_table& add(std::string_view op_name) {
    return add(op_name, kind_id_v<Tag>);
  }

  /// Adds every entry of a kinds file's table (descriptors/kind_names.hpp), replacing earlier ones.
  kind_table& add(const kind_map& m) {
    for (const auto& e : m.entries()) add(e.op_name, e.id);
    return *this;
  }

  /// The kind of an op named `op_name`.
  kind_id lookup(std::string_view op_name) const {
    auto it = names_.find(ref(op_name));
    return it != names_.end() ? it->second : kind_id_of(op_name);
  }

 private:
  llvm::StringMap<kind_id> names_;
};

// =================================================================================== the IR object

/// What the algorithms receive: the root whose region(s) hold the functions (a ModuleOp), the
/// kind table, and the rewriter mutations go through (null: the Operation API directly).
/// Cheap to construct; holds a per-op-name kind cache and the op numbering, both filled on
/// demand (not thread-safe: one `ir` per thread).
class ir {
 public:
  explicit ir(mlir::Operation* root, const kind_table& kinds = default_kinds(), mlir::RewriterBase* rewriter = nullptr)
      : root_(root), kinds_(&kinds), rewriter_(rewriter) {}

  static const kind_table& default_kinds() {
    static const kind_table t = kind_table::defaults();
    return t;
  }

  mlir::Operation* root() const noexcept { return root_; }
  mlir::MLIRContext* context() const noexcept { return root_->getContext(); }
  const kind_table& kinds() const noexcept { return *kinds_; }
  mlir::RewriterBase* rewriter() const noexcept { return rewriter_; }

  /// The kind of `op`, cached per op name (OperationName is uniqued per context).
  kind_id kind(mlir::Operation* op) const {
    const void* key = op->getName().getAsOpaquePointer();
    if (key == last_name_) return last_kind_;
    auto [it, inserted] = cache_.try_emplace(key, 0);
    if (inserted) it->second = kinds_->lookup(view(op->getName().getStringRef()));
    last_name_ = key;
    last_kind_ = it->second;
    return last_kind_;
  }

  /// The MLIR attribute of a library-made value (concepts/attribute.hpp), built directly: no text,
  /// no parse, no failure path.
  mlir::Attribute attribute(const attribute_value& v) const {
    mlir::MLIRContext* cx = context();
    struct builder {
      mlir::MLIRContext* cx;
      mlir::Attribute operator()(const attr::string& a) const { return mlir::StringAttr::get(cx, ref(a.value)); }
      mlir::Attribute operator()(const attr::symbol& a) const { return mlir::FlatSymbolRefAttr::get(cx, ref(a.name)); }
      mlir::Attribute operator()(const attr::integer& a) const {
        return mlir::IntegerAttr::get(mlir::IntegerType::get(cx, a.width), a.value);
      }
      mlir::Attribute operator()(const attr::boolean& a) const { return mlir::BoolAttr::get(cx, a.value); }
      mlir::Attribute operator()(const attr::unit&) const { return mlir::UnitAttr::get(cx); }
      mlir::Attribute operator()(const attr::empty_dictionary&) const { return mlir::DictionaryAttr::get(cx, {}); }
    };
    return std::visit(builder{cx}, v);
  }

  void set_attributes(mlir::Operation* op, std::span<const named_attribute> attrs) const {
    for (const auto& a : attrs) op->setAttr(ref(a.name), attribute(a.value));
  }

  /// The op numbering behind ir_traits::op_index: a dense number per op, unique among live ops.
  /// The first call (of either function) numbers every op under the root; ops the adapter's
  /// mutations create are numbered as they are created (number()); any other op gets the next
  /// number when first asked. op_index_bound leaves headroom for such ops: an algorithm run may
  /// meet up to an eighth of the module (+64) of them; more aborts with a message, since the
  /// arrays it sized from the bound would be too small (use a fresh `ir` after creating many
  /// ops behind the adapter's back). Numbers are never reassigned: an op allocated where an
  /// erased one was inherits its number, still unique among live ops.
  std::size_t op_index(mlir::Operation* op) const {
    if (const auto i = index_.find(op); i != detail::address_index::npos) return i;
    return number_unseen(op);
  }
  std::size_t op_index_bound() const {
    if (!numbered_) number_all();
    bound_ = index_.size() + index_.size() / 8 + 64;
    return bound_;
  }
  /// Numbers `op` and the ops nested in it, if the numbering exists (the mutations call this).
  void number(mlir::Operation* op) const {
    if (numbered_) op->walk([this](mlir::Operation* o) { index_.try_emplace(o, static_cast<std::uint32_t>(index_.size())); });
  }

 private:
  // One walk: the page table grows a few times while numbering, which costs less than a first
  // walk to count the ops (a walk of the module is most of the numbering's time).
  void number_all() const {
    numbered_ = true;
    root_->walk([this](mlir::Operation* o) { index_.try_emplace(o, static_cast<std::uint32_t>(index_.size())); });
  }
  [[gnu::noinline]] std::size_t number_unseen(mlir::Operation* op) const {
    if (!numbered_) {
      number_all();
      if (const auto i = index_.find(op); i != detail::address_index::npos) return i;
    }
    const std::size_t n = index_.size();
    if (bound_ != 0 && n >= bound_) {
      llvm::errs() << "neuronrw mlir adapter: more ops created outside the adapter than op_index_bound allows ("
                   << bound_ << "); use a new neuronrw::mlir_adapter::ir after creating them\n";
      std::abort();
    }
    index_.try_emplace(op, static_cast<std::uint32_t>(n));
    return n;
  }

  mlir::Operation* root_;
  const kind_table* kinds_;
  mlir::RewriterBase* rewriter_;
  mutable llvm::DenseMap<const void*, kind_id> cache_;
  mutable const void* last_name_ = nullptr;
  mutable kind_id last_kind_ = 0;
  // op -> number, in a table read in order when ops are visited in memory order (see its header)
  mutable detail::address_index index_;
  mutable bool numbered_ = false;
  mutable std::size_t bound_ = 0;  // the last op_index_bound answer (0: none yet)
};

// =================================================================================== ranges
// LLVM's ranges are not C++20 ranges (their iterators lack the std:: iterator concepts), so the
// traits return these thin ones.

/// i ↦ get(owner, i) for i in [0, n): operands and results.
template <class Owner, class Value, Value (*Get)(Owner, unsigned)>
class indexed_range {
 public:
  class iterator {
   public:
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(Owner o, unsigned i) : o_(o), i_(i) {}
    Value operator*() const { return Get(o_, i_); }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      auto t = *this;
      ++i_;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }

   private:
    Owner o_{};
    unsigned i_ = 0;
  };
  indexed_range(Owner o, unsigned n) : o_(o), n_(n) {}
  iterator begin() const { return {o_, 0}; }
  iterator end() const { return {o_, n_}; }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }

 private:
  Owner o_;
  unsigned n_;
};

inline mlir::Value operand_at(mlir::Operation* op, unsigned i) { return op->getOperand(i); }
inline mlir::Value result_at(mlir::Operation* op, unsigned i) { return op->getResult(i); }
inline mlir::Value argument_at(mlir::Block* b, unsigned i) { return b->getArgument(i); }
using operand_range = indexed_range<mlir::Operation*, mlir::Value, &operand_at>;
using result_range = indexed_range<mlir::Operation*, mlir::Value, &result_at>;
using argument_range = indexed_range<mlir::Block*, mlir::Value, &argument_at>;

/// A singly linked walk: from a first node, Next until null, each node read through Deref.
template <class Node, class Value, Value (*Deref)(Node*), Node* (*Next)(Node*)>
class linked_range {
 public:
  class iterator {
   public:
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(Node* n) : n_(n) {}
    Value operator*() const { return Deref(n_); }
    iterator& operator++() {
      n_ = Next(n_);
      return *this;
    }
    iterator operator++(int) {
      auto t = *this;
      ++*this;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.n_ == b.n_; }

   private:
    Node* n_ = nullptr;
  };
  explicit linked_range(Node* first) : first_(first) {}
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(nullptr); }

 private:
  Node* first_;
};

inline mlir::Operation* use_owner(mlir::OpOperand* u) { return u->getOwner(); }
inline mlir::OpOperand* next_use(mlir::OpOperand* u) {
  return static_cast<mlir::OpOperand*>(u->getNextOperandUsingThisValue());
}
inline mlir::Operation* same_op(mlir::Operation* o) { return o; }
inline mlir::Operation* next_in_block(mlir::Operation* o) { return o->getNextNode(); }

/// The owners of a value's uses, in use-list order (an op using it twice appears twice).
class user_range : public linked_range<mlir::OpOperand, mlir::Operation*, &use_owner, &next_use> {
 public:
  explicit user_range(mlir::Value v) : linked_range(v.use_empty() ? nullptr : &*v.use_begin()) {}
};

/// The ops of a block, in order, as `Operation*`.
class block_op_range : public linked_range<mlir::Operation, mlir::Operation*, &same_op, &next_in_block> {
 public:
  explicit block_op_range(mlir::Block* b) : linked_range(b->empty() ? nullptr : &b->front()) {}
};

/// The blocks of every region of an op, region by region, block by block.
class region_block_range {
 public:
  class iterator {
   public:
    using value_type = mlir::Block*;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(mlir::Operation* op, unsigned region) : op_(op), region_(region) { settle(); }
    mlir::Block* operator*() const { return block_; }
    iterator& operator++() {
      block_ = block_->getNextNode();
      if (!block_) {
        ++region_;
        settle();
      }
      return *this;
    }
    iterator operator++(int) {
      auto t = *this;
      ++*this;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.block_ == b.block_; }

   private:
    // Moves to the first block of the first non-empty region at or after region_.
    void settle() {
      block_ = nullptr;
      if (!op_) return;
      for (unsigned n = op_->getNumRegions(); region_ < n; ++region_) {
        auto& r = op_->getRegion(region_);
        if (!r.empty()) {
          block_ = &r.front();
          return;
        }
      }
    }
    mlir::Operation* op_ = nullptr;
    unsigned region_ = 0;
    mlir::Block* block_ = nullptr;
  };
  explicit region_block_range(mlir::Operation* op) : op_(op->getNumRegions() ? op : nullptr) {}
  iterator begin() const { return iterator(op_, 0); }
  iterator end() const { return iterator(); }

 private:
  mlir::Operation* op_;
};

// =================================================================================== mutations

namespace detail {

/// Creates ops at a position and moves ops, through the rewriter when there is one.
class editor {
 public:
  explicit editor(const ir& g) : g_(g), own_(g.context()) {}
  mlir::OpBuilder& builder() { return g_.rewriter() ? static_cast<mlir::OpBuilder&>(*g_.rewriter()) : own_; }

  void move_before(mlir::Operation* op, mlir::Operation* anchor) {
    if (auto* r = g_.rewriter())
      r->moveOpBefore(op, anchor);
    else
      op->moveBefore(anchor);
  }
  void move_to_end(mlir::Operation* op, mlir::Block* b) {
    if (auto* r = g_.rewriter())
      r->moveOpBefore(op, b, b->end());
    else
      op->moveBefore(b, b->end());
  }
  void set_operand(mlir::OpOperand& use, mlir::Value to) {
    if (auto* r = g_.rewriter())
      r->modifyOpInPlace(use.getOwner(), [&] { use.set(to); });
    else
      use.set(to);
  }
  void replace_uses_if(mlir::Value from, mlir::Value to, llvm::function_ref<bool(mlir::OpOperand&)> pred) {
    if (auto* r = g_.rewriter())
      r->replaceUsesWithIf(from, to, pred);
    else
      from.replaceUsesWithIf(to, pred);
  }
  void erase(mlir::Operation* op) {
    if (auto* r = g_.rewriter())
      r->eraseOp(op);
    else
      op->erase();
  }

 private:
  const ir& g_;
  mlir::OpBuilder own_;
};

inline bool ends_with(llvm::StringRef s, llvm::StringRef suffix) { return s.ends_with(suffix); }

/// How far is_before_in_block walks from each op while the block's order index is stale.
inline constexpr int local_order_steps = 128;

/// Whether `a` comes before `b` (ops of one block). While the block's order index is valid this
/// is MLIR's isBeforeInBlock, O(1). After a move has invalidated it, isBeforeInBlock renumbers
/// the whole block; a repair that moves a few ops and then asks about ops near each other would
/// pay that once per repair. So first walk forward from both ops, in step, up to
/// local_order_steps each: meeting the other op or the block's end answers the query. Only
/// then renumber. At most 2 × local_order_steps steps more than MLIR alone, and only when MLIR
/// then renumbers a block of more than local_order_steps ops.
inline bool is_before_in_block(mlir::Operation* a, mlir::Operation* b) {
  if (a == b) return false;  // as isBeforeInBlock
  if (!a->getBlock()->isOpOrderValid()) {
    mlir::Operation* x = a;
    mlir::Operation* y = b;
    for (int i = 0; i < local_order_steps; ++i) {
      x = x->getNextNode();
      if (x == b) return true;
      if (x == nullptr) return false;  // every op after a was seen, b not among them
      y = y->getNextNode();
      if (y == a) return false;
      if (y == nullptr) return true;  // every op after b was seen, a not among them
    }
  }
  return a->isBeforeInBlock(b);
}

}  // namespace detail

/// groupable_ir requirement 14 through MLIR's API. Cost: O(ops of the run, nested ops included,
/// + uses of the live-outs).
inline mlir::Operation* group_ops(ir& g, const group_request<mlir::Operation*, mlir::Value>& r) {
  detail::editor ed(g);
  auto& b = ed.builder();
  mlir::OpBuilder::InsertionGuard guard(b);
  mlir::Operation* first = r.ops.front();
  b.setInsertionPoint(first);
  mlir::OperationState st(first->getLoc(), ref(r.op_name));
  llvm::SmallVector<mlir::Value> ins(r.live_ins.begin(), r.live_ins.end());
  st.addOperands(ins);
  for (auto v : r.live_outs) st.addTypes(v.getType());
  mlir::Region* region = st.addRegion();
  mlir::Operation* group = b.create(st);
  g.set_attributes(group, r.attrs);
  region = &group->getRegion(0);
  auto* body = new mlir::Block();
  region->push_back(body);
  llvm::DenseMap<mlir::Value, mlir::Value> arg_of;
  for (auto v : r.live_ins) arg_of.try_emplace(v, body->addArgument(v.getType(), v.getLoc()));
  for (auto* op : r.ops) ed.move_to_end(op, body);
  // Rewire the moved ops' uses of live-ins (nested regions included) by walking their own
  // operands: O(size of the run), not O(all uses of each live-in).
  for (auto& op : *body)
    op.walk([&](mlir::Operation* inner) {
      for (auto& use : inner->getOpOperands())
        if (auto it = arg_of.find(use.get()); it != arg_of.end()) ed.set_operand(use, it->second);
    });
  b.setInsertionPointToEnd(body);
  mlir::OperationState ts(r.ops.back()->getLoc(), ref(r.terminator_name));
  llvm::SmallVector<mlir::Value> outs(r.live_outs.begin(), r.live_outs.end());
  ts.addOperands(outs);
  b.create(ts);
  for (std::size_t i = 0; i < r.live_outs.size(); ++i)
    ed.replace_uses_if(r.live_outs[i], group->getResult(static_cast<unsigned>(i)),
                       [&](mlir::OpOperand& use) { return !group->isAncestor(use.getOwner()); });
  g.number(group);
  return group;
}

/// outlinable_ir requirement 19: a private func.func at the end of the root's first block with
/// the owner's signature and a clone of its region; a terminator of kind return that is not
/// func.return becomes one. Cost: O(size of the region).
///
/// The func.func and func.return are built by name (an OperationState whose inherent attributes
/// MLIR moves into the op's properties), as func::FuncOp::create would build them: the same op,
/// without this header including the func dialect's (FuncOps.h costs every TU that includes the
/// adapter 29 MB of g++'s memory, docs/performance.md §"Compile cost of including neuronrw"). As
/// with FuncOp::create, the func dialect is loaded in the context (a module that holds functions
/// has it); without it the op is unregistered and the verifier says so.
inline mlir::Operation* outline_region(ir& g, const outline_request<mlir::Operation*>& r) {
  detail::editor ed(g);
  auto& b = ed.builder();
  mlir::OpBuilder::InsertionGuard guard(b);
  mlir::Operation* owner = r.region_owner;
  auto type = b.getFunctionType(owner->getOperandTypes(), owner->getResultTypes());
  mlir::Block& module_body = g.root()->getRegion(0).front();
  b.setInsertionPointToEnd(&module_body);
  mlir::OperationState state(owner->getLoc(), "func.func");
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(), b.getStringAttr(ref(r.symbol)));
  state.addAttribute("function_type", mlir::TypeAttr::get(type));
  state.addAttribute(mlir::SymbolTable::getVisibilityAttrName(), b.getStringAttr("private"));
  state.addRegion();
  mlir::Operation* fn = b.create(state);
  g.set_attributes(fn, r.attrs);
  auto* entry = new mlir::Block();
  fn->getRegion(0).push_back(entry);
  for (mlir::Type t : type.getInputs()) entry->addArgument(t, owner->getLoc());
  if (owner->getNumRegions() == 0 || owner->getRegion(0).empty()) {
    g.number(fn);
    return fn;
  }
  mlir::Block& src = owner->getRegion(0).front();
  if (src.getNumArguments() != entry->getNumArguments()) {
    // A precondition FusionToComposite checks (region_arguments): outlining would leave the
    // clone's uses of the unmatched arguments dangling.
    llvm::errs() << "neuronrw mlir adapter: outline_region: the region takes " << src.getNumArguments()
                 << " argument(s), its owner has " << entry->getNumArguments() << " operand(s)\n";
    std::abort();
  }
  mlir::IRMapping map;
  for (unsigned i = 0; i < src.getNumArguments(); ++i) map.map(src.getArgument(i), entry->getArgument(i));
  b.setInsertionPointToEnd(entry);
  for (auto& op : src) b.clone(op, map);
  mlir::Operation* term = entry->empty() ? nullptr : &entry->back();
  if (term && g.kind(term) == kind_id_v<kinds::return_> && term->getName().getStringRef() != "func.return") {
    b.setInsertionPoint(term);
    mlir::OperationState ret(term->getLoc(), "func.return");
    ret.addOperands(term->getOperands());
    b.create(ret);
    ed.erase(term);
  }
  g.number(fn);
  return fn;
}

/// outlinable_ir requirement 20: a new op `op_name` just before `old` with old's operands and
/// result types and `attrs`; every use of old's results moves to it.
inline mlir::Operation* replace_op(ir& g, const replace_request<mlir::Operation*>& r) {
  detail::editor ed(g);
  auto& b = ed.builder();
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(r.old);
  mlir::OperationState st(r.old->getLoc(), ref(r.op_name));
  st.addOperands(r.old->getOperands());
  st.addTypes(r.old->getResultTypes());
  mlir::Operation* n = b.create(st);
  g.set_attributes(n, r.attrs);
  for (unsigned i = 0; i < r.old->getNumResults(); ++i)
    ed.replace_uses_if(r.old->getResult(i), n->getResult(i), [](mlir::OpOperand&) { return true; });
  g.number(n);
  return n;
}

/// The function ops directly in the root's region(s), in order.
inline std::vector<mlir::Operation*> functions(const ir& g) {
  std::vector<mlir::Operation*> fns;
  for (auto& region : g.root()->getRegions())
    for (auto& block : region)
      for (auto& op : block)
        if (mlir::isa<mlir::FunctionOpInterface>(op)) fns.push_back(&op);
  return fns;
}

/// The terminator rule: a registered op answers from its IsTerminator trait; an unregistered one
/// (mhlo, stablehlo) is a terminator when it has no results and its kind is return or its name
/// ends in `.return`, `.yield` or `.terminator` — the reference IR's rule.
inline bool is_terminator(const ir& g, mlir::Operation* op) {
  if (op->isRegistered()) return op->hasTrait<mlir::OpTrait::IsTerminator>();
  if (op->getNumResults() != 0) return false;
  if (g.kind(op) == kind_id_v<kinds::return_>) return true;
  auto n = op->getName().getStringRef();
  return n.ends_with(".return") || n.ends_with(".yield") || n.ends_with(".terminator");
}

}  // namespace neuronrw::mlir_adapter

/// mlir::Value hashes through its opaque pointer (its std::hash does not exist).
template <>
struct neuronrw::handle_hash<mlir::Value> {
  std::size_t operator()(mlir::Value v) const noexcept { return std::hash<const void*>{}(v.getAsOpaquePointer()); }
};

template <>
struct neuronrw::ir_traits<neuronrw::mlir_adapter::ir> {
  using G = mlir_adapter::ir;
  using op_handle = mlir::Operation*;
  using value_handle = mlir::Value;
  using block_handle = mlir::Block*;
  // passes/parallel.hpp R1 is not declared: op_index numbers ops lazily on first read and kind()
  // keeps a last-name cache, so concurrent reads would race; the parallel driver refuses this IR
  // at compile time (MLIR's own pass manager parallelizes function passes instead).

  // read
  static op_handle null_op() noexcept { return nullptr; }
  static kind_id kind(const G& g, op_handle o) { return g.kind(o); }
  static mlir_adapter::operand_range operands(const G&, op_handle o) { return {o, o->getNumOperands()}; }
  static op_handle defining_op(const G&, value_handle v) { return v.getDefiningOp(); }
  static mlir_adapter::user_range users(const G&, value_handle v) { return mlir_adapter::user_range(v); }
  static mlir_adapter::result_range results(const G&, op_handle o) { return {o, o->getNumResults()}; }
  /// The op owning the region `o` sits in; null at the root's top level (functions).
  static op_handle parent_op(const G& g, op_handle o) {
    auto* p = o->getParentOp();
    return p == g.root() ? nullptr : p;
  }

  // ordered
  static block_handle block_of(const G&, op_handle o) { return o->getBlock(); }
  static mlir_adapter::block_op_range ops(const G&, block_handle b) { return mlir_adapter::block_op_range(b); }
  static bool is_before_in_block(const G&, op_handle a, op_handle b) { return mlir_adapter::detail::is_before_in_block(a, b); }
  static op_handle next_op(const G&, op_handle o) { return o->getNextNode(); }
  static op_handle prev_op(const G&, op_handle o) { return o->getPrevNode(); }
  static mlir_adapter::region_block_range regions(const G&, op_handle o) { return mlir_adapter::region_block_range(o); }

  // reschedulable
  static void move_before(G& g, op_handle o, op_handle anchor) { mlir_adapter::detail::editor(g).move_before(o, anchor); }
  static void move_after(G& g, op_handle o, op_handle anchor) {
    if (auto* r = g.rewriter())
      r->moveOpAfter(o, anchor);
    else
      o->moveAfter(anchor);
  }

  // groupable
  static op_handle group_ops(G& g, const group_request<op_handle, value_handle>& r) { return mlir_adapter::group_ops(g, r); }
  static std::optional<std::string> string_attribute(const G&, op_handle o, std::string_view name) {
    if (auto s = mlir::dyn_cast_or_null<mlir::StringAttr>(o->getAttr(mlir_adapter::ref(name)))) return s.getValue().str();
    return std::nullopt;
  }

  // outlinable
  static std::vector<op_handle> functions(const G& g) { return mlir_adapter::functions(g); }
  static bool has_attribute(const G&, op_handle o, std::string_view name) {
    return static_cast<bool>(o->getAttr(mlir_adapter::ref(name)));
  }
  static bool has_symbol(const G& g, std::string_view name) {
    return mlir::SymbolTable::lookupSymbolIn(g.root(), mlir_adapter::ref(name)) != nullptr;
  }
  static op_handle outline_region(G& g, const outline_request<op_handle>& r) { return mlir_adapter::outline_region(g, r); }
  static op_handle replace_op(G& g, const replace_request<op_handle>& r) { return mlir_adapter::replace_op(g, r); }
  static void erase_op(G& g, op_handle o) { mlir_adapter::detail::editor(g).erase(o); }

  // optional capabilities
  /// Dense op numbers (ir::op_index): flat arrays instead of hash sets in the algorithms.
  static std::size_t op_index(const G& g, op_handle o) { return g.op_index(o); }
  static std::size_t op_index_bound(const G& g) { return g.op_index_bound(); }
  static mlir_adapter::argument_range block_arguments(const G&, block_handle b) { return {b, b->getNumArguments()}; }
  static block_handle argument_block(const G&, value_handle v) {
    if (auto a = mlir::dyn_cast<mlir::BlockArgument>(v)) return a.getOwner();
    return nullptr;
  }
  static bool is_terminator(const G& g, op_handle o) { return mlir_adapter::is_terminator(g, o); }
  /// O8: the op's name, attributes (inherent and discardable, one uniqued dictionary) and result
  /// types; MLIR uniques all three, so equal ops give equal digests within one context.
  static std::uint64_t op_digest(const G&, op_handle o) {
    llvm::hash_code h = llvm::hash_combine(o->getName().getAsOpaquePointer(), o->getAttrDictionary().getAsOpaquePointer());
    for (mlir::Type t : o->getResultTypes()) h = llvm::hash_combine(h, t.getAsOpaquePointer());
    return static_cast<std::uint64_t>(static_cast<std::size_t>(h));
  }
};

static_assert(neuronrw::outlinable_ir<neuronrw::mlir_adapter::ir>);
static_assert(neuronrw::argument_block_ir<neuronrw::mlir_adapter::ir>);
static_assert(neuronrw::terminator_aware_ir<neuronrw::mlir_adapter::ir>);
static_assert(neuronrw::indexed_ir<neuronrw::mlir_adapter::ir>);
static_assert(neuronrw::digest_ir<neuronrw::mlir_adapter::ir>);
