// neuronrw/ir/ref/ir.hpp — the reference IR: a compact SSA module (docs/reference-ir.md), the
// embedded default that every algorithm runs on when the user brings no compiler of their own.
//
// Shape: module → top block of ops (functions are `func.func` ops, as in MLIR) → each op has a
// name, operands, typed results, an ordered attribute list and any number of regions, each with
// one block (with block arguments): what the ML dialects use (`stablehlo.while` has two, `case`
// one per branch); a region of several blocks, or a successor, is not modelled. Types and attribute values are opaque, balanced text: the reference IR
// needs no type system, and keeping the text verbatim makes print(parse(x)) a fixed point.
//
// Layout (why it looks like this): the dependence walk and the order queries are the hot paths
// (docs/performance.md), so the fields they touch live in flat vectors indexed by 32-bit ids: what
// a walk step reads of an op it takes (kind, operand range, region) interleaved in one 16-byte record,
// an op's block in its own column (read for every producer, so kept dense),
// the use pool with each use's value, owner and the value's defining op (so the walk goes from an
// op to its producers without the value hop), a value's defining op. Everything else (names,
// attributes, locations) sits in a cold record of 44 bytes: hints and location texts as spans of
// one character arena, attributes/properties/result groups in a side record only ops that have
// them get (docs/performance.md §"Memory per op"). Handles are plain
// ids: cheap to copy, hash and compare, and stable across moves. Erased ops keep their id (a
// tombstone), so a handle never silently aliases a newer op.
//
// Block order lives in an order_maintenance structure (neuronrw/algorithms/order.hpp): op ids are
// its node ids, block ids its list ids, so is_before/move are O(1) amortized.
//
// Customization points: none; this header is a concrete IR. Its concept mapping is in
// neuronrw/ir/ref/traits.hpp.
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/order.hpp>
#include <neuronrw/algorithms/walk.hpp>
#include <neuronrw/descriptors/kind_names.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/detail/assert.hpp>
#include <neuronrw/diagnostic.hpp>

namespace neuronrw::ref {

inline constexpr std::uint32_t npos = 0xFFFFFFFFu;

#define NEURONRW_REF_HANDLE(type_name)                                                      \
  struct type_name {                                                                        \
    std::uint32_t id = npos;                                                                \
    constexpr bool valid() const noexcept { return id != npos; }                            \
    friend constexpr bool operator==(type_name, type_name) = default;                       \
    friend constexpr auto operator<=>(type_name, type_name) = default;                      \
  }

NEURONRW_REF_HANDLE(op_ref);
NEURONRW_REF_HANDLE(value_ref);
NEURONRW_REF_HANDLE(block_ref);
NEURONRW_REF_HANDLE(type_ref);

#undef NEURONRW_REF_HANDLE

/// One attribute: name and opaque value text, e.g. {"all_gather_dimension", "0 : i64"}.
struct attribute {
  std::string name;
  std::string value;
  friend bool operator==(const attribute&, const attribute&) = default;
};

/// One named group of an op's results as written (`%state, %out = ...` has two groups of one;
/// `%a:2, %b = ...` a group of two and one).
struct result_group_hint {
  std::string name;
  std::uint32_t count = 1;
  friend bool operator==(const result_group_hint&, const result_group_hint&) = default;
};

/// The kind of an op of the reference IR by the built-in rule (descriptors/kind_names.hpp,
/// op_name_kind): its name without the dialect prefix, in canonical spelling ("mhlo.all_gather",
/// "stablehlo.all_gather", "xla.all-gather" → all_gather; "func.return" → return). A dialect that
/// spells an all_gather otherwise gives the module a kind table (module::set_kinds, the driver's
/// --kinds=FILE).
constexpr kind_id classify_op_name(std::string_view name) noexcept { return op_name_kind(name); }

/// Function-specific data of a `func.func` op (kept apart so ordinary ops stay small).
struct func_info {
  std::string sym_name;
  std::string visibility;              ///< "" (none written: public), or "public", "private", "nested" as written
  std::vector<type_ref> result_types;
  std::vector<std::string> result_attrs;  ///< per result: "" or a dictionary text "{...}"
  std::vector<std::string> arg_attrs;     ///< per argument: "" or a dictionary text
  std::vector<type_ref> decl_arg_types;   ///< argument types of a declaration (no body)
  bool declaration = false;               ///< `func.func private @f(i32) -> i32` has no body
};

/// The reference module. Move-only: it owns every op, value and block.
/// A module's mutation counter (module::version()): its values are unique in the process — each
/// module, and each module moved into or from, starts from a fresh serial (in the high 32 bits)
/// — so a dense copy keyed by a version never outlives what it copied, even when a module is
/// replaced by another at the same address.
class mutation_clock {
 public:
  mutation_clock() noexcept : v_(fresh()) {}
  // Both sides of a move change contents, so both take a fresh serial.
  mutation_clock(mutation_clock&& o) noexcept : v_(fresh()) { o.v_ = fresh(); }
  mutation_clock& operator=(mutation_clock&& o) noexcept {
    v_ = fresh();
    o.v_ = fresh();
    return *this;
  }
  void tick() noexcept { ++v_; }
  std::uint64_t value() const noexcept { return v_; }

 private:
  static std::uint64_t fresh() noexcept {
    static std::atomic<std::uint64_t> serial{0};
    return (serial.fetch_add(1, std::memory_order_relaxed) + 1) << 32;
  }
  std::uint64_t v_;
};

class module {
 public:
  module() {
    body_ = create_block(op_ref{});
  }
  module(const module&) = delete;
  module& operator=(const module&) = delete;
  module(module&&) noexcept = default;
  module& operator=(module&&) noexcept = default;

  // ---------------------------------------------------------------- strings and types
  type_ref intern_type(std::string_view text) { return type_ref{strings_.intern(text)}; }
  std::string_view type_text(type_ref t) const { return strings_.text(t.id); }

  // ---------------------------------------------------------------- module level
  /// The block holding the module's top-level ops (functions).
  block_ref body() const noexcept { return body_; }
  /// `module @name attributes {...}` parts and top-level alias definitions, kept verbatim.
  std::string sym_name;                      ///< without '@'; empty when absent
  std::string attributes_text;               ///< "{...}" or empty
  std::string module_loc_text;               ///< trailing "loc(...)" of the module or empty
  std::vector<std::string> alias_definitions;  ///< "#loc1 = loc(...)", "!t = i32" in input order
  /// How many of `alias_definitions` (the last ones) followed the module in the input, where
  /// MLIR prints location aliases: they print after it again.
  std::size_t trailing_aliases = 0;
  /// The file metadata dictionary's entries, the text between `{-#` and `#-}`
  /// (`dialect_resources: {...}`, `external_resources: {...}`: the blobs `dense_resource<...>`
  /// names), or empty. Printed after the module, where mlir-opt prints it.
  std::string file_metadata;
  std::string source_name;                   ///< file name used in diagnostics
  /// The input spoke its dialects' custom forms (the parser read at least one op in one): ops
  /// created afterwards, by the passes, print in theirs too where they have one (a composite of
  /// FusionToComposite in a pretty StableHLO program is a pretty `stablehlo.composite`).
  bool custom_forms = false;

