// bench/dominance_repair_bench.cpp — dominance repair (include/neuronrw/algorithms/dominance_repair.hpp):
// sink an op carrying its forward slice, hoist one carrying its backward slice, across windows of
// W = 10, 100, 1K, 10K, 100K ops, against the same moves over an order that renumbers its block
// after every splice, and (dominance_repair_mlir_bench, built when MLIR is) against MLIR's own
// ways of doing it, all baselines in the same binary (docs/performance.md §"Dominance repair").
//
// The function: one block of K = max(1, 20000 / W) segments (2000 / W in smoke mode), then its
// return. With k = W/2, a segment reads, in its state A,
//     U0  X  C1 .. Ck  U1 .. Uk  D  T
// U0 = f(arg, arg); X = f(U0, U0); C1 = f(X, U0), Ci = f(C(i-1), U0): X's forward slice;
// U1 = f(U0, arg), Ui = f(U(i-1), arg): unrelated; D = f(Uk, U0); T = f(D, Ck); every f is
// `arith.addf` on tensor<4xf32> (pure, so MLIR's moveOperationDependencies may move them).
//   sink  = plan_sink(X, dest = D, after = D): the window (X, D) has W ops, half of them (the C's)
//           carried; the segment becomes, state B,  U0  U1 .. Uk  X  D  C1 .. Ck  T
//   hoist = plan_hoist(Ck, dest = U0) on state B: the window (U0, Ck) has W + 1 ops, X and
//           C1 .. C(k-1) carried; the segment becomes state A again.
// Both move k + 1 ops. An iteration repairs every window once, in block order, as a pass
// rescheduling pair after pair along a function does (so at least 20K window ops per
// iteration); then, outside the timing (PauseTiming), each segment's order is checked against the
// expected state, op for op (SkipWithError otherwise), and every segment is put back in the start
// state by moving its ops, in that state's order, before its T (which never moves). Items/s =
// window ops/s (K × W per iteration); counters: windows = K, moved = ops moved per repair (rows
// that know it). The block is large on purpose: a baseline that renumbers the block pays for the
// whole block (28K ops at W = 10, 100K at W = 100K) once per repair, as MLIR does in a function.
//
//   bm_sink_renumber/W, bm_hoist_renumber/W   plan_sink / plan_hoist + apply_repair, unchanged,
//        over `renumbering::ir` below: a linked list per block whose order index a splice
//        invalidates and the next is_before_in_block recomputes for the whole block, O(block),
//        as MLIR's Operation::isBeforeInBlock does (order_bench's bm_renumber_baseline as an IR)
//   bm_sink_ref/W, bm_hoist_ref/W             the same on the reference IR (O(1) order,
//        algorithms/order.hpp); counter vs_renumber = its rate / the renumber row's at the same W
//   MLIR rows (dominance_repair_mlir_bench only), on the reference module printed and parsed
//   by MLIR (the same function text):
//   bm_sink_mlir_adapter/W, bm_hoist_mlir_adapter/W   the library's plan + apply through the
//        MLIR adapter (mutations through an IRRewriter, as the adapter's passes run)
//   bm_sink_mlir_movebefore/W   a hand-written MLIR sink: X's forward slice before D by a
//        worklist over users (llvm::DenseSet, isBeforeInBlock(D) as the window test), sorted by
//        isBeforeInBlock, then Operation::moveBefore(D) for X and moveAfter for the slice
//   bm_hoist_mlir_move_deps/W   mlir::moveOperationDependencies(rewriter, Ck, U1), then
//        rewriter.moveOpBefore(Ck, U1): MLIR's own "move what op needs above the insertion point";
//        at 100K MLIR's recursive getBackwardSlice needs a stack of more than 8 MB, so this binary
//        raises RLIMIT_STACK to 1 GiB and runs itself again before main (big_stack below)
//   The library rows of this binary (reference IR and adapter) carry vs_mlir_movebefore (sink) /
//   vs_mlir_move_deps (hoist): their rate / the MLIR row's at the same W. MLIR's own rows run
//   first, then the adapter's, then the reference IR's.
//
//   ninja -C <build> bench/dominance_repair_bench
//   <build>/bench/dominance_repair_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#if NEURONRW_REPAIR_BENCH_MLIR
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/ir/ref/print.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/OwningOpRef.h>
#include <mlir/IR/PatternMatch.h>
#include <mlir/Parser/Parser.h>
#include <mlir/Transforms/RegionUtils.h>
#endif

