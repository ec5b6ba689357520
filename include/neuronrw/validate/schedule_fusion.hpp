// neuronrw/validate/schedule_fusion.hpp — the rewrite check of a ScheduleFusion plan
// (docs/validation.md §"ScheduleFusion"): a snapshot of the plan's blocks before apply, and a
// check of the output against it that proves
//   1. the same ops exist (none missing, none added except the plan's grouping ops and their
//      terminators), each with its kind and region count;
//   2. each op's operands stand for the values they stood for: an operand that is an argument of
//      a grouping op's region stands for that op's operand at the same index, a result of a
//      grouping op for its terminator's operand at the same index (live-ins and live-outs map one
//      to one), followed through nested groupings;
//   3. only the ops the plan moves or groups changed position: every other op has its siblings
//      in the input's order and its enclosing op (grouping ops looked through), and so do the
//      planned ops' enclosing ops;
//   4. every use is after its definition and sees it: the defining op comes first, encloses the
//      use's block chain, and is not the use's own ancestor; a region argument of a grouping op
//      is used only inside it;
//   5. each cluster became one grouping op holding exactly its ops, in body order, ending with a
//      terminator, with the plan's FusionKind, one operand per live-in and one result per
//      live-out.
// Flat groupings (an IR whose grouping op has no region and replaces its ops, as the Boost.Graph
// adapter's contraction does): the cluster's ops are gone from the blocks, the grouping op's
// operands stand for the live-ins (in order; in any order on an IR whose operand order carries
// no meaning, O9) and its results for the live-outs, followed through as in (2); the snapshot
// proves that the plan's live-ins are exactly the values the cluster's ops used from outside it
// and that every use outside the cluster of a value it defined is a live-out, since no region
// shows it any more; a use of a result of a replaced op is reported.
// The snapshot covers the blocks holding clusters, with every op nested in them (a block nested
// in another covered block is covered through it). Ops outside those blocks are not recorded:
// nothing in the plan names them, and SSA scoping keeps every use of a covered value inside the
// covered blocks, so (2) sees each one; an op moved into or out of a covered block shows as
// added or missing.
//
// Customization points: the printer (describe()'s: `std::string(op)`, optionally `value(v)`),
// which names ops and values in the mismatches. Needs ordered_ir, groupable_ir's
// string_attribute and block_arguments (O4; a flat IR's are empty); uses op_index (O1) when the
// IR has it, unordered_operands (O9) when it declares it. The check never reads an op a flat
// grouping replaced (its handle may dangle): it knows those by the plan's handles.
// Complexity: O(covered ops + operands + cluster ops) time, hash lookups only for the grouping
// ops and what refers to them; snapshot memory: per covered op its handle, three 32-bit fields
// and two bytes, a value handle per operand, a 32-bit slot per op number (O1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/composite_lowering.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>
#include <neuronrw/validate/check.hpp>
#include <neuronrw/validate/snapshot.hpp>