  // ---------------------------------------------------------------- creating ops
  /// A new detached op. Results are fresh values of `result_types`.
  op_ref create_op(std::string_view name, std::span<const value_ref> operands,
                   std::span<const type_ref> result_types, std::vector<attribute> attrs = {},
                   source_loc loc = {}) {
    const auto id = static_cast<std::uint32_t>(hot_.size());
    order_.add_node();
    hot_.push_back(op_hot{kinds_ ? kinds_->lookup(name) : classify_op_name(name), static_cast<std::uint32_t>(use_value_.size()),
                          static_cast<std::uint32_t>(operands.size()), block_ref{}});
    op_block_.push_back(npos);
    op_result_begin_.push_back(static_cast<std::uint32_t>(value_def_.size()));
    op_result_count_.push_back(static_cast<std::uint32_t>(result_types.size()));
    cold_.push_back(op_cold{});
    auto& c = cold_.back();
    c.name = strings_.intern(name);
    c.loc = loc;
    c.syntax = custom_forms ? 1 : 0;  // syntax_form::custom (ir/ref/syntax/op_syntax.hpp)
    if (journal_depth_ != 0) journal_.push_back({undo_kind::created, id, 0, 0, 0});
    for (auto v : operands) append_use(v, op_ref{id});
    for (std::uint32_t i = 0; i < result_types.size(); ++i)
      new_value(op_ref{id}, i, npos, result_types[i]);
    if (!attrs.empty()) extra_for(op_ref{id}).attrs = std::move(attrs);
    return op_ref{id};
  }

  /// Gives `op` one more region (after those it has), with one empty block whose arguments have
  /// `arg_types`; returns the block.
  block_ref add_region(op_ref op, std::span<const type_ref> arg_types = {}) {
    auto b = create_block(op);
    version_.tick();
    auto& h = hot_[op.id];
    if (!h.region.valid()) {
      if (journal_depth_ != 0) journal_.push_back({undo_kind::region, op.id, h.region.id, 0, 0});
      h.region = b;
    } else {
      // Second and later regions: the op's list of region blocks, kept apart so the hot record
      // (and every op with at most one region) stays as small as it was.
      auto& c = cold_[op.id];
      if (c.regions == npos) {
        if (journal_depth_ != 0) note_cold([op](module& m) { m.cold_[op.id].regions = npos; });
        c.regions = static_cast<std::uint32_t>(region_lists_.size());
        region_lists_.push_back({h.region});
      }
      if (journal_depth_ != 0) note_cold([op](module& m) { m.region_lists_[m.cold_[op.id].regions].pop_back(); });
      region_lists_[c.regions].push_back(b);
    }
    for (auto t : arg_types) add_block_argument(b, t);
    return b;
  }

  value_ref add_block_argument(block_ref b, type_ref t, std::string_view name_hint = {}) {
    auto idx = static_cast<std::uint32_t>(block_args_[b.id].size());
    auto v = new_value(op_ref{}, idx, b.id, t);
    if (journal_depth_ != 0) journal_.push_back({undo_kind::block_argument, b.id, 0, 0, 0});
    block_args_[b.id].push_back(v);
    arg_of(v).name_hint = cold_text_.put(name_hint);
    return v;
  }

  /// Marks `op` as a function and returns its function record.
  func_info& make_function(op_ref op) {
    if (journal_depth_ != 0) journal_.push_back({undo_kind::function, op.id, cold_[op.id].func, 0, 0});
    cold_[op.id].func = static_cast<std::uint32_t>(funcs_.size());
    funcs_.emplace_back();
    return funcs_.back();
  }

  // ---------------------------------------------------------------- placing and moving ops
  void push_back(block_ref b, op_ref op) {
    check_block_not_inside(b, op);
    note_position(op);
    place(op, b);
    order_.push_back(b.id, op.id);
  }
  void push_front(block_ref b, op_ref op) {
    check_block_not_inside(b, op);
    note_position(op);
    place(op, b);
    order_.push_front(b.id, op.id);
  }
  /// @pre op detached, anchor in a block (so anchor cannot be inside op's region... unless op
  /// was detached with its region intact; checked like move_before).
  void insert_before(op_ref op, op_ref anchor) {
    check_not_inside(anchor, op);
    note_position(op);
    place(op, block_of(anchor));
    order_.insert_before(op.id, anchor.id);
  }
  void insert_after(op_ref op, op_ref anchor) {
    check_not_inside(anchor, op);
    note_position(op);
    place(op, block_of(anchor));
    order_.insert_after(op.id, anchor.id);
  }
  /// Moves `op` (attached or detached) to just before `anchor`. O(1) amortized plus the nesting
  /// depth of anchor.
  /// @pre anchor does not lie inside op's regions (the move would make op its own ancestor).
  /// Like every placing function here (push_back, push_front, insert_before/after, move_after,
  /// move_to_end), a call that breaks this aborts with "neuronrw::ref::module: cannot move an op
  /// into its own region" (NEURONRW_CHECK: in every build, with or without exceptions), before
  /// anything changed. The generic passes never ask for such a move; a caller that might can
  /// test it first by walking parent_op from the anchor.
  void move_before(op_ref op, op_ref anchor) {
    if (op == anchor) return;
    check_not_inside(anchor, op);
    note_position(op);
    place(op, block_of(anchor));
    order_.move_before(op.id, anchor.id);
  }
  void move_after(op_ref op, op_ref anchor) {
    if (op == anchor) return;
    check_not_inside(anchor, op);
    note_position(op);
    place(op, block_of(anchor));
    order_.move_after(op.id, anchor.id);
  }
  /// Puts the ops of `run`, in order, immediately after `anchor`: the outcome of
  /// move_after(run[0], anchor), move_after(run[1], run[0]), ..., with the order labels of the
  /// whole run placed at once (order_maintenance::move_run_after). Every op is checked like
  /// move_after before anything changes. Inside a transaction the ops move one by one, so the
  /// journal holds the positions single moves record.
  void move_run_after(std::span<const op_ref> run, op_ref anchor) {
    const std::uint32_t b = op_block_[anchor.id];
    bool all_in_block = true;  // then no op changes block: op_block_ needs no write
    for (const op_ref op : run)  // an op of anchor's block cannot enclose it
      if (op_block_[op.id] != b) {
        check_not_inside(anchor, op);
        all_in_block = false;
      }
    if (journal_depth_ != 0) {
      for (const op_ref op : run) {
        move_after(op, anchor);
        anchor = op;
      }
      return;
    }
    version_.tick();
    if (!all_in_block)
      for (const op_ref op : run) op_block_[op.id] = b;
    order_.move_run_after(run, anchor.id, [](op_ref o) { return o.id; });
  }
  void move_to_end(op_ref op, block_ref b) {
    check_block_not_inside(b, op);  // the precondition, checked before anything changes
    note_position(op);
    if (order_.attached(op.id)) order_.detach(op.id);
    push_back(b, op);
  }
  /// Takes `op` out of its block (it keeps its region and operands).
  void detach(op_ref op) {
    note_position(op);
    if (order_.attached(op.id)) order_.detach(op.id);
    op_block_[op.id] = npos;
  }

