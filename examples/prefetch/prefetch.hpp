// examples/prefetch/prefetch.hpp — the user pass of docs/passes.md §"Adding a pass": Prefetch
// starts every all_gather as early as its operands allow, so the transfer overlaps the compute
// before it. Generic: it plans on any ordered_ir and applies on any reschedulable_ir. The regions
// between `// [NAME]` and `// [/NAME]` are the docs' code blocks, byte for byte
// (tests/docs/doc_snippets.py). Its descriptor, `prefetch_example::prefetch`, is all
// neuronrw-opt (prefetch_opt.cpp), the MLIR adapter (register_descriptor_pass) and the parallel
// driver (run_pass_parallel) need (tests/driver/prefetch_test.py, tests/passes/prefetch_test.cpp,
// tests/adapters/mlir/prefetch_test.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/algorithms/scheduled_view.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/passes/protocol.hpp>

namespace prefetch_example {

namespace nr = neuronrw;

// [prefetch-options]
struct prefetch_options {
  std::uint64_t max_distance = 16;  ///< move an all_gather past at most this many ops
};

}  // namespace prefetch_example

template <>
inline constexpr auto neuronrw::option_schema_v<prefetch_example::prefetch_options> = std::array{
    neuronrw::option_field<prefetch_example::prefetch_options>{
        .name = "max-distance", .type = neuronrw::option_type::uint64, .default_text = "16",
        .help = "Move an all_gather past at most this many ops",
        .member = neuronrw::option_member<&prefetch_example::prefetch_options::max_distance>},
    neuronrw::option_field<prefetch_example::prefetch_options>{
        .name = "dry-run", .type = neuronrw::option_type::boolean, .default_text = "false",
        .help = "Print the moves instead of the program; change nothing"},
    neuronrw::option_field<prefetch_example::prefetch_options>{
        .name = "remarks", .type = neuronrw::option_type::boolean, .default_text = "false",
        .help = "Emit a remark for every all_gather left in place"},
};
static_assert(neuronrw::check_option_defaults(neuronrw::option_schema_v<prefetch_example::prefetch_options>));
// [/prefetch-options]

