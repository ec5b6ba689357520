// tests/validate/fault_injector.hpp — makes wrong rewrites on purpose, generic over the IR, so the
// rewrite checks (include/neuronrw/validate/) can be shown to catch them. Each fault is made on an
// output a correct apply produced, so the output is exactly "a rewrite that went wrong in this
// one way":
//   drop_op            an op of the checked blocks erased (one whose results have no uses)
//   rewire_operand     an operand set to another visible value of the same type that stands for
//                      another input value
//   swap_results       the uses of two results of a grouping op exchanged
//   move_unplanned     an op the plan does not move put after its next sibling (which does not
//                      use it)
//   use_before_def     an op moved before the definition of one of its operands
//   body_op_changed    an op of a decomposition's body altered (another attribute)
//   body_rewired       an operand of a decomposition body op set to another value of the body
//   composite_rewired  an operand of a composite set to another visible value
//   composite_swapped  the uses of two results of a composite exchanged
// Which value another one "stands for" is computed here with the test's own resolution (through
// grouping ops' arguments and results), not the checker's.
//
// What an IR must give: fault_primitives<G> (set_operand, same_type, alter) beside its ir_traits.
// The choices depend only on the IR's op order, operand order and the random engine, so two IRs
// holding the same program make the same fault (the MLIR adapter's test compares the verdicts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/validate/check.hpp>
#include <neuronrw/validate/composites.hpp>
#include <neuronrw/validate/schedule_fusion.hpp>

namespace fault_injection {

using namespace neuronrw;

enum class fault : std::uint8_t {
  drop_op,
  rewire_operand,
  swap_results,
  move_unplanned,
  use_before_def,
  body_op_changed,
  body_rewired,
  composite_rewired,
  composite_swapped,
};
inline constexpr fault schedule_faults[] = {fault::drop_op, fault::rewire_operand, fault::swap_results,
                                            fault::move_unplanned, fault::use_before_def};
inline constexpr fault composite_faults[] = {fault::body_op_changed, fault::body_rewired, fault::composite_rewired,
                                             fault::composite_swapped};

constexpr std::string_view to_string(fault f) {
  switch (f) {
    case fault::drop_op: return "drop_op";
    case fault::rewire_operand: return "rewire_operand";
    case fault::swap_results: return "swap_results";
    case fault::move_unplanned: return "move_unplanned";
    case fault::use_before_def: return "use_before_def";
    case fault::body_op_changed: return "body_op_changed";
    case fault::body_rewired: return "body_rewired";
    case fault::composite_rewired: return "composite_rewired";
    case fault::composite_swapped: return "composite_swapped";
  }
  return "?";
}

/// The check's code a fault must (at least) produce.
constexpr rewrite_fault expected_code(fault f) {
  switch (f) {
    case fault::drop_op: return rewrite_fault::op_missing;
    case fault::rewire_operand: return rewrite_fault::operand_changed;
    case fault::swap_results: return rewrite_fault::operand_changed;
    case fault::move_unplanned: return rewrite_fault::moved_unplanned;
    case fault::use_before_def: return rewrite_fault::use_before_def;
    case fault::body_op_changed: return rewrite_fault::body_mismatch;
    case fault::body_rewired: return rewrite_fault::body_mismatch;
    case fault::composite_rewired: return rewrite_fault::composite_mismatch;
    case fault::composite_swapped: return rewrite_fault::composite_mismatch;
  }
  return rewrite_fault::op_changed;
}

template <class G>
struct fault_primitives;  // set_operand(g, op, k, v), same_type(g, a, b), alter(g, op)

/// The test's own resolution of a value to the input value it stands for: through the region
/// arguments and results of `groups` (grouping ops, or composites whose decomposition is not
/// followed).
template <class G>
class resolver {
 public:
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  resolver(const G& g, const std::vector<op>& groups) : g_(g) {
    for (op grp : groups) {
      if (ir::is_null<G>(grp)) continue;
      std::vector<value> ins(std::begin(ir::operands(g, grp)), std::end(ir::operands(g, grp)));
      for (auto&& b : ir::regions(g, grp)) {
        std::size_t k = 0;
        for (auto&& a : ir_traits<G>::block_arguments(g, b)) {
          if (k < ins.size()) alias_.emplace(a, ins[k]);
          ++k;
        }
        op last = ir::null_op<G>();
        for (auto&& o : ir::ops(g, b)) last = o;
        if (ir::is_null<G>(last)) continue;
        std::vector<value> rets(std::begin(ir::operands(g, last)), std::end(ir::operands(g, last)));
        k = 0;
        for (auto&& r : ir::results(g, grp)) {
          if (k < rets.size()) alias_.emplace(r, rets[k]);
          ++k;
        }
      }
    }
  }
  value operator()(value v) const {
    for (int i = 0; i < 64; ++i) {
      auto it = alias_.find(v);
      if (it == alias_.end()) break;
      v = it->second;
    }
    return v;
  }