  // ---------------------------------------------------------------- erasing
  /// Erases `op` and everything in its region. @pre no result of op (or of a region op) is used
  /// outside the erased ops. Operand uses are dropped. The ids stay tombstones.
  /// Iterative (an explicit stack), so deep nesting cannot overflow the call stack.
  void erase_op(op_ref op) {
    // Post-order with each region's ops back to front: every op's region ops are erased before
    // the op itself, and users before their definitions, so uses are dropped before the values.
    walk_tree<walk_order::post, op_ref>(
        [op](auto&& push) { push(op); },
        [this](op_ref o, auto&& push) {
          const auto rs = region_blocks(o);
          for (auto r = rs.rbegin(); r != rs.rend(); ++r)
            for (auto x = back(*r); x.valid(); x = prev_op(x)) push(x);
        },
        [this](op_ref o) {
          drop_operands(o);
          detach(o);
          if (journal_depth_ != 0) journal_.push_back({undo_kind::erased, o.id, 0, 0, 0});
          cold_[o.id].erased = true;
        });
  }
  bool erased(op_ref op) const { return cold_[op.id].erased; }

  // ---------------------------------------------------------------- reading ops
  std::size_t op_capacity() const noexcept { return hot_.size(); }
  std::string_view name(op_ref op) const { return strings_.text(cold_[op.id].name); }
  kind_id kind(op_ref op) const noexcept { return hot_[op.id].kind; }
  /// Classifies ops through `kinds` (a kinds file's table, descriptors/kind_names.hpp) instead of
  /// the built-in rule: every op the module has now, and every op created later (a pass's fusions
  /// and composites). Null: back to the built-in rule. O(ops · log table). Not journaled: set it
  /// before a pass runs, not inside a transaction.
  void set_kinds(std::shared_ptr<const kind_map> kinds) {
    kinds_ = std::move(kinds);
    for (std::size_t i = 0; i < hot_.size(); ++i) {
      const std::string_view n = strings_.text(cold_[i].name);
      hot_[i].kind = kinds_ ? kinds_->lookup(n) : classify_op_name(n);
    }
  }
  /// The kind table the module classifies through (null: the built-in rule).
  const std::shared_ptr<const kind_map>& kinds() const noexcept { return kinds_; }
  source_loc loc(op_ref op) const { return cold_[op.id].loc; }
  void set_loc(op_ref op, source_loc l) {
    if (journal_depth_ != 0) note_cold([op, old = cold_[op.id].loc](module& m) { m.cold_[op.id].loc = old; });
    cold_[op.id].loc = l;
  }
  /// Trailing `loc(...)` text of the op as parsed ("" when none). The view is valid until the
  /// module's next cold-text write (a set_*_text or set_*name_hint call).
  std::string_view loc_text(op_ref op) const noexcept { return cold_text_.get(cold_[op.id].loc_text); }
  void set_loc_text(op_ref op, std::string_view t) {
    if (journal_depth_ != 0) note_cold([op, old = cold_[op.id].loc_text](module& m) { m.cold_[op.id].loc_text = old; });
    cold_[op.id].loc_text = cold_text_.put(t);
  }
  /// Generic-form properties `<{...}>` of a registered op other than func.*, kept verbatim.
  const std::string& properties_text(op_ref op) const noexcept {
    const op_extra* x = extra_of(op);
    return x ? x->properties : no_text();
  }
  void set_properties_text(op_ref op, std::string t) {
    if (t.empty() && !extra_of(op)) return;
    auto& x = extra_for(op);
    if (journal_depth_ != 0)
      note_cold([op, old = x.properties](module& m) mutable { m.extra_for(op).properties = std::move(old); });
    x.properties = std::move(t);
  }
  /// How the op is printed (ref::syntax_form): as read in the generic form, in its dialect's
  /// custom form (ops of the syntax table, ir/ref/syntax/op_table.hpp), or generic with its
  /// inherent attributes as properties. Set by the parser; a new op is generic.
  std::uint8_t syntax_form(op_ref op) const { return cold_[op.id].syntax; }
  void set_syntax_form(op_ref op, std::uint8_t f) {
    if (journal_depth_ != 0)
      note_cold([op, old = cold_[op.id].syntax](module& m) { m.cold_[op.id].syntax = old; });
    cold_[op.id].syntax = f;
  }
  /// Name hint of the op's result group (printed as %hint or %hint:N); of its first group when
  /// the results were written as several (`result_group_hints`). Setting it makes the results
  /// one group again. The view is valid until the module's next cold-text write (moving the
  /// module keeps it valid).
  std::string_view name_hint(op_ref op) const noexcept { return cold_text_.get(cold_[op.id].name_hint); }
  void set_name_hint(op_ref op, std::string_view h) {
    const op_extra* x = extra_of(op);
    if (journal_depth_ != 0) {
      std::vector<result_group_hint> groups;
      if (x) groups = x->result_groups;
      note_cold([op, old = cold_[op.id].name_hint, groups = std::move(groups)](module& m) mutable {
        m.cold_[op.id].name_hint = old;
        if (!groups.empty() || m.extra_of(op)) m.extra_for(op).result_groups = std::move(groups);
      });
    }
    cold_[op.id].name_hint = cold_text_.put(h);
    if (x) extras_[cold_[op.id].extra].result_groups.clear();
  }
  /// The named groups of the op's results when they were written as several
  /// (`%state, %out = stablehlo.rng_bit_generator ...`), printed so when names are printed from
  /// hints; empty when they are one group. Setting them sets `name_hint` to the first group's.
  std::span<const result_group_hint> result_group_hints(op_ref op) const noexcept {
    const op_extra* x = extra_of(op);
    if (!x) return {};
    return x->result_groups;
  }
  void set_result_group_hints(op_ref op, std::vector<result_group_hint> groups) {
    if (groups.size() == 1) {
      set_name_hint(op, groups.front().name);
      return;
    }
    if (groups.empty()) {
      set_name_hint(op, name_hint(op));  // clears the groups; put() copies a text of the arena
      return;
    }
    set_name_hint(op, groups.front().name);
    extra_for(op).result_groups = std::move(groups);
  }