#include "bench_support.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

// ================================================================== the renumbering baseline IR

namespace renumbering {

inline constexpr std::uint32_t npos = 0xFFFFFFFFu;

struct op_id {
  std::uint32_t id = npos;
  friend bool operator==(op_id, op_id) = default;
};
struct value_id {  // the single result of op `id`
  std::uint32_t id = npos;
  friend bool operator==(value_id, value_id) = default;
};
struct block_id {
  std::uint32_t id = npos;
  friend bool operator==(block_id, block_id) = default;
};

/// Iterates a block's list (outside `ir`: a nested class is incomplete, so not yet an
/// iterator, inside its enclosing class's body).
struct op_iterator {
  using value_type = op_id;
  using difference_type = std::ptrdiff_t;
  const std::vector<std::uint32_t>* next = nullptr;
  std::uint32_t at = npos;
  op_id operator*() const { return {at}; }
  op_iterator& operator++() {
    at = (*next)[at];
    return *this;
  }
  op_iterator operator++(int) {
    op_iterator t = *this;
    ++*this;
    return t;
  }
  friend bool operator==(const op_iterator& a, const op_iterator& b) { return a.at == b.at; }
};

/// A block's ops (not std::ranges::subrange: clang 14 with libstdc++ 12 rejects it here).
struct op_range {
  op_iterator first, last;
  op_iterator begin() const { return first; }
  op_iterator end() const { return last; }
};

/// Ops with one result each, in blocks that are doubly linked lists. Each block keeps an order
/// index that any splice of the block invalidates; the next is_before_in_block of the block
/// renumbers all of it (MLIR's lazy numbering, without its sparse gaps).
class ir {
 public:
  block_id add_block() {
    first_.push_back(npos);
    last_.push_back(npos);
    valid_.push_back(1);
    return {static_cast<std::uint32_t>(first_.size() - 1)};
  }

  op_id append(block_id b, std::span<const op_id> producers, bool terminator) {
    const auto o = static_cast<std::uint32_t>(next_.size());
    operand_begin_.push_back(static_cast<std::uint32_t>(operands_.size()));
    for (const op_id p : producers) {
      operands_.push_back({p.id});
      users_of_[p.id].push_back({o});
    }
    operand_end_.push_back(static_cast<std::uint32_t>(operands_.size()));
    users_of_.emplace_back();
    result_.push_back({o});
    terminator_.push_back(terminator ? 1 : 0);
    block_.push_back(b.id);
    order_.push_back(0);
    next_.push_back(npos);
    prev_.push_back(last_[b.id]);
    if (last_[b.id] != npos) next_[last_[b.id]] = o; else first_[b.id] = o;
    last_[b.id] = o;
    valid_[b.id] = 0;
    return {o};
  }

  std::span<const value_id> operands(op_id o) const {
    return {operands_.data() + operand_begin_[o.id], operand_end_[o.id] - operand_begin_[o.id]};
  }
  std::span<const op_id> users(value_id v) const { return users_of_[v.id]; }
  std::span<const value_id> results(op_id o) const { return {&result_[o.id], 1}; }
  bool is_terminator(op_id o) const { return terminator_[o.id] != 0; }
  block_id block_of(op_id o) const { return {block_[o.id]}; }
  op_id next(op_id o) const { return {next_[o.id]}; }
  op_id prev(op_id o) const { return {prev_[o.id]}; }
  op_id front(block_id b) const { return {first_[b.id]}; }
  std::size_t op_count() const { return next_.size(); }

  bool is_before(op_id a, op_id b) const {
    const std::uint32_t blk = block_[a.id];
    if (!valid_[blk]) renumber(blk);
    return order_[a.id] < order_[b.id];
  }

  void move_before(op_id x, op_id anchor) {
    if (x == anchor) return;
    unlink(x.id);
    const std::uint32_t b = block_[anchor.id], p = prev_[anchor.id];
    prev_[x.id] = p;
    next_[x.id] = anchor.id;
    if (p != npos) next_[p] = x.id; else first_[b] = x.id;
    prev_[anchor.id] = x.id;
    block_[x.id] = b;
    valid_[b] = 0;
  }
  void move_after(op_id x, op_id anchor) {
    if (x == anchor) return;
    unlink(x.id);
    const std::uint32_t b = block_[anchor.id], n = next_[anchor.id];
    next_[x.id] = n;
    prev_[x.id] = anchor.id;
    if (n != npos) prev_[n] = x.id; else last_[b] = x.id;
    next_[anchor.id] = x.id;
    block_[x.id] = b;
    valid_[b] = 0;
  }