 private:
  const G& g_;
  std::unordered_map<value, value, handle_hash<value>> alias_;
};

/// Every op nested in `b` (pre-order), explicit stack.
template <class G>
std::vector<op_handle_t<G>> nested_ops(const G& g, block_handle_t<G> b) {
  std::vector<op_handle_t<G>> out, stack;
  auto push_block = [&](block_handle_t<G> x) {
    std::vector<op_handle_t<G>> kids;
    for (auto&& o : ir::ops(g, x)) kids.push_back(o);
    for (std::size_t k = kids.size(); k-- > 0;) stack.push_back(kids[k]);
  };
  push_block(b);
  while (!stack.empty()) {
    const auto o = stack.back();
    stack.pop_back();
    out.push_back(o);
    std::vector<block_handle_t<G>> rs;
    for (auto&& r : ir::regions(g, o)) rs.push_back(r);
    for (std::size_t k = rs.size(); k-- > 0;) push_block(rs[k]);
  }
  return out;
}

template <class T>
const T& pick(std::mt19937& rng, const std::vector<T>& xs) {
  return xs[std::uniform_int_distribution<std::size_t>(0, xs.size() - 1)(rng)];
}

/// The values visible just before `o` in its block: earlier ops' results and the block's
/// arguments (not the enclosing blocks': enough to find a wrong value of the same type).
template <class G>
std::vector<value_handle_t<G>> visible_before(const G& g, op_handle_t<G> o) {
  std::vector<value_handle_t<G>> vs;
  for (auto&& a : ir_traits<G>::block_arguments(g, ir::block_of(g, o))) vs.push_back(a);
  for (auto p = ir::prev_op(g, o); !ir::is_null<G>(p); p = ir::prev_op(g, p))
    for (auto&& r : ir::results(g, p)) vs.push_back(r);
  return vs;
}

/// Sets one operand of one of `ops` to another visible value of the same type that stands for
/// another input value (by `res`). False when no op of `ops` has such an operand.
template <class G, class Resolver>
bool rewire_one(G& g, const std::vector<op_handle_t<G>>& ops, const Resolver& res, std::mt19937& rng) {
  using P = fault_primitives<G>;
  struct choice {
    op_handle_t<G> o;
    std::size_t k;
    value_handle_t<G> w;
  };
  std::vector<choice> cs;
  for (auto o : ops) {
    const auto vis = visible_before(g, o);
    std::size_t k = 0;
    for (auto&& v : ir::operands(g, o)) {
      for (const auto& w : vis)
        if (!(w == v) && P::same_type(g, w, v) && !(res(w) == res(v))) {
          cs.push_back({o, k, w});
          break;
        }
      ++k;
    }
  }
  if (cs.empty()) return false;
  const auto c = pick(rng, cs);
  P::set_operand(g, c.o, c.k, c.w);
  return true;
}

/// Exchanges the uses of two results of one of `groups` that have uses and stand for different
/// values. False when none has two such results.
template <class G, class Resolver>
bool swap_one(G& g, const std::vector<op_handle_t<G>>& groups, const Resolver& res, std::mt19937& rng) {
  using value = value_handle_t<G>;
  struct choice {
    value a, b;
  };
  std::vector<choice> cs;
  for (auto grp : groups) {
    if (ir::is_null<G>(grp)) continue;
    std::vector<value> rs;
    for (auto&& r : ir::results(g, grp)) rs.push_back(r);
    for (std::size_t i = 0; i < rs.size(); ++i)
      for (std::size_t j = i + 1; j < rs.size(); ++j) {
        const bool used = std::begin(ir::users(g, rs[i])) != std::end(ir::users(g, rs[i])) ||
                          std::begin(ir::users(g, rs[j])) != std::end(ir::users(g, rs[j]));
        if (used && !(res(rs[i]) == res(rs[j]))) cs.push_back({rs[i], rs[j]});
      }
  }
  if (cs.empty()) return false;
  const auto c = pick(rng, cs);
  struct use {
    op_handle_t<G> o;
    std::size_t k;
    value to;
  };
  std::vector<use> uses;
  std::unordered_set<op_handle_t<G>, handle_hash<op_handle_t<G>>> seen;
  for (const auto& [from, to] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}})
    for (auto&& u : ir::users(g, from)) {
      if (!seen.insert(u).second) continue;
      std::size_t k = 0;
      for (auto&& v : ir::operands(g, u)) {
        if (v == c.a) uses.push_back({u, k, c.b});
        if (v == c.b) uses.push_back({u, k, c.a});
        ++k;
      }
    }
  for (const auto& u : uses) fault_primitives<G>::set_operand(g, u.o, u.k, u.to);
  return true;
}