  std::span<const value_ref> operands(op_ref op) const noexcept {
    return {use_value_.data() + hot_[op.id].operand_begin, hot_[op.id].operand_count};
  }
  /// The defining op of each operand, in operand order (invalid for a block argument): the
  /// operand list with the value → op hop done, kept up to date with every operand change. The
  /// dependence walk reads producers through it (optional capability O6, concepts/ir.hpp).
  std::span<const op_ref> operand_defs(op_ref op) const noexcept {
    return {use_def_.data() + hot_[op.id].operand_begin, hot_[op.id].operand_count};
  }
  std::size_t num_operands(op_ref op) const noexcept { return hot_[op.id].operand_count; }
  value_ref operand(op_ref op, std::size_t i) const { return operands(op)[i]; }
  /// Replaces operand i, keeping the use lists right.
  void set_operand(op_ref op, std::size_t i, value_ref v) {
    auto u = hot_[op.id].operand_begin + static_cast<std::uint32_t>(i);
    unlink_use(u);
    set_use_value(u, v);
    link_use(u);
  }
  /// Replaces the whole operand list (the old uses are dropped; new ones appended to the pool).
  void set_operands(op_ref op, std::span<const value_ref> vs) {
    drop_operands(op);
    note_operand_range(op);
    hot_[op.id].operand_begin = static_cast<std::uint32_t>(use_value_.size());
    hot_[op.id].operand_count = static_cast<std::uint32_t>(vs.size());
    for (auto v : vs) append_use(v, op);
  }

  std::size_t num_results(op_ref op) const noexcept { return op_result_count_[op.id]; }
  value_ref result(op_ref op, std::size_t i) const noexcept {
    return value_ref{op_result_begin_[op.id] + static_cast<std::uint32_t>(i)};
  }
  class value_range;  // defined below
  value_range results(op_ref op) const noexcept;

  bool has_region(op_ref op) const noexcept { return hot_[op.id].region.valid(); }
  /// The first region's block (the only one of a function, a fusion, a loop body), or an
  /// invalid handle.
  block_ref region_block(op_ref op) const noexcept { return hot_[op.id].region; }
  /// The blocks of the op's regions, one per region in order (what generic code iterates);
  /// empty when it has none. An op without a region reads nothing but its hot record.
  std::span<const block_ref> region_blocks(op_ref op) const noexcept {
    const auto& h = hot_[op.id];
    if (!h.region.valid()) [[likely]]
      return {};
    return region_blocks_of(op);
  }
  std::size_t num_regions(op_ref op) const noexcept { return region_blocks(op).size(); }

  /// The op's attributes in order. The mutable overload gives the list to write in place (not
  /// journaled).
  const std::vector<attribute>& attributes(op_ref op) const noexcept {
    const op_extra* x = extra_of(op);
    return x ? x->attrs : no_attributes();
  }
  std::vector<attribute>& attributes(op_ref op) { return extra_for(op).attrs; }
  /// Replaces the op's whole attribute list (journaled; an op given none keeps no record for it).
  void set_attributes(op_ref op, std::vector<attribute> attrs) {
    if (attrs.empty() && !extra_of(op)) return;
    note_attributes(op);
    extra_for(op).attrs = std::move(attrs);
  }
  const attribute* find_attribute(op_ref op, std::string_view key) const {
    for (auto& a : attributes(op))
      if (a.name == key) return &a;
    return nullptr;
  }
  /// Sets (replacing in place, or appending) an attribute.
  void set_attribute(op_ref op, std::string_view key, std::string value) {
    note_attributes(op);
    auto& as = extra_for(op).attrs;
    for (auto& a : as)
      if (a.name == key) {
        a.value = std::move(value);
        return;
      }
    as.push_back({std::string(key), std::move(value)});
  }
  bool remove_attribute(op_ref op, std::string_view key) {
    if (!extra_of(op)) return false;
    note_attributes(op);
    auto& as = extra_for(op).attrs;
    for (auto it = as.begin(); it != as.end(); ++it)
      if (it->name == key) {
        as.erase(it);
        return true;
      }
    return false;
  }

  bool is_function(op_ref op) const { return cold_[op.id].func != npos; }
  const func_info& function(op_ref op) const { return funcs_[cold_[op.id].func]; }
  func_info& function(op_ref op) { return funcs_[cold_[op.id].func]; }

  // ---------------------------------------------------------------- blocks and order
  block_ref block_of(op_ref op) const noexcept { return block_ref{op_block_[op.id]}; }
  /// The op owning the region the block belongs to; invalid for the module body.
  op_ref parent_op_of_block(block_ref b) const noexcept { return block_parent_[b.id]; }
  /// The op owning the region `op` sits in; invalid for top-level ops or detached ops.
  op_ref parent_op(op_ref op) const noexcept {
    auto b = op_block_[op.id];
    return b == npos ? op_ref{} : block_parent_[b];
  }
  std::span<const value_ref> arguments(block_ref b) const noexcept { return block_args_[b.id]; }
  /// Whether block `b`, when it has neither ops nor arguments, stands for a region holding one
  /// empty block (written `({` `^bb0:` `})`) rather than for a region with no block (`({` `})`).
  /// MLIR keeps the two apart and prints them differently; a region here always holds one
  /// block, and this bit says which of the two an empty one is. The parser sets it where a
  /// block label was written; it is false otherwise and changes nothing else.
  bool explicit_block(block_ref b) const noexcept { return block_explicit_[b.id] != 0; }
  void set_explicit_block(block_ref b, bool on) {
    if (journal_depth_ != 0)
      note_cold([b, old = block_explicit_[b.id]](module& m) { m.block_explicit_[b.id] = old; });
    block_explicit_[b.id] = on ? 1 : 0;
  }

  /// @pre a and b are in the same block. O(1).
  bool is_before_in_block(op_ref a, op_ref b) const { return order_.is_before(a.id, b.id); }
  op_ref next_op(op_ref op) const { return op_ref{order_.next(op.id)}; }
  op_ref prev_op(op_ref op) const { return op_ref{order_.prev(op.id)}; }
  op_ref front(block_ref b) const { return op_ref{order_.first(b.id)}; }
  op_ref back(block_ref b) const { return op_ref{order_.last(b.id)}; }
  std::size_t size(block_ref b) const { return order_.size(b.id); }
  bool empty(block_ref b) const { return order_.empty(b.id); }
  std::size_t block_count() const noexcept { return block_parent_.size(); }