  /// The ops of a block, in order.
  op_range ops(block_id b) const { return {op_iterator{&next_, first_[b.id]}, op_iterator{&next_, npos}}; }

 private:
  void unlink(std::uint32_t x) {
    const std::uint32_t b = block_[x];
    if (prev_[x] != npos) next_[prev_[x]] = next_[x]; else first_[b] = next_[x];
    if (next_[x] != npos) prev_[next_[x]] = prev_[x]; else last_[b] = prev_[x];
    valid_[b] = 0;
  }
  void renumber(std::uint32_t b) const {
    std::uint32_t k = 0;
    for (std::uint32_t x = first_[b]; x != npos; x = next_[x]) order_[x] = k++;
    valid_[b] = 1;
  }

  std::vector<value_id> operands_;
  std::vector<std::uint32_t> operand_begin_, operand_end_;
  std::vector<std::vector<op_id>> users_of_;
  std::vector<value_id> result_;
  std::vector<std::uint8_t> terminator_;
  std::vector<std::uint32_t> block_, next_, prev_;
  mutable std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> first_, last_;
  mutable std::vector<std::uint8_t> valid_;
};

}  // namespace renumbering

template <>
struct neuronrw::handle_hash<renumbering::op_id> {
  std::size_t operator()(renumbering::op_id o) const noexcept { return o.id; }
};
template <>
struct neuronrw::handle_hash<renumbering::value_id> {
  std::size_t operator()(renumbering::value_id v) const noexcept { return v.id; }
};

template <>
struct neuronrw::ir_traits<renumbering::ir> {
  using G = renumbering::ir;
  using op_handle = renumbering::op_id;
  using value_handle = renumbering::value_id;
  using block_handle = renumbering::block_id;

  static op_handle null_op() noexcept { return {}; }
  static kind_id kind(const G&, op_handle) noexcept { return kind_id_of("addf"); }
  static auto operands(const G& g, op_handle o) { return g.operands(o); }
  static op_handle defining_op(const G&, value_handle v) noexcept { return {v.id}; }
  static auto users(const G& g, value_handle v) { return g.users(v); }
  static auto results(const G& g, op_handle o) { return g.results(o); }
  static op_handle parent_op(const G&, op_handle) noexcept { return {}; }

  static block_handle block_of(const G& g, op_handle o) { return g.block_of(o); }
  static auto ops(const G& g, block_handle b) { return g.ops(b); }
  static bool is_before_in_block(const G& g, op_handle a, op_handle b) { return g.is_before(a, b); }
  static op_handle next_op(const G& g, op_handle o) { return g.next(o); }
  static op_handle prev_op(const G& g, op_handle o) { return g.prev(o); }
  static std::span<const block_handle> regions(const G&, op_handle) noexcept { return {}; }

  static void move_before(G& g, op_handle o, op_handle anchor) { g.move_before(o, anchor); }
  static void move_after(G& g, op_handle o, op_handle anchor) { g.move_after(o, anchor); }

  static bool is_terminator(const G& g, op_handle o) { return g.is_terminator(o); }
  static std::size_t op_index(const G&, op_handle o) noexcept { return o.id; }
  static std::size_t op_index_bound(const G& g) noexcept { return g.op_count(); }
};

static_assert(neuronrw::reschedulable_ir<renumbering::ir>);
static_assert(neuronrw::indexed_ir<renumbering::ir>);

namespace {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;

// ================================================================== the blocks

// Window ops per iteration: 20K; 2K in smoke mode, where the baselines that renumber the whole
// block per repair would otherwise take seconds at W = 10.
std::size_t windows_for(std::size_t w) {
  const std::size_t ops_per_iteration = bench_support::smoke() ? 2'000 : 20'000;
  return std::max<std::size_t>(1, ops_per_iteration / w);
}

/// Positions, in state A, of one window's segment (k = W/2): U0 = 0, X = 1, Ci = 1 + i,
/// Ui = 1 + k + i, D = 2k + 2, T = 2k + 3.
struct layout {
  std::size_t k;
  std::size_t size() const { return 2 * k + 4; }
  std::size_t u(std::size_t i) const { return i == 0 ? 0 : 1 + k + i; }
  std::size_t x() const { return 1; }
  std::size_t c(std::size_t i) const { return 1 + i; }
  std::size_t d() const { return 2 * k + 2; }
  std::size_t t() const { return 2 * k + 3; }