namespace neuronrw {

/// What the check of a ScheduleFusion plan compares the output with.
template <class G>
struct schedule_fusion_snapshot {
  validate_detail::block_snapshot<G> blocks;
  std::vector<std::uint8_t> planned;  ///< per snapshot op: the plan moves or groups it
  /// The snapshot indices of cluster i's ops: cluster_ops[cluster_begin[i] .. cluster_begin[i+1]).
  std::vector<std::uint32_t> cluster_ops, cluster_begin;
  /// Where the input says a cluster's live-ins or live-outs are not exactly the plan's (what a
  /// flat grouping relies on; a grouping op with a region shows its uses itself).
  struct live_fault {
    std::uint32_t cluster;
    std::string message;
  };
  std::vector<live_fault> live_faults;
  explicit schedule_fusion_snapshot(const G& g) : blocks(g) {}
  std::size_t ops() const noexcept { return blocks.ops.size(); }
  std::size_t bytes() const noexcept {
    return blocks.bytes() + planned.capacity() + (cluster_ops.capacity() + cluster_begin.capacity()) * sizeof(std::uint32_t);
  }
};

namespace validate_detail {

/// Compares the plan's live-ins and live-outs of cluster `ci` with the input (see
/// schedule_fusion_snapshot::live_faults). O(the cluster's operands, results and their users).
template <class G>
void check_live_lists(const G& g, const typename schedule_fusion_plan_t<G>::cluster& c, std::uint32_t ci,
                      std::vector<typename schedule_fusion_snapshot<G>::live_fault>& out) {
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  auto member = [&](op o) { return !ir::is_null<G>(o) && std::find(c.ops.begin(), c.ops.end(), o) != c.ops.end(); };
  // An op nested in a member counts as the member (its uses are inside the cluster).
  auto inside = [&](op o) {
    for (std::size_t depth = 0; !ir::is_null<G>(o) && depth < 4096; ++depth, o = ir::parent_op(g, o))
      if (member(o)) return true;
    return false;
  };
  auto index_in = [](const std::vector<value>& list, const value& v) {
    return static_cast<std::size_t>(std::find(list.begin(), list.end(), v) - list.begin());
  };
  const std::string which = "cluster #" + std::to_string(ci);
  auto fault = [&](std::string m) { out.push_back({ci, which + ": " + std::move(m)}); };
  std::vector<std::uint8_t> used(c.live_ins.size(), 0);
  for (std::size_t j = 0; j < c.ops.size(); ++j) {
    std::size_t k = 0;
    for (auto&& v : ir::operands(g, c.ops[j])) {
      if (!member(ir::defining_op(g, v))) {
        const std::size_t at = index_in(c.live_ins, v);
        if (at == c.live_ins.size())
          fault("operand #" + std::to_string(k) + " of the cluster's op #" + std::to_string(j) +
                " is defined outside the cluster and is not a live-in");
        else
          used[at] = 1;
      }
      ++k;
    }
    std::size_t r = 0;
    for (auto&& v : ir::results(g, c.ops[j])) {
      bool outside = false;
      for (auto&& u : ir::users(g, v)) outside = outside || !inside(u);
      if (outside && index_in(c.live_outs, v) == c.live_outs.size())
        fault("result #" + std::to_string(r) + " of the cluster's op #" + std::to_string(j) +
              " is used outside the cluster and is not a live-out");
      ++r;
    }
  }
  for (std::size_t k = 0; k < c.live_ins.size(); ++k) {
    if (member(ir::defining_op(g, c.live_ins[k])))
      fault("live-in #" + std::to_string(k) + " is defined inside the cluster");
    else if (!used[k])
      fault("live-in #" + std::to_string(k) + " is not used by the cluster's ops");
    if (index_in(c.live_ins, c.live_ins[k]) != k) fault("live-in #" + std::to_string(k) + " repeats an earlier one");
  }
  for (std::size_t k = 0; k < c.live_outs.size(); ++k) {
    if (!member(ir::defining_op(g, c.live_outs[k])))
      fault("live-out #" + std::to_string(k) + " is not a result of the cluster's ops");
    if (index_in(c.live_outs, c.live_outs[k]) != k) fault("live-out #" + std::to_string(k) + " repeats an earlier one");
  }
}

}  // namespace validate_detail

/// Records what applying `plan` to `g` may touch. Reads only.
template <class G>
schedule_fusion_snapshot<G> snapshot_schedule_fusion(const G& g, const schedule_fusion_plan_t<G>& plan) {
  static_assert(require_ordered_ir<G>());
  using op = op_handle_t<G>;
  using block = block_handle_t<G>;
  schedule_fusion_snapshot<G> s(g);
  // The clusters' blocks, in plan order, without those nested in another of them.
  std::vector<std::pair<block, op>> roots;
  std::unordered_set<block, handle_hash<block>> seen;
  for (const auto& c : plan.clusters) {
    if (c.ops.empty()) continue;
    const block b = ir::block_of(g, c.ops[0]);
    if (seen.insert(b).second) roots.emplace_back(b, ir::parent_op(g, c.ops[0]));
  }
  std::size_t total = 0;
  std::vector<std::pair<block, op>> outer;
  for (const auto& [b, owner] : roots) {
    bool nested = false;
    for (op up = owner; !ir::is_null<G>(up) && !nested; up = ir::parent_op(g, up)) nested = seen.count(ir::block_of(g, up)) != 0;
    if (nested) continue;
    outer.emplace_back(b, owner);
    total += validate_detail::count_nested(g, b);
  }
  s.blocks.ops.reserve(total);
  s.blocks.operands.reserve(total * 2);
  for (const auto& [b, owner] : outer) validate_detail::snapshot_block(g, s.blocks, b, owner, false);
  s.planned.assign(s.blocks.ops.size(), 0);
  auto mark = [&](op o) {
    const auto i = s.blocks.index.get(g, o);
    if (i != validate_detail::npos32) s.planned[i] = 1;
    return i;
  };
  s.cluster_begin.reserve(plan.clusters.size() + 1);
  for (std::uint32_t ci = 0; ci < plan.clusters.size(); ++ci) {
    const auto& c = plan.clusters[ci];
    s.cluster_begin.push_back(static_cast<std::uint32_t>(s.cluster_ops.size()));
    for (op o : c.ops) s.cluster_ops.push_back(mark(o));
    for (op o : c.carried) mark(o);
    for (const auto& m : c.moves) mark(m.op);
    validate_detail::check_live_lists(g, c, ci, s.live_faults);
  }
  s.cluster_begin.push_back(static_cast<std::uint32_t>(s.cluster_ops.size()));
  return s;
}

namespace validate_detail {

/// The values a grouping op stands in for: its region's arguments for its operands, its results
/// for its terminator's operands.
template <class G>
struct group_aliases {
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  struct entry {
    value target;
    op group;
    bool argument;  ///< a region argument (true) or a result (false) of `group`
    bool input = false;  ///< `target` is a value of the input (a flat grouping's live-out): final
  };
  std::unordered_map<value, entry, handle_hash<value>> map;
  std::unordered_set<op, handle_hash<op>> created;  ///< the grouping ops and their terminators
  std::unordered_map<op, std::uint32_t, handle_hash<op>> flat;  ///< flat grouping op → its cluster
  std::unordered_set<op, handle_hash<op>> gone;  ///< the ops flat groupings replaced (never read)