  class op_range;
  /// The ops of a block, in order.
  op_range ops(block_ref b) const noexcept;

  // ---------------------------------------------------------------- values and uses
  std::size_t value_capacity() const noexcept { return value_def_.size(); }
  /// The defining op, or an invalid handle for a block argument.
  op_ref defining_op(value_ref v) const noexcept { return op_ref{value_def_[v.id]}; }
  /// Result index (for a result) or argument index (for a block argument).
  std::uint32_t value_index(value_ref v) const noexcept { return value_index_[v.id]; }
  /// The block of a block argument (invalid for results).
  block_ref argument_block(value_ref v) const noexcept {
    return is_argument(v) ? block_ref{arg_of(v).block} : block_ref{};
  }
  /// The block the value is visible from: the argument's block or the defining op's block.
  block_ref defining_block(value_ref v) const noexcept {
    auto d = value_def_[v.id];
    return d == npos ? block_ref{arg_of(v).block} : block_ref{op_block_[d]};
  }
  type_ref type(value_ref v) const noexcept {
    return is_argument(v) ? arg_of(v).type : type_ref{value_aux_[v.id]};
  }
  std::string_view type_text(value_ref v) const { return type_text(type(v)); }
  void set_type(value_ref v, type_ref t) {
    if (journal_depth_ != 0) note_cold([v, old = type(v)](module& m) { m.store_type(v, old); });
    store_type(v, t);
  }
  /// Name hint of a block argument ("" for a result). The view is valid until the module's next
  /// cold-text write.
  std::string_view arg_name_hint(value_ref v) const noexcept {
    return is_argument(v) ? cold_text_.get(arg_of(v).name_hint) : std::string_view{};
  }
  /// Sets a block argument's name hint (a result has none: ignored).
  void set_arg_name_hint(value_ref v, std::string_view h) {
    if (!is_argument(v)) return;
    if (journal_depth_ != 0) note_cold([v, old = arg_of(v).name_hint](module& m) { m.arg_of(v).name_hint = old; });
    arg_of(v).name_hint = cold_text_.put(h);
  }
  /// Trailing `loc(...)` of a block argument ("" when none, and for a result). Valid until the
  /// next cold-text write.
  std::string_view arg_loc_text(value_ref v) const noexcept {
    return is_argument(v) ? cold_text_.get(arg_of(v).loc_text) : std::string_view{};
  }
  /// Sets a block argument's trailing location (a result has none: ignored).
  void set_arg_loc_text(value_ref v, std::string_view t) {
    if (!is_argument(v)) return;
    if (journal_depth_ != 0) note_cold([v, old = arg_of(v).loc_text](module& m) { m.arg_of(v).loc_text = old; });
    arg_of(v).loc_text = cold_text_.put(t);
  }

  bool has_uses(value_ref v) const noexcept { return value_first_use_[v.id] != npos; }
  class user_range;
  /// The ops using `v`, one entry per use (an op using v twice appears twice), most recent
  /// use first.
  user_range users(value_ref v) const noexcept;

  /// Rewires every use of `from` to `to`.
  void replace_all_uses(value_ref from, value_ref to) {
    replace_uses_if(from, to, [](op_ref) { return true; });
  }
  /// Rewires the uses of `from` whose owner satisfies `pred`.
  template <class Pred>
  void replace_uses_if(value_ref from, value_ref to, Pred&& pred) {
    if (from == to) return;
    auto u = value_first_use_[from.id];
    while (u != npos) {
      auto next = use_next_[u];
      if (pred(op_ref{use_owner_[u]})) {
        unlink_use(u);
        set_use_value(u, to);
        link_use(u);
      }
      u = next;
    }
  }

  /// Gives back the tables' spare capacity (they grow by doubling, so up to half of a table can
  /// be slack). The parser calls it once it has read a module; call it after building a large
  /// module by hand. Handles, order and contents are unchanged; references and views into the
  /// module are not kept valid.
  void shrink_to_fit() {
    order_.shrink_to_fit();
    hot_.shrink_to_fit();
    op_block_.shrink_to_fit();
    op_result_begin_.shrink_to_fit();
    op_result_count_.shrink_to_fit();
    cold_.shrink_to_fit();
    extras_.shrink_to_fit();
    cold_text_.chars.shrink_to_fit();
    funcs_.shrink_to_fit();
    region_lists_.shrink_to_fit();
    value_def_.shrink_to_fit();
    value_index_.shrink_to_fit();
    value_first_use_.shrink_to_fit();
    value_aux_.shrink_to_fit();
    args_.shrink_to_fit();
    use_value_.shrink_to_fit();
    use_def_.shrink_to_fit();
    use_owner_.shrink_to_fit();
    use_next_.shrink_to_fit();
    use_prev_.shrink_to_fit();
    block_parent_.shrink_to_fit();
    block_args_.shrink_to_fit();
    block_explicit_.shrink_to_fit();
    strings_.texts.shrink_to_fit();
  }

  /// The order structure (read-only), for benchmarks and adapters.
  const order_maintenance& order() const noexcept { return order_; }

  // ---------------------------------------------------------------- transactions
  // An undo journal (as MLIR's dialect conversion keeps one to roll back): while a transaction
  // is open, every mutation through this class's members records its inverse first — op
  // placement and moves, use-list links and unlinks, operand writes, regions, block arguments,
  // function records, erasure, attribute and cold-text edits, creation. rollback() replays the
  // inverses newest first, so the module prints exactly as before and every handle taken before
  // begin_transaction() means the same op, value and block again. Ops created inside a rolled
  // back transaction stay behind as erased, detached tombstones (ids are never reused, exactly as
  // after erase_op); an op erased inside one is detached and flagged, never freed, so rollback
  // simply puts it back. Not journaled: the public module-level fields (sym_name, ...) and
  // writes through the mutable references attributes(op) and function(op). Outside a
  // transaction the journal costs one well-predicted branch per mutation.
  // Transactions nest: a token is the journal position; committing an inner transaction keeps
  // its entries so an outer rollback still undoes them.
  /// Opens a transaction; returns its token for commit/rollback.
  std::size_t begin_transaction() {
    ++journal_depth_;
    return journal_.size();
  }
  /// Keeps every change since begin_transaction() returned `token`.
  void commit(std::size_t token) {
    NEURONRW_ASSERT(journal_depth_ != 0 && token <= journal_.size(), "ref::module: commit without a transaction");
    (void)token;
    if (--journal_depth_ == 0) {
      journal_.clear();
      cold_undo_.clear();
    }
  }
  /// Undoes every change since begin_transaction() returned `token`, newest first.
  void rollback(std::size_t token) {
    NEURONRW_ASSERT(journal_depth_ != 0 && token <= journal_.size(), "ref::module: rollback without a transaction");
    const auto depth = journal_depth_;
    journal_depth_ = 0;  // the inverses themselves are not journaled
    version_.tick();
    while (journal_.size() > token) {
      undo(journal_.back());
      journal_.pop_back();
    }
    journal_depth_ = depth - 1;
    if (journal_depth_ == 0) {
      journal_.clear();
      cold_undo_.clear();
    }
  }
  /// Whether a transaction is open.
  bool in_transaction() const noexcept { return journal_depth_ != 0; }