  /// Producers of the op at position p (positions; `arg` = the block argument).
  static constexpr std::size_t arg = static_cast<std::size_t>(-1);
  std::vector<std::size_t> producers(std::size_t p) const {
    if (p == 0) return {arg, arg};
    if (p == x()) return {u(0), u(0)};
    if (p <= k + 1) return {p == c(1) ? x() : p - 1, u(0)};
    if (p <= 2 * k + 1) return {p == u(1) ? u(0) : p - 1, arg};
    if (p == d()) return {u(k), u(0)};
    return {d(), c(k)};  // T
  }

  /// State B, as positions of state A: U0 U1..Uk X D C1..Ck T.
  std::vector<std::size_t> state_b() const {
    std::vector<std::size_t> b;
    b.reserve(size());
    for (std::size_t i = 0; i <= k; ++i) b.push_back(u(i));
    b.push_back(x());
    b.push_back(d());
    for (std::size_t i = 1; i <= k; ++i) b.push_back(c(i));
    b.push_back(t());
    return b;
  }
};

/// One segment's ops in state A and state B, for one IR's handles. Both end with T, which never
/// moves: restoring a state moves the other ops before it, in order.
template <class Op>
struct segment_orders {
  std::vector<Op> a, b;
};

template <class Op>
std::vector<segment_orders<Op>> orders_from(const std::vector<std::vector<Op>>& state_a, const layout& l) {
  const auto pb = l.state_b();
  std::vector<segment_orders<Op>> out(state_a.size());
  for (std::size_t s = 0; s < state_a.size(); ++s) {
    out[s].a = state_a[s];
    for (const std::size_t p : pb) out[s].b.push_back(state_a[s][p]);
  }
  return out;
}

/// Everything for one window size: the reference module (one function, one block: the
/// segments, then the return), the renumbering IR holding the same block, the handles.
struct world {
  std::size_t w = 0;
  layout l{0};
  ref::module ref;
  std::vector<segment_orders<ref::op_ref>> ref_segments;
  renumbering::ir ren;
  std::vector<segment_orders<renumbering::op_id>> ren_segments;
};

std::unique_ptr<world> make_world(std::size_t w) {
  auto wd = std::make_unique<world>();
  wd->w = w;
  wd->l = layout{w / 2};
  const layout& l = wd->l;
  const std::size_t windows = windows_for(w);

  auto& m = wd->ref;
  const auto t = m.intern_type("tensor<4xf32>");
  const ref::type_ref arg_types[] = {t}, result_types[] = {t};
  auto f = m.create_op("func.func", {}, {});
  auto& fi = m.make_function(f);
  fi.sym_name = "repair";
  fi.arg_attrs = {""};
  m.push_back(m.body(), f);
  const auto body = m.add_region(f, arg_types);
  const ref::value_ref arg = m.arguments(body)[0];
  const auto rb = wd->ren.add_block();
  std::vector<std::vector<ref::op_ref>> ref_a(windows);
  std::vector<std::vector<renumbering::op_id>> ren_a(windows);
  for (std::size_t s = 0; s < windows; ++s) {
    auto& ops = ref_a[s];
    auto& rops = ren_a[s];
    for (std::size_t p = 0; p < l.size(); ++p) {
      std::vector<ref::value_ref> vals;
      std::vector<renumbering::op_id> producers;
      for (const std::size_t q : l.producers(p)) {
        vals.push_back(q == layout::arg ? arg : m.result(ops[q], 0));
        if (q != layout::arg) producers.push_back(rops[q]);
      }
      ops.push_back(m.create_op("arith.addf", vals, result_types));
      m.push_back(body, ops.back());
      rops.push_back(wd->ren.append(rb, producers, false));
    }
  }
  m.push_back(body, m.create_op("func.return", {}, {}));
  wd->ren.append(rb, {}, true);
  wd->ref_segments = orders_from(ref_a, l);
  wd->ren_segments = orders_from(ren_a, l);
  return wd;
}

// Every window size stays built (about 20K-100K ops each): the families run size by size.
world& world_of(std::size_t w) {
  static std::map<std::size_t, std::unique_ptr<world>> all;
  auto& p = all[w];
  if (!p) p = make_world(w);
  return *p;
}

// ================================================================== the harness

enum class direction { sink, hoist };

/// Rates (window ops per CPU second) of the rows run so far, keyed by (row, W), for the ratio
/// counters of the library rows.
std::map<std::pair<std::string, std::size_t>, double>& rates() {
  static std::map<std::pair<std::string, std::size_t>, double> m;
  return m;
}

using bench_support::cpu_seconds;

/// The operations one IR offers the harness, on its own handles.
template <class Op>
struct ir_ops {
  /// Performs the repair of one block (state `from` → state `to`); returns the ops it moved,
  /// or -1 when the repair was refused.
  std::function<long(const segment_orders<Op>&)> repair;
  /// Whether the block holds `expected`'s ops in a run, in that order.
  std::function<bool(const std::vector<Op>&)> holds;
  /// Moves every op of `order` but the last (T) before the last, in order.
  std::function<void(const std::vector<Op>&)> arrange;
};

/// A baseline row whose rate a library row divides its own by: counter `counter` = rate / its.
struct baseline {
  const char* row;
  const char* counter;
};

/// Runs row `name` at W = state.range(0): every iteration repairs each window once (timed), then
/// checks and restores them (untimed). sink goes A → B, hoist B → A.
template <class Op>
void run(benchmark::State& state, const char* name, direction dir, const std::vector<segment_orders<Op>>& segments,
         const ir_ops<Op>& io, const std::vector<baseline>& baselines) {
  const auto w = static_cast<std::size_t>(state.range(0));
  auto from = [&](const segment_orders<Op>& b) -> const std::vector<Op>& { return dir == direction::sink ? b.a : b.b; };
  auto to = [&](const segment_orders<Op>& b) -> const std::vector<Op>& { return dir == direction::sink ? b.b : b.a; };
  for (const auto& b : segments) io.arrange(from(b));
  long moved = 0;
  bool refused = false, wrong = false;
  double secs = 0;
  for (auto _ : state) {
    const double t0 = cpu_seconds();
    moved = 0;
    for (const auto& b : segments) {
      const long m = io.repair(b);
      refused |= m < 0;
      moved += m;
    }
    secs += cpu_seconds() - t0;
    state.PauseTiming();
    for (const auto& b : segments) wrong |= !io.holds(to(b));
    for (const auto& b : segments) io.arrange(from(b));
    state.ResumeTiming();
    if (refused || wrong) break;
  }
  if (refused) return state.SkipWithError("a repair was refused");
  if (wrong) return state.SkipWithError("a repair left a block in an unexpected order");
  // Each repair moves k + 1 ops (sink: X and the k C's; hoist: X, C1 .. C(k-1) and Ck). A row
  // that cannot tell (MLIR's moveOperationDependencies) reports 0 and is judged by the order.
  const auto expected = static_cast<long>(segments.size() * (w / 2 + 1));
  if (moved != 0 && moved != expected) return state.SkipWithError("a repair moved an unexpected number of ops");
  const double items = static_cast<double>(segments.size() * w) * static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(items));
  state.counters["windows"] = static_cast<double>(segments.size());
  if (moved != 0) state.counters["moved"] = static_cast<double>(moved) / static_cast<double>(segments.size());
  const double rate = items / secs;
  rates()[{name, w}] = rate;
  for (const baseline& base : baselines)
    if (auto it = rates().find({base.row, w}); it != rates().end()) state.counters[base.counter] = rate / it->second;
}