/// The op's results have uses.
template <class G>
bool used(const G& g, op_handle_t<G> o) {
  for (auto&& r : ir::results(g, o))
    if (std::begin(ir::users(g, r)) != std::end(ir::users(g, r))) return true;
  return false;
}

template <class G>
op_handle_t<G> last_op(const G& g, block_handle_t<G> b) {
  op_handle_t<G> last = ir::null_op<G>();
  for (auto&& o : ir::ops(g, b)) last = o;
  return last;
}

/// ScheduleFusion's faults (drop_op ... use_before_def), made after a correct plain apply.
template <class G>
bool inject_schedule(G& g, fault f, const schedule_fusion_snapshot<G>& snap, const std::vector<op_handle_t<G>>& groups,
                     std::mt19937& rng) {
  using op = op_handle_t<G>;
  const resolver<G> res(g, groups);
  std::vector<op> alive;
  std::unordered_set<op, handle_hash<op>> created(groups.begin(), groups.end());
  for (auto grp : groups)
    for (auto&& b : ir::regions(g, grp)) created.insert(last_op(g, b));
  for (const auto& r : snap.blocks.ops) alive.push_back(r.o);
  switch (f) {
    case fault::drop_op: {
      std::vector<op> cs;
      for (auto o : alive)
        if (!ir::is_terminator(g, o) && !used(g, o)) cs.push_back(o);
      if (cs.empty()) return false;
      ir::erase_op(g, pick(rng, cs));
      return true;
    }
    case fault::rewire_operand: return rewire_one(g, alive, res, rng);
    case fault::swap_results: return swap_one(g, groups, res, rng);
    case fault::move_unplanned: {
      std::vector<std::pair<op, op>> cs;
      for (std::size_t i = 0; i < snap.blocks.ops.size(); ++i) {
        const op o = snap.blocks.ops[i].o;
        if (snap.planned[i] || ir::is_terminator(g, o)) continue;
        const op n = ir::next_op(g, o);
        if (ir::is_null<G>(n) || ir::is_terminator(g, n) || created.count(n)) continue;
        const auto ni = snap.blocks.index.get(g, n);
        if (ni != validate_detail::npos32 && snap.planned[ni]) continue;
        std::vector<op> inside{n};
        for (auto&& rb : ir::regions(g, n))
          for (auto x : nested_ops(g, rb)) inside.push_back(x);
        bool uses = false;
        for (auto x : inside)
          for (auto&& v : ir::operands(g, x)) uses |= ir::defining_op(g, v) == o;
        if (!uses) cs.emplace_back(o, n);
      }
      if (cs.empty()) return false;
      const auto [o, n] = pick(rng, cs);
      ir::move_after(g, o, n);
      return true;
    }
    case fault::use_before_def: {
      std::vector<std::pair<op, op>> cs;
      for (auto o : alive) {
        if (ir::is_terminator(g, o)) continue;
        for (auto&& v : ir::operands(g, o)) {
          const op d = ir::defining_op(g, v);
          if (!ir::is_null<G>(d) && ir::block_of(g, d) == ir::block_of(g, o) && ir::is_before_in_block(g, d, o)) {
            cs.emplace_back(o, d);
            break;
          }
        }
      }
      if (cs.empty()) return false;
      const auto [o, d] = pick(rng, cs);
      ir::move_before(g, o, d);
      return true;
    }
    default: return false;
  }
}