  /// A mutation counter (capability O7, concepts/ir.hpp): it moves on whenever an op is placed,
  /// moved, detached or erased, an operand slot is written or created, an op gains a region, or
  /// a transaction rolls back. The dependence walk's dense block copies are keyed by it.
  std::uint64_t version() const noexcept { return version_.value(); }
  /// Entries in the journal (for tests and measurements).
  std::size_t journal_size() const noexcept { return journal_.size(); }

 private:
  enum class undo_kind : std::uint8_t {
    created, region, block_argument, function, position, link, unlink, use_value, operand_range, erased, cold
  };
  struct undo_entry {
    undo_kind kind;
    std::uint32_t a, b, c, d;
  };

  // Records where `op` is (block, neighbours), before it is placed, moved or detached.
  void note_position(op_ref op) {
    version_.tick();
    if (journal_depth_ == 0) return;
    if (order_.attached(op.id))
      journal_.push_back({undo_kind::position, op.id, op_block_[op.id], order_.prev(op.id), order_.next(op.id)});
    else
      journal_.push_back({undo_kind::position, op.id, npos, npos, npos});
  }
  void note_operand_range(op_ref op) {
    version_.tick();
    if (journal_depth_ != 0)
      journal_.push_back({undo_kind::operand_range, op.id, hot_[op.id].operand_begin, hot_[op.id].operand_count, 0});
  }
  void note_attributes(op_ref op) {
    if (journal_depth_ != 0)
      note_cold([op, old = attributes(op)](module& m) mutable { m.extra_for(op).attrs = std::move(old); });
  }
  template <class F>
  void note_cold(F&& f) {
    journal_.push_back({undo_kind::cold, static_cast<std::uint32_t>(cold_undo_.size()), 0, 0, 0});
    cold_undo_.emplace_back(std::forward<F>(f));
  }
  void set_use_value(std::uint32_t u, value_ref v) {
    version_.tick();
    if (journal_depth_ != 0) journal_.push_back({undo_kind::use_value, u, use_value_[u].id, 0, 0});
    use_value_[u] = v;
    use_def_[u] = def_of(v);
  }
  op_ref def_of(value_ref v) const noexcept { return v.valid() ? op_ref{value_def_[v.id]} : op_ref{}; }

  void undo(const undo_entry& e) {
    switch (e.kind) {
      case undo_kind::created: cold_[e.a].erased = true; break;
      case undo_kind::region: hot_[e.a].region = block_ref{e.b}; break;
      case undo_kind::block_argument: block_args_[e.a].pop_back(); break;
      case undo_kind::function: cold_[e.a].func = e.b; break;
      case undo_kind::position:
        // The journal is replayed newest first, so the neighbours recorded are where they were.
        if (e.b == npos) {
          if (order_.attached(e.a)) order_.detach(e.a);
        } else if (e.c != npos) {
          order_.move_after(e.a, e.c);
        } else if (e.d != npos) {
          order_.move_before(e.a, e.d);
        } else {
          if (order_.attached(e.a)) order_.detach(e.a);
          order_.push_back(e.b, e.a);
        }
        op_block_[e.a] = e.b;
        break;
      case undo_kind::link: unlink_use(e.a); break;
      case undo_kind::unlink: {
        const auto u = e.a, v = e.b, p = e.c, n = e.d;
        use_prev_[u] = p;
        use_next_[u] = n;
        if (p != npos) use_next_[p] = u; else value_first_use_[v] = u;
        if (n != npos) use_prev_[n] = u;
        break;
      }
      case undo_kind::use_value:
        use_value_[e.a] = value_ref{e.b};
        use_def_[e.a] = def_of(value_ref{e.b});
        break;
      case undo_kind::operand_range:
        hot_[e.a].operand_begin = e.b;
        hot_[e.a].operand_count = e.c;
        break;
      case undo_kind::erased: cold_[e.a].erased = false; break;
      case undo_kind::cold: cold_undo_[e.a](*this); break;
    }
  }

  struct string_pool {
    std::vector<std::string> texts;
    std::unordered_map<std::string, std::uint32_t> index;  // string-keyed: ids by first use
    std::uint32_t intern(std::string_view s) {
      auto it = index.find(std::string(s));
      if (it != index.end()) return it->second;
      auto id = static_cast<std::uint32_t>(texts.size());
      texts.emplace_back(s);
      index.emplace(texts.back(), id);
      return id;
    }
    std::string_view text(std::uint32_t id) const { return texts[id]; }
  };

  // Cold text (name hints, trailing locations): one append-only arena of characters, each text a
  // span of it. A name hint is set for nearly every op ("%0" gives "0"): 8 bytes here and its
  // characters in the arena, where a std::string member cost 32 bytes an op (and an interned
  // string a hash node). Replacing a text leaves its old characters behind: the arena grows by
  // what was written, never shrinks.
  struct text_span {
    std::uint32_t begin = 0, size = 0;
  };
  struct text_arena {
    // A vector, not a std::string: a moved module keeps its buffer (no small-string storage
    // inside the module), so views taken before a move stay valid.
    std::vector<char> chars;
    text_span put(std::string_view s) {
      if (s.empty()) return {};
      const std::less<const char*> before;
      if (!chars.empty() && !before(s.data(), chars.data()) && before(s.data(), chars.data() + chars.size())) {
        const std::string copy(s);  // s lies in the arena, which the append may move
        return put_fresh(copy);
      }
      return put_fresh(s);
    }
    std::string_view get(text_span t) const noexcept {
      return t.size == 0 ? std::string_view{} : std::string_view{chars.data() + t.begin, t.size};
    }

   private:
    text_span put_fresh(std::string_view s) {
      NEURONRW_ASSERT(chars.size() + s.size() <= 0xFFFFFFFFu, "ref::module: more than 4 GiB of cold text");
      const text_span t{static_cast<std::uint32_t>(chars.size()), static_cast<std::uint32_t>(s.size())};
      chars.insert(chars.end(), s.begin(), s.end());
      return t;
    }
  };