/// The library's plan + apply on any IR (moved = the plan's moves).
template <class G>
ir_ops<nr::op_handle_t<G>> library_ops(G& g, nr::block_scratch<G>& scratch, direction dir, const layout& l) {
  using Op = nr::op_handle_t<G>;
  ir_ops<Op> io;
  if (dir == direction::sink) {
    io.repair = [&g, &scratch, l](const segment_orders<Op>& b) -> long {
      const Op x = b.a[l.x()], d = b.a[l.d()];
      auto plan = nr::plan_sink(scratch, std::as_const(g), x, d, d);
      if (!plan.ok()) return -1;
      nr::apply_repair(g, plan);
      return static_cast<long>(plan.moves.size());
    };
  } else {
    io.repair = [&g, &scratch, l](const segment_orders<Op>& b) -> long {
      auto plan = nr::plan_hoist(scratch, std::as_const(g), b.a[l.c(l.k)], b.a[l.u(0)]);
      if (!plan.ok()) return -1;
      nr::apply_repair(g, plan);
      return static_cast<long>(plan.moves.size());
    };
  }
  io.holds = [&g](const std::vector<Op>& expected) {
    Op o = expected.front();
    for (const Op& e : expected) {
      if (!(o == e)) return false;
      o = nr::ir::next_op(g, o);
    }
    return true;
  };
  io.arrange = [&g](const std::vector<Op>& order) {
    const Op last = order.back();
    for (std::size_t i = 0; i + 1 < order.size(); ++i) nr::ir::move_before(g, order[i], last);
  };
  return io;
}