  /// What `v` stands for in the input (itself unless it is a grouping op's argument or result).
  value resolve(value v) const {
    for (std::size_t steps = 0; steps <= map.size(); ++steps) {
      auto it = map.find(v);
      if (it == map.end()) return v;
      // A flat grouping's live-out is an input value, whose handle may since name another op.
      if (it->second.input) return it->second.target;
      v = it->second.target;
    }
    return v;  // a cycle: only a broken output has one; the operand check then reports it
  }
};

/// The printer's names of `ops`; an op the output no longer has (never read: its handle may
/// dangle) is named as such.
template <class G, class Printer, class Alive>
std::string op_list(const G& g, Printer& pr, const std::vector<op_handle_t<G>>& ops, const Alive& alive) {
  std::string s;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (i) s += ", ";
    s += alive(ops[i]) ? describe_detail::op_text(g, pr, ops[i]) : std::string("an op missing from the output");
  }
  return s.empty() ? "nothing" : s;
}

/// Which ops of the input the output still has: a snapshot op is alive when the output walk
/// reached it; an op outside the snapshot is taken to be alive. `anchor(o)`: `o` when alive,
/// else the owner of the first checked block (where a mismatch about a missing op is reported).
template <class G>
struct liveness {
  const G& g;
  const block_snapshot<G>& s;
  const output_walk<G>& w;
  const std::unordered_set<op_handle_t<G>, handle_hash<op_handle_t<G>>>& gone;
  bool operator()(op_handle_t<G> o) const {
    if (ir::is_null<G>(o) || (!gone.empty() && gone.count(o))) return false;
    const auto si = s.index.get(g, o);
    if (si == npos32 || !(s.ops[si].o == o)) return true;
    return w.snap_pos[si] != npos32;
  }
  op_handle_t<G> anchor(op_handle_t<G> o) const {
    if ((*this)(o)) return o;
    for (const auto& b : s.blocks)
      if (!ir::is_null<G>(b.owner)) return b.owner;
    return w.order.empty() ? ir::null_op<G>() : w.order.front();
  }
};

template <class G, class Printer>
std::string value_words(const G& g, Printer& pr, value_handle_t<G> v) {
  return describe_detail::value_text(g, pr, v);
}

/// Checks the grouping ops against the clusters (point 5) and fills the aliases.
template <class G, class Printer, class Alive>
void check_groups(const G& g, const schedule_fusion_plan_t<G>& plan, const std::vector<op_handle_t<G>>& groups,
                  const std::vector<typename schedule_fusion_snapshot<G>::live_fault>& snap_live_faults, Printer& pr,
                  const Alive& alive, group_aliases<G>& al, rewrite_check<op_handle_t<G>>& out) {
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  for (std::size_t i = 0; i < plan.clusters.size(); ++i) {
    const auto& c = plan.clusters[i];
    const std::string which = "cluster #" + std::to_string(i);
    const op grp = i < groups.size() ? groups[i] : ir::null_op<G>();
    if (ir::is_null<G>(grp)) {
      out.add(rewrite_fault::plan_not_realized, alive.anchor(c.consumer()), which + " was not grouped",
              "a cluster of " + op_list(g, pr, c.ops, alive),
              "no grouping op");
      continue;
    }
    std::vector<block_handle_t<G>> blocks;
    for (auto&& b : ir::regions(g, grp)) blocks.push_back(b);
    if (blocks.empty() && al.flat.count(grp)) {
      // A flat grouping: the op stands for the cluster; its operands are checked with the other
      // ops' (once every grouping op's results are known), its results alias the live-outs.
      al.created.insert(grp);
      for (const auto& f : snap_live_faults)
        if (f.cluster == i) out.add(rewrite_fault::plan_not_realized, grp, f.message, "the input's uses", "the plan's live-ins and live-outs");
      if (auto k = ir::string_attribute(g, grp, composite_schema::fusion_kind); !k || *k != plan.fusion_kind)
        out.add(rewrite_fault::plan_not_realized, grp, which + ": the grouping op's FusionKind is not the plan's",
                "FusionKind " + plan.fusion_kind, k ? "FusionKind " + *k : std::string("no FusionKind"));
      std::vector<value> outs;
      for (auto&& v : ir::results(g, grp)) outs.push_back(v);
      if (outs.size() != c.live_outs.size())
        out.add(rewrite_fault::plan_not_realized, grp, which + ": live-outs do not map one to one",
                std::to_string(c.live_outs.size()) + " live-outs", std::to_string(outs.size()) + " results");
      for (std::size_t k = 0; k < outs.size() && k < c.live_outs.size(); ++k)
        al.map.emplace(outs[k], typename group_aliases<G>::entry{c.live_outs[k], grp, false, true});
      continue;
    }
    if (blocks.size() != 1) {
      out.add(rewrite_fault::plan_not_realized, grp, which + ": the grouping op has " + std::to_string(blocks.size()) + " regions",
              "one region", std::to_string(blocks.size()));
      al.created.insert(grp);
      continue;
    }
    std::vector<op> body;
    for (auto&& o : ir::ops(g, blocks[0])) body.push_back(o);
    al.created.insert(grp);
    if (body.empty() || !ir::is_terminator(g, body.back())) {
      out.add(rewrite_fault::plan_not_realized, grp, which + ": the grouping op's region does not end with a terminator");
      continue;
    }
    const op term = body.back();
    al.created.insert(term);
    body.pop_back();
    if (body != c.ops)
      out.add(rewrite_fault::plan_not_realized, grp, which + ": the grouping op does not hold exactly the cluster's ops",
              op_list(g, pr, c.ops, alive), op_list(g, pr, body, alive));
    if (auto k = ir::string_attribute(g, grp, composite_schema::fusion_kind); !k || *k != plan.fusion_kind)
      out.add(rewrite_fault::plan_not_realized, grp, which + ": the grouping op's FusionKind is not the plan's",
              "FusionKind " + plan.fusion_kind, k ? "FusionKind " + *k : std::string("no FusionKind"));
    std::vector<value> ins, args, outs, rets;
    for (auto&& v : ir::operands(g, grp)) ins.push_back(v);
    if constexpr (block_arguments_ir<G>)
      for (auto&& v : ir_traits<G>::block_arguments(g, blocks[0])) args.push_back(v);
    for (auto&& v : ir::results(g, grp)) outs.push_back(v);
    for (auto&& v : ir::operands(g, term)) rets.push_back(v);
    if (ins.size() != c.live_ins.size() || args.size() != ins.size())
      out.add(rewrite_fault::plan_not_realized, grp, which + ": live-ins do not map one to one",
              std::to_string(c.live_ins.size()) + " live-ins",
              std::to_string(ins.size()) + " operands, " + std::to_string(args.size()) + " region arguments");
    if (outs.size() != c.live_outs.size() || rets.size() != outs.size())
      out.add(rewrite_fault::plan_not_realized, grp, which + ": live-outs do not map one to one",
              std::to_string(c.live_outs.size()) + " live-outs",
              std::to_string(outs.size()) + " results, " + std::to_string(rets.size()) + " terminator operands");
    for (std::size_t k = 0; k < args.size() && k < ins.size(); ++k) al.map.emplace(args[k], typename group_aliases<G>::entry{ins[k], grp, true});
    for (std::size_t k = 0; k < outs.size() && k < rets.size(); ++k) al.map.emplace(outs[k], typename group_aliases<G>::entry{rets[k], grp, false});
  }
}

}  // namespace validate_detail