/// FusionToComposite's faults (body_op_changed ... composite_swapped) on one lowering.
template <class G>
bool inject_composite(G& g, fault f, const applied_conversion<op_handle_t<G>>& made, std::mt19937& rng) {
  using op = op_handle_t<G>;
  const resolver<G> res(g, {});
  std::vector<op> body, changeable;
  for (auto&& b : ir::regions(g, made.decomposition)) {
    const op term = last_op(g, b);
    for (auto o : nested_ops(g, b)) {
      body.push_back(o);
      if (!(o == term)) changeable.push_back(o);
    }
  }
  switch (f) {
    case fault::body_op_changed:
      if (changeable.empty()) return false;
      fault_primitives<G>::alter(g, pick(rng, changeable));
      return true;
    case fault::body_rewired: return rewire_one(g, body, res, rng);
    case fault::composite_rewired: return rewire_one(g, std::vector<op>{made.composite}, res, rng);
    case fault::composite_swapped: return swap_one(g, std::vector<op>{made.composite}, res, rng);
    default: return false;
  }
}

/// One ScheduleFusion fault on `g`: plan, snapshot, apply, fault, check. Nullopt when the plan
/// has no cluster or the fault has nothing to act on.
template <class G, class Printer>
std::optional<rewrite_check<op_handle_t<G>>> schedule_fault_check(G& g, fault f, std::mt19937& rng, Printer&& printer) {
  const auto plan = plan_schedule_fusion(std::as_const(g));
  if (plan.clusters.empty()) return std::nullopt;
  const auto snap = snapshot_schedule_fusion(std::as_const(g), plan);
  const auto groups = apply(g, plan);
  if (!inject_schedule(g, f, snap, groups, rng)) return std::nullopt;
  return check_schedule_fusion(std::as_const(g), plan, snap, groups, printer);
}

/// One FusionToComposite fault on `g`: ScheduleFusion first (more fusions), the conversions
/// before a random one lowered, then that one, faulted and checked. Nullopt when there is no
/// conversion or the fault has nothing to act on.
template <class G, class Printer>
std::optional<rewrite_check<op_handle_t<G>>> composite_fault_check(G& g, fault f, std::mt19937& rng, Printer&& printer) {
  apply(g, plan_schedule_fusion(std::as_const(g)));
  const auto plan = plan_fusion_to_composite(std::as_const(g));
  if (plan.conversions.empty() || !plan.ok()) return std::nullopt;
  const std::size_t k = std::uniform_int_distribution<std::size_t>(0, plan.conversions.size() - 1)(rng);
  txn_detail::unchecked_steps steps;
  lower_to_composites(g, std::span(plan.conversions.data(), k), plan.composite_op_name, steps);
  const auto& rec = plan.conversions[k];
  const auto snap = snapshot_composite(std::as_const(g), rec);
  const auto made = lower_to_composites(g, std::span(&rec, 1), plan.composite_op_name, steps);
  if (made.size() != 1 || !inject_composite(g, f, made[0], rng)) return std::nullopt;
  rewrite_check<op_handle_t<G>> c;
  check_composite(std::as_const(g), rec, snap, made[0], printer, c);
  return c;
}

/// The check's codes, in order, one per line: what two IRs' verdicts are compared by.
template <class Op>
std::string codes(const rewrite_check<Op>& c) {
  std::string s;
  for (const auto& m : c.mismatches) s += std::string(neuronrw::to_string(m.code)) + "\n";
  return s;
}

}  // namespace fault_injection