// The reference IR rows' ratio counters.
const std::vector<baseline> sink_baselines = {
    {"bm_sink_renumber", "vs_renumber"},
#if NEURONRW_REPAIR_BENCH_MLIR
    {"bm_sink_mlir_movebefore", "vs_mlir_movebefore"},
#endif
};
const std::vector<baseline> hoist_baselines = {
    {"bm_hoist_renumber", "vs_renumber"},
#if NEURONRW_REPAIR_BENCH_MLIR
    {"bm_hoist_mlir_move_deps", "vs_mlir_move_deps"},
#endif
};

template <direction Dir>
void bm_ref(benchmark::State& state) {
  auto& wd = world_of(static_cast<std::size_t>(state.range(0)));
  nr::block_scratch<ref::module> scratch(wd.ref);
  const auto io = library_ops(wd.ref, scratch, Dir, wd.l);
  if constexpr (Dir == direction::sink)
    run(state, "bm_sink_ref", Dir, wd.ref_segments, io, sink_baselines);
  else
    run(state, "bm_hoist_ref", Dir, wd.ref_segments, io, hoist_baselines);
}

template <direction Dir>
void bm_renumber(benchmark::State& state) {
  auto& wd = world_of(static_cast<std::size_t>(state.range(0)));
  nr::block_scratch<renumbering::ir> scratch(wd.ren);
  const auto io = library_ops(wd.ren, scratch, Dir, wd.l);
  run(state, Dir == direction::sink ? "bm_sink_renumber" : "bm_hoist_renumber", Dir, wd.ren_segments, io, {});
}

#if NEURONRW_REPAIR_BENCH_MLIR
// ================================================================== MLIR

namespace ma = neuronrw::mlir_adapter;

// Never destroyed: the modules below are destroyed at exit, and must not outlive their context.
mlir::MLIRContext& context() {
  static mlir::MLIRContext* ctx = [] {
    auto* c = new mlir::MLIRContext();
    c->getOrLoadDialect<mlir::func::FuncDialect>();
    c->getOrLoadDialect<mlir::arith::ArithDialect>();
    return c;
  }();
  return *ctx;
}

/// The reference module of a window size, printed and parsed by MLIR.
struct mlir_world {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<segment_orders<mlir::Operation*>> segments;
};

mlir_world* mlir_world_of(std::size_t w) {
  static std::map<std::size_t, std::unique_ptr<mlir_world>> all;
  auto& p = all[w];
  if (p) return p->module ? p.get() : nullptr;
  p = std::make_unique<mlir_world>();
  auto& wd = world_of(w);
  p->module = mlir::parseSourceString<mlir::ModuleOp>(ref::print(wd.ref), &context());
  if (!p->module) return nullptr;
  // The function's one block: the segments in state A, then the return.
  auto fns = p->module->getOps<mlir::func::FuncOp>();
  const std::size_t windows = windows_for(w), n = wd.l.size();
  if (std::distance(fns.begin(), fns.end()) != 1) {
    p->module = nullptr;
    return nullptr;
  }
  mlir::Block& block = (*fns.begin()).getBody().front();
  if (block.getOperations().size() != windows * n + 1) {
    p->module = nullptr;
    return nullptr;
  }
  std::vector<std::vector<mlir::Operation*>> state_a(windows);
  std::size_t i = 0;
  for (mlir::Operation& o : block)
    if (i < windows * n) state_a[i++ / n].push_back(&o);
  p->segments = orders_from(state_a, wd.l);
  return p.get();
}