  // What few ops have: attributes, generic-form properties, result groups written as several.
  struct op_extra {
    std::vector<attribute> attrs;
    std::string properties;
    std::vector<result_group_hint> result_groups;  // when written as several groups
  };
  struct op_cold {
    std::uint32_t name = npos;
    std::uint32_t regions = npos;  // region_lists_ index when the op has two regions or more
    std::uint32_t func = npos;
    std::uint32_t extra = npos;    // extras_ index, npos: no attributes, properties or groups
    source_loc loc;
    text_span loc_text;
    text_span name_hint;
    bool erased = false;
    std::uint8_t syntax = 0;
  };
  // A block argument's own record (a result needs none: value_aux_ holds its type id).
  struct arg_cold {
    type_ref type;
    std::uint32_t block = npos;
    text_span name_hint;
    text_span loc_text;
  };

  static const std::vector<attribute>& no_attributes() noexcept {
    static const std::vector<attribute> none;
    return none;
  }
  static const std::string& no_text() noexcept {
    static const std::string none;
    return none;
  }
  bool is_argument(value_ref v) const noexcept { return value_def_[v.id] == npos; }
  // @pre is_argument(v).
  const arg_cold& arg_of(value_ref v) const noexcept { return args_[value_aux_[v.id]]; }
  arg_cold& arg_of(value_ref v) noexcept { return args_[value_aux_[v.id]]; }
  void store_type(value_ref v, type_ref t) noexcept {
    if (is_argument(v))
      arg_of(v).type = t;
    else
      value_aux_[v.id] = t.id;
  }
  const op_extra* extra_of(op_ref op) const noexcept {
    const auto e = cold_[op.id].extra;
    return e == npos ? nullptr : &extras_[e];
  }
  // The op's extra record, created (empty) on first need; creating one changes nothing a reader
  // sees, so it is not journaled.
  op_extra& extra_for(op_ref op) {
    auto& e = cold_[op.id].extra;
    if (e == npos) {
      e = static_cast<std::uint32_t>(extras_.size());
      extras_.emplace_back();
    }
    return extras_[e];
  }

  block_ref create_block(op_ref parent) {
    auto l = order_.create_list();
    assert(l == block_parent_.size());
    (void)l;
    block_parent_.push_back(parent);
    block_args_.emplace_back();
    block_explicit_.push_back(0);
    return block_ref{static_cast<std::uint32_t>(block_parent_.size() - 1)};
  }

  // region_blocks's path for an op with a region, out of line so that the common case inlines.
  [[gnu::noinline]] std::span<const block_ref> region_blocks_of(op_ref op) const noexcept {
    if (const auto r = cold_[op.id].regions; r != npos) return region_lists_[r];
    return {&hot_[op.id].region, 1};
  }
  void check_not_inside(op_ref anchor, op_ref op) const { check_block_not_inside(block_ref{op_block_[anchor.id]}, op); }
  void check_block_not_inside(block_ref target, op_ref op) const {
    for (auto b = target.id; b != npos;) {
      auto p = block_parent_[b];
      if (!p.valid()) return;
      NEURONRW_CHECK(!(p == op), "neuronrw::ref::module: cannot move an op into its own region");
      b = op_block_[p.id];
    }
  }

  void place(op_ref op, block_ref b) {
    if (order_.attached(op.id)) order_.detach(op.id);
    op_block_[op.id] = b.id;
  }

  value_ref new_value(op_ref def, std::uint32_t index, std::uint32_t block, type_ref t) {
    auto id = static_cast<std::uint32_t>(value_def_.size());
    value_def_.push_back(def.id);
    value_index_.push_back(index);
    value_first_use_.push_back(npos);
    if (def.valid()) {
      value_aux_.push_back(t.id);
    } else {
      value_aux_.push_back(static_cast<std::uint32_t>(args_.size()));
      args_.push_back(arg_cold{t, block, {}, {}});
    }
    return value_ref{id};
  }

  void append_use(value_ref v, op_ref owner) {
    auto u = static_cast<std::uint32_t>(use_value_.size());
    version_.tick();
    use_value_.push_back(v);
    use_def_.push_back(def_of(v));
    use_owner_.push_back(owner.id);
    use_next_.push_back(npos);
    use_prev_.push_back(npos);
    link_use(u);
  }
  void link_use(std::uint32_t u) {
    auto v = use_value_[u].id;
    if (v == npos) return;
    auto head = value_first_use_[v];
    use_next_[u] = head;
    use_prev_[u] = npos;
    if (head != npos) use_prev_[head] = u;
    value_first_use_[v] = u;
    if (journal_depth_ != 0) journal_.push_back({undo_kind::link, u, 0, 0, 0});
  }
  void unlink_use(std::uint32_t u) {
    auto v = use_value_[u].id;
    if (v == npos) return;
    auto p = use_prev_[u], n = use_next_[u];
    if (journal_depth_ != 0) journal_.push_back({undo_kind::unlink, u, v, p, n});
    if (p != npos) use_next_[p] = n; else value_first_use_[v] = n;
    if (n != npos) use_prev_[n] = p;
    use_next_[u] = use_prev_[u] = npos;
  }
  void drop_operands(op_ref op) {
    auto b = hot_[op.id].operand_begin;
    for (std::uint32_t i = 0; i < hot_[op.id].operand_count; ++i) {
      unlink_use(b + i);
      set_use_value(b + i, value_ref{});
    }
    note_operand_range(op);
    hot_[op.id].operand_count = 0;
  }

  string_pool strings_;
  order_maintenance order_;
  block_ref body_;

  // hot op fields: what a step of the dependence walk reads of an op it takes, interleaved in one
  // 16-byte record (one cache line and one table base, where four columns cost four of each); the
  // block apart, in 4 bytes an op, because the walk reads it for every producer it marks — ops
  // it has not reached yet, so a cache miss each at scale, and 16 ops a line miss less than 4
  struct op_hot {
    kind_id kind;
    std::uint32_t operand_begin, operand_count;  // the op's slice of the use pool
    block_ref region;
  };
  std::vector<op_hot> hot_;
  std::shared_ptr<const kind_map> kinds_;  ///< null: the built-in rule (set_kinds)
  std::vector<std::uint32_t> op_block_;
  std::vector<std::uint32_t> op_result_begin_, op_result_count_;
  std::vector<op_cold> cold_;
  std::vector<op_extra> extras_;
  text_arena cold_text_;
  std::vector<func_info> funcs_;
  std::vector<std::vector<block_ref>> region_lists_;  // the region blocks of ops with several