/// Checks the output of applying `plan` (`groups`: what apply returned, the grouping op of each
/// cluster) against `snap`, taken before apply. See the header comment for what it proves.
template <class G, class Printer>
rewrite_check<op_handle_t<G>> check_schedule_fusion(const G& g, const schedule_fusion_plan_t<G>& plan,
                                                    const schedule_fusion_snapshot<G>& snap,
                                                    const std::vector<op_handle_t<G>>& groups, Printer&& printer) {
  static_assert(require_groupable_ir<G>());
  static_assert(block_arguments_ir<G>,
                "neuronrw: the ScheduleFusion check follows a grouping op's region arguments to its operands, "
                "so it needs block_arguments (optional capability O4, concepts/ir.hpp): give ir_traits<G> "
                "`static R block_arguments(const G&, block_handle)`.");
  namespace vd = validate_detail;
  using op = op_handle_t<G>;
  using npos_t = std::uint32_t;
  constexpr npos_t npos = vd::npos32;
  rewrite_check<op> out;
  const auto& s = snap.blocks;
  out.ops = s.ops.size();
  out.bytes = snap.bytes();

  vd::group_aliases<G> al;
  const auto w = vd::walk_output(g, s);
  // Flat groupings first: a grouping op without a region replaced its cluster's ops, which the
  // output no longer has (their handles are never read again); one still in the blocks is not
  // replaced. `absorbed`: per snapshot op, replaced by a flat grouping.
  std::vector<std::uint8_t> absorbed;
  for (std::uint32_t i = 0; i < plan.clusters.size() && i < groups.size(); ++i) {
    const op grp = groups[i];
    if (ir::is_null<G>(grp) || !std::ranges::empty(ir::regions(g, grp))) continue;
    al.flat.emplace(grp, i);
    if (absorbed.empty()) absorbed.assign(s.ops.size(), 0);
    for (std::uint32_t k = snap.cluster_begin[i]; k < snap.cluster_begin[i + 1]; ++k) {
      const npos_t si = snap.cluster_ops[k];
      const op m = plan.clusters[i].ops[k - snap.cluster_begin[i]];
      if (si == npos) continue;
      if (w.snap_pos[si] != npos) {
        out.add(rewrite_fault::plan_not_realized, m,
                "cluster #" + std::to_string(i) + ": an op the grouping op replaces is still in the block",
                "the op replaced by the grouping op", describe_detail::op_text(g, printer, m));
        continue;
      }
      al.gone.insert(m);
      for (npos_t j = si; j < s.ops[si].end; ++j) absorbed[j] = 1;
    }
  }
  const vd::liveness<G> alive{g, s, w, al.gone};
  vd::check_groups(g, plan, groups, snap.live_faults, printer, alive, al, out);

  // Snapshot parents (npos: the root block) and which root each snapshot op is in.
  std::vector<npos_t> snap_parent(s.ops.size(), npos), snap_root(s.ops.size(), 0);
  {
    std::vector<npos_t> open;
    for (npos_t r = 0; r < s.blocks.size(); ++r) {
      open.clear();
      for (npos_t i = s.blocks[r].begin; i < s.blocks[r].end; ++i) {
        while (!open.empty() && s.ops[open.back()].end <= i) open.pop_back();
        snap_parent[i] = open.empty() ? npos : open.back();
        snap_root[i] = r;
        open.push_back(i);
      }
    }
  }
  // Ops missing from the output (the topmost of a missing subtree is reported).
  for (npos_t i = 0; i < s.ops.size(); ++i) {
    if (w.snap_pos[i] != npos || (!absorbed.empty() && absorbed[i])) continue;
    const npos_t par = snap_parent[i];
    if (par != npos && w.snap_pos[par] == npos) continue;
    // Anchor: the enclosing op when it is there, else the next op of the input that is.
    op at = par != npos ? s.ops[par].o : s.blocks[snap_root[i]].owner;
    for (npos_t j = s.ops[i].end; ir::is_null<G>(at) && j < s.blocks[snap_root[i]].end; ++j)
      if (w.snap_pos[j] != npos) at = s.ops[j].o;
    out.add(rewrite_fault::op_missing, at,
            "an op of the input is missing: op #" + std::to_string(i - s.blocks[snap_root[i]].begin) +
                " of the checked block (pre-order), kind " + std::to_string(s.ops[i].kind),
            "the op", "nothing");
  }

  // The effective parent of an output op: its parent op, grouping ops looked through.
  auto effective_parent = [&](op o) {
    op p = ir::parent_op(g, o);
    for (std::size_t guard = 0; guard <= al.created.size(); ++guard) {
      if (ir::is_null<G>(p) || s.index.get(g, p) != npos || !al.created.count(p)) break;
      p = ir::parent_op(g, p);
    }
    return p;
  };
  const auto& pos_root = w.root;

  std::vector<npos_t> prev_snap(s.ops.size(), npos);  // previous unplanned present sibling in the input
  {
    std::vector<npos_t> last(s.ops.size() + s.blocks.size(), npos);
    for (npos_t i = 0; i < s.ops.size(); ++i) {
      if (snap.planned[i] || w.snap_pos[i] == npos) continue;
      const npos_t key = snap_parent[i] == npos ? static_cast<npos_t>(s.ops.size() + snap_root[i]) : snap_parent[i];
      prev_snap[i] = last[key];
      last[key] = i;
    }
  }
  std::vector<npos_t> last_out(s.ops.size() + s.blocks.size(), npos);

  // The position of an op defined in the checked blocks (snapshot ops by the flat index; others,
  // the grouping ops, by hash only when the op is not a snapshot op), npos outside them.
  auto position = [&](op x, npos_t xi) -> npos_t {
    if (xi != npos && w.snap_pos[xi] != npos && w.order[w.snap_pos[xi]] == x) return w.snap_pos[xi];
    if (al.created.empty() || ir::is_null<G>(x)) return npos;
    auto it = w.created_pos.find(x);
    return it == w.created_pos.end() ? npos : it->second;
  };
  // An input value is named only when the output still has it (its handle may dangle
  // otherwise): a result of an op the walk reached, or an argument of a block it entered. Built on
  // the first mismatch that needs it.
  std::unordered_set<value_handle_t<G>, handle_hash<value_handle_t<G>>> output_values;
  bool have_output_values = false;
  auto input_value_words = [&](value_handle_t<G> v) {
    if (!have_output_values) {
      have_output_values = true;
      for (const auto& b : s.blocks)
        for (auto&& a : ir_traits<G>::block_arguments(g, b.b)) output_values.insert(a);
      for (const op x : w.order) {
        for (auto&& r : ir::results(g, x)) output_values.insert(r);
        for (auto&& rb : ir::regions(g, x))
          for (auto&& a : ir_traits<G>::block_arguments(g, rb)) output_values.insert(a);
      }
    }
    return output_values.count(v) ? vd::value_words(g, printer, v)
                                   : std::string("a value defined outside the checked blocks, or by an op missing from the output");
  };
  // The input values the flat groupings' results stand for: their ops are gone, never named.
  std::unordered_set<value_handle_t<G>, handle_hash<value_handle_t<G>>> gone_values;
  for (const auto& [grp, ci] : al.flat)
    for (const auto& v : plan.clusters[ci].live_outs) gone_values.insert(v);
  auto resolved_words = [&](value_handle_t<G> v) {
    return gone_values.count(v) ? std::string("a result of an op a grouping op replaced") : vd::value_words(g, printer, v);
  };
  // 2. `now` (op o's operands in the output) stand for `before` (what the input had: o's
  // operands, or a flat grouping op's live-ins): position by position, or as a multiset on an IR
  // whose operand order means nothing (O9).
  std::vector<value_handle_t<G>> resolved, expected, now_operands;
  std::vector<std::uint8_t> now_fresh;  ///< per operand: defined by an op at a replaced op's handle
  auto compare_operands = [&](op o, const std::vector<value_handle_t<G>>& now, const value_handle_t<G>* before,
                              std::size_t n, bool live_ins) {
    if constexpr (unordered_operands_ir<G>) {
      resolved.clear();
      for (const auto& v : now) resolved.push_back(al.resolve(v));
      expected.assign(before, before + n);
      bool same = resolved.size() == n;
      // Matching by equality: quadratic in the op's operand count, which is small; hashed above 32.
      if (same && n <= 32) {
        for (const auto& x : resolved) {
          auto it = std::find(expected.begin(), expected.end(), x);
          if (it == expected.end()) {
            same = false;
            break;
          }
          *it = expected.back();
          expected.pop_back();
        }
      } else if (same) {
        std::unordered_map<value_handle_t<G>, std::size_t, handle_hash<value_handle_t<G>>> count;
        for (std::size_t m = 0; m < n; ++m) ++count[before[m]];
        for (const auto& x : resolved)
          if (auto it = count.find(x); it == count.end() || it->second-- == 0) same = false;
      }
      if (!same) {
        std::string had, has;
        for (std::size_t m = 0; m < n; ++m) had += (m ? ", " : "") + input_value_words(before[m]);
        for (std::size_t m = 0; m < resolved.size(); ++m) has += (m ? ", " : "") + resolved_words(resolved[m]);
        out.add(rewrite_fault::operand_changed, o,
                live_ins ? "the grouping op's operands (in any order) stand for other values than its cluster's live-ins"
                         : "the op's operands (in any order) stand for other values than in the input",
                had.empty() ? "no operands" : had, has.empty() ? "no operands" : has);
      }
    } else {
      for (std::size_t m = 0; m < n && m < now.size(); ++m) {
        const auto v = now[m];
        if (v == before[m] && !now_fresh[m]) continue;
        const auto x = al.resolve(v);
        if (x == before[m]) continue;
        std::string has = vd::value_words(g, printer, v);
        if (!(x == v)) has += " (standing for " + resolved_words(x) + ")";
        out.add(rewrite_fault::operand_changed, o,
                "operand #" + std::to_string(m) +
                    (live_ins ? " stands for another value than the cluster's live-in #" + std::to_string(m)
                              : std::string(" stands for another value than in the input")),
                input_value_words(before[m]), std::move(has));
      }
      if (now.size() != n)
        out.add(rewrite_fault::operand_changed, o,
                live_ins ? "the grouping op has another number of operands than its cluster has live-ins"
                         : "the op has another number of operands than in the input",
                std::to_string(n) + (live_ins ? " live-ins" : " operands"), std::to_string(now.size()) + " operands");
    }
  };
  for (npos_t p = 0; p < w.order.size(); ++p) {
    const op o = w.order[p];
    const npos_t si = s.index.get(g, o);
    const bool known = si != npos && w.snap_pos[si] == p;
    const bool created = !known && al.created.count(o) != 0;
    if (!known && !created) {
      out.add(rewrite_fault::op_added, o, "an op the input did not have and the plan does not create", "nothing",
              describe_detail::op_text(g, printer, o));
      continue;
    }
    const op root_owner = s.blocks[pos_root[p]].owner;
    // 4. visibility of every operand (grouping ops' operands too); 2. what each stands for.
    now_operands.clear();
    now_fresh.clear();
    std::size_t k = 0;
    for (auto&& v : ir::operands(g, o)) {
      now_operands.push_back(v);
      const op d = ir::defining_op(g, v);
      bool visible = true;
      now_fresh.push_back(0);
      // An op a flat grouping replaced: its handle may since name an op the output made (a
      // listS vertex's address reused), which the walk reached; else a use of a replaced op.
      if (!al.gone.empty() && !ir::is_null<G>(d) && al.gone.count(d)) {
        if (position(d, s.index.get(g, d)) == npos) {
          out.add(rewrite_fault::use_before_def, o,
                  "operand #" + std::to_string(k) + " is a result of an op a grouping op replaced",
                  "a use of the grouping op's result", "a use of the replaced op's result");
          ++k;
          continue;
        }
        now_fresh.back() = 1;
      }
      if (ir::is_null<G>(d)) {
        if (!al.map.empty())
          if (auto it = al.map.find(v); it != al.map.end() && it->second.argument) {
            const npos_t gp = position(it->second.group, npos);
            visible = gp != npos && w.encloses(gp, p);
          }
      } else {
        const npos_t dp = position(d, s.index.get(g, d));
        if (dp != npos) {
          visible = dp < p && !w.encloses(dp, p) && pos_root[dp] == pos_root[p];
          const op dpar = ir::parent_op(g, d);
          if (visible && !ir::is_null<G>(dpar) && !(dpar == root_owner)) {
            const npos_t pp = position(dpar, s.index.get(g, dpar));
            if (pp != npos) visible = w.encloses(pp, p);
          }
        }
      }
      if (!visible)
        out.add(rewrite_fault::use_before_def, o,
                "operand #" + std::to_string(k) + " is not defined before this use, or not visible here",
                "a use after its definition", vd::value_words(g, printer, v));
      ++k;
    }
    if (created) {
      // A flat grouping op's operands stand for its cluster's live-ins.
      if (auto f = al.flat.find(o); f != al.flat.end()) {
        const auto& c = plan.clusters[f->second];
        compare_operands(o, now_operands, c.live_ins.data(), c.live_ins.size(), true);
      }
      continue;
    }
    const auto& r = s.ops[si];
    // 1. the op itself.
    std::uint32_t regions = 0;
    for (auto&& rb : ir::regions(g, o)) {
      (void)rb;
      ++regions;
    }
    if (ir::kind(g, o) != r.kind || vd::saturated_regions(regions) != s.regions[si])
      out.add(rewrite_fault::op_changed, o, "the op's kind or regions differ from the input's",
              "kind " + std::to_string(r.kind) + ", " + std::to_string(s.regions[si]) + " regions",
              "kind " + std::to_string(ir::kind(g, o)) + ", " + std::to_string(regions) + " regions");
    // 2. operands stand for the input's values: a value defined by a snapshot op stands for
    // itself; only the others (arguments, grouping ops' results) are looked up.
    compare_operands(o, now_operands, s.operands.data() + r.operand_begin, s.operand_count(si), false);
    // 3. enclosing op and sibling order.
    const op expect_parent = snap_parent[si] == npos ? s.blocks[snap_root[si]].owner : s.ops[snap_parent[si]].o;
    const op parent_now = effective_parent(o);
    if (!(parent_now == expect_parent) || pos_root[p] != snap_root[si]) {
      out.add(rewrite_fault::moved_unplanned, o, "the op is in another region than in the input",
              "inside " + (ir::is_null<G>(expect_parent) || alive(expect_parent) ? describe_detail::op_text(g, printer, expect_parent)
                                                                                  : std::string("an op missing from the output")),
              "inside " + describe_detail::op_text(g, printer, parent_now));
      continue;
    }
    if (snap.planned[si]) continue;
    const npos_t key = snap_parent[si] == npos ? static_cast<npos_t>(s.ops.size() + snap_root[si]) : snap_parent[si];
    if (last_out[key] != prev_snap[si]) {
      auto name = [&](npos_t i) { return i == npos ? std::string("first") : "after " + describe_detail::op_text(g, printer, s.ops[i].o); };
      out.add(rewrite_fault::moved_unplanned, o, "an op the plan does not move changed its place", name(prev_snap[si]),
              name(last_out[key]));
    }
    last_out[key] = si;
  }
  return out;
}

/// The same, naming ops by kind id.
template <class G>
rewrite_check<op_handle_t<G>> check_schedule_fusion(const G& g, const schedule_fusion_plan_t<G>& plan,
                                                    const schedule_fusion_snapshot<G>& snap,
                                                    const std::vector<op_handle_t<G>>& groups) {
  return check_schedule_fusion(g, plan, snap, groups, validate_detail::anonymous_printer<G>{g});
}

}  // namespace neuronrw