bool mlir_holds(const std::vector<mlir::Operation*>& expected) {
  mlir::Operation* o = expected.front();
  for (mlir::Operation* e : expected) {
    if (o != e) return false;
    o = o->getNextNode();
  }
  return true;
}

void mlir_arrange(const std::vector<mlir::Operation*>& order) {
  mlir::Operation* last = order.back();
  for (std::size_t i = 0; i + 1 < order.size(); ++i) order[i]->moveBefore(last);
}

template <direction Dir>
void bm_mlir_adapter(benchmark::State& state) {
  const auto w = static_cast<std::size_t>(state.range(0));
  auto* mw = mlir_world_of(w);
  if (!mw) return state.SkipWithError("MLIR did not parse the reference module's text");
  mlir::IRRewriter rewriter(&context());
  ma::ir g(mw->module->getOperation(), ma::ir::default_kinds(), &rewriter);
  nr::block_scratch<ma::ir> scratch(g);
  auto io = library_ops(g, scratch, Dir, world_of(w).l);
  io.holds = mlir_holds;
  io.arrange = mlir_arrange;
  if constexpr (Dir == direction::sink)
    run(state, "bm_sink_mlir_adapter", Dir, mw->segments, io, {{"bm_sink_mlir_movebefore", "vs_mlir_movebefore"}});
  else
    run(state, "bm_hoist_mlir_adapter", Dir, mw->segments, io, {{"bm_hoist_mlir_move_deps", "vs_mlir_move_deps"}});
}

/// A hand-written MLIR sink of X before D carrying X's forward slice after D.
void bm_sink_mlir_movebefore(benchmark::State& state) {
  const auto w = static_cast<std::size_t>(state.range(0));
  auto* mw = mlir_world_of(w);
  if (!mw) return state.SkipWithError("MLIR did not parse the reference module's text");
  const layout l = world_of(w).l;
  llvm::DenseSet<mlir::Operation*> carried;
  llvm::SmallVector<mlir::Operation*, 64> slice;
  ir_ops<mlir::Operation*> io;
  io.repair = [&](const segment_orders<mlir::Operation*>& b) -> long {
    mlir::Operation* x = b.a[l.x()];
    mlir::Operation* dest = b.a[l.d()];
    mlir::Block* block = x->getBlock();
    carried.clear();
    slice.clear();
    carried.insert(x);
    // X's users and theirs, as long as they lie in the block before dest.
    auto visit = [&](mlir::Operation* from) {
      for (mlir::Operation* user : from->getUsers()) {
        mlir::Operation* a = block->findAncestorOpInBlock(*user);
        if (a && a->isBeforeInBlock(dest) && carried.insert(a).second) slice.push_back(a);
      }
    };
    visit(x);
    for (std::size_t i = 0; i < slice.size(); ++i) visit(slice[i]);
    std::sort(slice.begin(), slice.end(), [](mlir::Operation* p, mlir::Operation* q) { return p->isBeforeInBlock(q); });
    for (mlir::Value v : dest->getOperands())  // dest may not use a carried op
      if (mlir::Operation* def = v.getDefiningOp(); def && def != x && carried.contains(def)) return -1;
    x->moveBefore(dest);
    mlir::Operation* anchor = dest;
    for (mlir::Operation* s : slice) {
      s->moveAfter(anchor);
      anchor = s;
    }
    return static_cast<long>(slice.size() + 1);
  };
  io.holds = mlir_holds;
  io.arrange = mlir_arrange;
  run(state, "bm_sink_mlir_movebefore", direction::sink, mw->segments, io, {});
}

/// MLIR's moveOperationDependencies: Ck's backward slice above U1, then Ck itself.
bool stack_is_big();