namespace prefetch_example {

// [prefetch-pass]
enum class prefetch_refusal { already_early, too_far };

constexpr std::string_view to_string(prefetch_refusal r) {
  return r == prefetch_refusal::already_early ? "already_early" : "too_far";
}

template <class G>
struct prefetch_plan {
  using op = nr::op_handle_t<G>;
  using refusal = nr::refusal<prefetch_refusal, op>;
  std::vector<nr::op_move<op>> moves;
  std::vector<refusal> refused;
  bool has_changes() const { return !moves.empty(); }
  std::span<const nr::op_move<op>> changes() const { return moves; }
  std::span<const refusal> refusals() const { return refused; }
};

/// The moves that start each all_gather of block `b` as early as its operands allow, at most
/// `o.max_distance` ops earlier; appended to `p`.
template <class G>
void plan_prefetch(const G& g, nr::block_handle_t<G> b, const prefetch_options& o, prefetch_plan<G>& p) {
  static_assert(nr::require_ordered_ir<G>());
  nr::scheduled_view<G> view(g);  // plans each move against the order the earlier ones leave
  for (auto op : nr::ir::ops(g, b)) {
    if (nr::ir::kind(g, op) != nr::kind_id_v<nr::kinds::all_gather>) continue;
    auto last = nr::ir::null_op<G>();  // its latest producer in the block
    nr::for_each_producer_in_block(view, op, b, [&](auto d) {
      if (nr::ir::is_null<G>(last) || view.is_before(last, d)) last = d;
      return true;
    });
    const bool first = nr::ir::is_null<G>(last);
    const auto anchor = first ? view.first(b) : last;
    std::uint64_t past = 0;  // the ops it would move past
    for (auto x = first ? anchor : view.next(anchor); x != op; x = view.next(x)) ++past;
    if (past == 0 || past > o.max_distance) {
      p.refused.push_back({past == 0 ? prefetch_refusal::already_early : prefetch_refusal::too_far, op,
                           past == 0 ? "its operands are defined just before it"
                                     : "it would move past " + std::to_string(past) + " ops"});
      continue;
    }
    p.moves.push_back({op, first ? nr::move_position::before : nr::move_position::after, anchor});
    view.move(p.moves.back());
  }
}

template <class G>
void apply(G& g, const prefetch_plan<G>& p) { nr::apply_moves(g, p.changes()); }

template <class G, class Printer>
std::string describe(const G& g, const prefetch_plan<G>& p, Printer&& pr) {
  std::string s;
  for (const auto& m : p.moves)
    s += "move " + nr::describe_detail::op_text(g, pr, m.op) +
         (m.where == nr::move_position::before ? " before " : " after ") + nr::describe_detail::op_text(g, pr, m.anchor) + "\n";
  for (const auto& r : p.refused) s += "refused " + nr::describe_detail::op_text(g, pr, r.op) + ": " + r.message + "\n";
  return s;
}

/// Its refusals are remarks (an all_gather left in place is no error): `PASS: CODE: MESSAGE`.
template <class G>
nr::worded_refusal<nr::op_handle_t<G>> refusal_words(const G&, const prefetch_plan<G>&,
                                                     const typename prefetch_plan<G>::refusal& r,
                                                     const nr::refusal_wording& w) {
  return {nr::severity::remark, r.op, std::string(w.pass) + ": " + std::string(to_string(r.code)) + ": " + r.message, {}};
}
// [/prefetch-pass]

// [prefetch-descriptor]
struct prefetch {
  static constexpr std::string_view name = "prefetch";
  static constexpr std::string_view display = "Prefetch";
  static constexpr std::string_view summary = "Start every all_gather as early as its operands allow";
  static constexpr nr::pass_input input = nr::pass_input::ops;
  using options = prefetch_options;
  template <class G>
  using traits = nr::ir_traits<std::remove_cvref_t<G>>;

  template <class G>
  static prefetch_plan<G> plan(const G& g, const options& o = {}) {
    std::vector<prefetch_plan<G>> parts;
    for (auto f : units(g)) parts.push_back(plan_part(g, f, o));
    return merge(g, o, std::move(parts));
  }
  template <class G>
  static void apply(G& g, const prefetch_plan<G>& p) { prefetch_example::apply(g, p); }
  template <class G, class Printer>
  static std::string describe(const G& g, const prefetch_plan<G>& p, Printer&& pr) {
    return prefetch_example::describe(g, p, pr);
  }

  // Per-function parts (the parallel driver plans the functions on several threads).
  template <class G>
  static std::vector<nr::op_handle_t<G>> units(const G& g) {
    std::vector<nr::op_handle_t<G>> fs;
    for (auto&& f : nr::ir::functions(g)) fs.push_back(f);
    return fs;
  }
  template <class G>
  static options scratch(const G&, const options& o) { return o; }
  template <class G>
  static prefetch_plan<G> plan_part(const G& g, nr::op_handle_t<G> f, const options& o) {
    prefetch_plan<G> p;
    for (auto&& b : nr::ir::regions(g, f)) plan_prefetch(g, b, o, p);
    return p;
  }
  template <class G>
  static prefetch_plan<G> merge(const G&, const options&, std::vector<prefetch_plan<G>>&& parts) {
    prefetch_plan<G> out;
    for (auto& p : parts) {
      out.moves.insert(out.moves.end(), p.moves.begin(), p.moves.end());
      out.refused.insert(out.refused.end(), p.refused.begin(), p.refused.end());
    }
    return out;
  }
};
static_assert(nr::pass_descriptor<prefetch>);
// [/prefetch-descriptor]

}  // namespace prefetch_example