  // hot value fields
  std::vector<std::uint32_t> value_def_, value_index_, value_first_use_;
  // A result's type id, or a block argument's index in args_ (value_def_ tells them apart).
  std::vector<std::uint32_t> value_aux_;
  std::vector<arg_cold> args_;

  // uses (one per operand slot)
  std::vector<value_ref> use_value_;
  std::vector<op_ref> use_def_;  // value_def_[use_value_[u]]: the walk's producer hop, precomputed
  std::vector<std::uint32_t> use_owner_, use_next_, use_prev_;

  // blocks
  std::vector<op_ref> block_parent_;
  std::vector<std::vector<value_ref>> block_args_;
  std::vector<std::uint8_t> block_explicit_;  // explicit_block()

  // the undo journal (see "transactions")
  std::vector<undo_entry> journal_;
  std::vector<std::function<void(module&)>> cold_undo_;
  std::uint32_t journal_depth_ = 0;
  mutation_clock version_;  // the mutation counter (version())

  friend class user_range;

 public:
  /// Consecutive value ids [first, first + n).
  class value_range {
   public:
    class iterator {
     public:
      using value_type = value_ref;
      using difference_type = std::ptrdiff_t;
      using iterator_category = std::forward_iterator_tag;
      iterator() = default;
      explicit iterator(std::uint32_t i) : i_(i) {}
      value_ref operator*() const noexcept { return value_ref{i_}; }
      iterator& operator++() noexcept { ++i_; return *this; }
      iterator operator++(int) noexcept { auto t = *this; ++i_; return t; }
      friend bool operator==(iterator, iterator) = default;
     private:
      std::uint32_t i_ = 0;
    };
    value_range() = default;
    value_range(std::uint32_t first, std::uint32_t n) : first_(first), n_(n) {}
    iterator begin() const noexcept { return iterator{first_}; }
    iterator end() const noexcept { return iterator{first_ + n_}; }
    std::size_t size() const noexcept { return n_; }
    bool empty() const noexcept { return n_ == 0; }
    value_ref operator[](std::size_t i) const noexcept { return value_ref{first_ + static_cast<std::uint32_t>(i)}; }
   private:
    std::uint32_t first_ = 0, n_ = 0;
  };

  class op_range {
   public:
    class iterator {
     public:
      using value_type = op_ref;
      using difference_type = std::ptrdiff_t;
      using iterator_category = std::forward_iterator_tag;
      iterator() = default;
      iterator(const order_maintenance* o, std::uint32_t n) : o_(o), n_(n) {}
      op_ref operator*() const noexcept { return op_ref{n_}; }
      iterator& operator++() { n_ = o_->next(n_); return *this; }
      iterator operator++(int) { auto t = *this; ++*this; return t; }
      friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.n_ == b.n_; }
     private:
      const order_maintenance* o_ = nullptr;
      std::uint32_t n_ = npos;
    };
    op_range() = default;
    op_range(const order_maintenance* o, std::uint32_t first) : o_(o), first_(first) {}
    iterator begin() const { return iterator{o_, first_}; }
    iterator end() const { return iterator{o_, npos}; }
   private:
    const order_maintenance* o_ = nullptr;
    std::uint32_t first_ = npos;
  };

  class user_range {
   public:
    class iterator {
     public:
      using value_type = op_ref;
      using difference_type = std::ptrdiff_t;
      using iterator_category = std::forward_iterator_tag;
      iterator() = default;
      iterator(const module* m, std::uint32_t u) : m_(m), u_(u) {}
      op_ref operator*() const noexcept { return op_ref{m_->use_owner_[u_]}; }
      iterator& operator++() noexcept { u_ = m_->use_next_[u_]; return *this; }
      iterator operator++(int) noexcept { auto t = *this; ++*this; return t; }
      friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.u_ == b.u_; }
     private:
      const module* m_ = nullptr;
      std::uint32_t u_ = npos;
    };
    user_range() = default;
    user_range(const module* m, std::uint32_t first) : m_(m), first_(first) {}
    iterator begin() const noexcept { return iterator{m_, first_}; }
    iterator end() const noexcept { return iterator{m_, npos}; }
    bool empty() const noexcept { return first_ == npos; }
   private:
    const module* m_ = nullptr;
    std::uint32_t first_ = npos;
  };
};

inline module::value_range module::results(op_ref op) const noexcept {
  return value_range{op_result_begin_[op.id], op_result_count_[op.id]};
}
inline module::op_range module::ops(block_ref b) const noexcept {
  return op_range{&order_, order_.first(b.id)};
}
inline module::user_range module::users(value_ref v) const noexcept {
  return user_range{this, value_first_use_[v.id]};
}

/// The functions (func.func ops) of the module, in module order.
inline std::vector<op_ref> functions(const module& m) {
  std::vector<op_ref> fs;
  for (auto op : m.ops(m.body()))
    if (m.is_function(op)) fs.push_back(op);
  return fs;
}

namespace detail {
[[gnu::noinline]] inline bool is_terminator_by_name(const module& m, op_ref op) {
  const auto n = m.name(op);
  return n.ends_with(".yield") || n.ends_with(".terminator");
}
}  // namespace detail

/// Whether `op` ends its block and never moves: an op without results whose kind is `return`
/// (`func.return`, `mhlo.return`, ...) or whose name ends in `.yield` or `.terminator`. The
/// reference IR has no op registry, so this name rule stands in for MLIR's IsTerminator trait;
/// the verifier's rule 3 and the IR's traits both ask it, so they cannot disagree. O(name).
/// Inline up to the name test: the repair asks it of every op it carries, most of which have
/// results.
inline bool is_terminator(const module& m, op_ref op) {
  if (m.num_results(op) != 0) return false;
  if (m.kind(op) == kind_id_v<kinds::return_>) return true;
  return detail::is_terminator_by_name(m, op);
}

/// The function op with symbol `name`, or an invalid handle.
inline op_ref lookup_function(const module& m, std::string_view name) {
  for (auto op : m.ops(m.body()))
    if (m.is_function(op) && m.function(op).sym_name == name) return op;
  return op_ref{};
}

}  // namespace neuronrw::ref

template <>
struct std::hash<neuronrw::ref::op_ref> {
  std::size_t operator()(neuronrw::ref::op_ref h) const noexcept { return std::hash<std::uint32_t>{}(h.id); }
};
template <>
struct std::hash<neuronrw::ref::value_ref> {
  std::size_t operator()(neuronrw::ref::value_ref h) const noexcept { return std::hash<std::uint32_t>{}(h.id); }
};
template <>
struct std::hash<neuronrw::ref::block_ref> {
  std::size_t operator()(neuronrw::ref::block_ref h) const noexcept { return std::hash<std::uint32_t>{}(h.id); }
};