void bm_hoist_mlir_move_deps(benchmark::State& state) {
  const auto w = static_cast<std::size_t>(state.range(0));
  if (w > 10'000 && !stack_is_big())
    return state.SkipWithError("RLIMIT_STACK under 1 GiB and not raisable: MLIR's recursive getBackwardSlice would overflow");
  auto* mw = mlir_world_of(w);
  if (!mw) return state.SkipWithError("MLIR did not parse the reference module's text");
  const layout l = world_of(w).l;
  mlir::IRRewriter rewriter(&context());
  ir_ops<mlir::Operation*> io;
  io.repair = [&](const segment_orders<mlir::Operation*>& b) -> long {
    mlir::Operation* op = b.a[l.c(l.k)];
    mlir::Operation* point = b.a[l.u(1)];
    if (mlir::failed(mlir::moveOperationDependencies(rewriter, op, point))) return -1;
    rewriter.moveOpBefore(op, point);
    return 0;  // the slice moved is MLIR's to know; the order check covers it
  };
  io.holds = mlir_holds;
  io.arrange = mlir_arrange;
  run(state, "bm_hoist_mlir_move_deps", direction::hoist, mw->segments, io, {});
}
#endif

// ================================================================== registration
// Baselines first at every W (the library rows' counters read their rates): renumbering, MLIR's,
// the adapter's, then the reference IR's.

void register_all() {
  constexpr auto windows = bench_support::sizes<10, 100, 1'000, 10'000, 100'000>;
  auto add = [&](const char* name, void (*f)(benchmark::State&)) {
    benchmark::RegisterBenchmark(name, f)->Apply(windows)->Unit(benchmark::kMicrosecond);
  };
  add("bm_sink_renumber", bm_renumber<direction::sink>);
  add("bm_hoist_renumber", bm_renumber<direction::hoist>);
#if NEURONRW_REPAIR_BENCH_MLIR
  add("bm_sink_mlir_movebefore", bm_sink_mlir_movebefore);
  // moveOperationDependencies takes the slice with mlir::getBackwardSlice, which recurses once
  // per op of a producer chain: at W = 100K the 50K-op chain of C's needs more than the usual
  // 8 MB stack (a segmentation fault with LLVM 22.1.8), hence big_stack below.
  add("bm_hoist_mlir_move_deps", bm_hoist_mlir_move_deps);
  add("bm_sink_mlir_adapter", bm_mlir_adapter<direction::sink>);
  add("bm_hoist_mlir_adapter", bm_mlir_adapter<direction::hoist>);
#endif
  add("bm_sink_ref", bm_ref<direction::sink>);
  add("bm_hoist_ref", bm_ref<direction::hoist>);
}

#if NEURONRW_REPAIR_BENCH_MLIR
// The main thread's stack grows up to RLIMIT_STACK, and the limit a process starts with also sets
// how much room the kernel leaves below the stack. So before main (static initialization), a
// soft limit under 1 GiB is raised (to the hard limit at most) and the binary runs itself again
// once, with the same arguments. A limit that cannot be raised is left alone: the W = 100K MLIR
// row then reports an error instead of crashing (bm_hoist_mlir_move_deps checks it).
constexpr rlim_t big_stack_bytes = rlim_t{1} << 30;

bool stack_is_big() {
  rlimit rl{};
  return getrlimit(RLIMIT_STACK, &rl) == 0 && (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= big_stack_bytes);
}

struct big_stack {
  big_stack() {
    rlimit rl{};
    if (stack_is_big() || getrlimit(RLIMIT_STACK, &rl) != 0 || std::getenv("NEURONRW_BENCH_STACK_RAISED")) return;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= big_stack_bytes ? big_stack_bytes : rl.rlim_max;
    if (setrlimit(RLIMIT_STACK, &rl) != 0) return;
    std::vector<char> cmdline;  // argv as the kernel holds it: NUL-separated
    if (std::FILE* f = std::fopen("/proc/self/cmdline", "rb")) {
      char buf[4096];
      for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) cmdline.insert(cmdline.end(), buf, buf + n);
      std::fclose(f);
    }
    std::vector<char*> argv;
    for (std::size_t i = 0; i < cmdline.size(); i += std::strlen(cmdline.data() + i) + 1) argv.push_back(cmdline.data() + i);
    if (argv.empty()) return;
    argv.push_back(nullptr);
    setenv("NEURONRW_BENCH_STACK_RAISED", "1", 1);
    execv("/proc/self/exe", argv.data());  // returns only on failure: go on with the raised limit
  }
} const big_stack_instance;
#endif

struct registrar {
  registrar() { register_all(); }
} const registrar_instance;

}  // namespace

BENCHMARK_MAIN();
