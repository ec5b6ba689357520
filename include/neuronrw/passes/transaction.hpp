// neuronrw/passes/transaction.hpp — transactional applies: a mutation gate consulted before every
// mutation step of a pass's apply, and the status a gated apply returns. A gated apply either
// performs every step or, when the gate refuses step k, rolls the IR back to exactly what it was
// (docs/concepts.md §"O5: transactions").
//
//   auto st = neuronrw::apply(g, plan, neuronrw::fail_at_step{3});   // gated overload
//   if (!st.ok()) { /* st.step == 3, st.reason says why; g prints as before */ }
//
// The gate is any callable `bool(std::size_t step)`, steps counted from 0 in the order the apply
// performs them; `false` refuses that step. Uses: fault injection in tests (fail_at_step), a
// budget (step_budget), cancellation, or bisecting a miscompile step by step as LLVM's
// -debug-counter does. The gate-less apply of every pass is unchanged and pays nothing.
//
// What a step is: one call of a mutating IR primitive (ir_traits requirement 13, 14, 19, 20, 21;
// host_traits requirement 15, 16, 17). Everything a step needs is checked before the first one
// (the plan has no refusals; FusionToComposite: the decomposition names are free), so without a
// gate no step can fail and the plain apply needs no rollback.
//
// Customization points: the gate (callable); the IR's transaction (O5: ir_traits<G> or
// host_traits<P> begin_transaction / commit / rollback, concepts/ir.hpp, concepts/host.hpp).
// Generic: includes nothing concrete; no exceptions, no RTTI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace neuronrw {

/// A gate that lets every step proceed (what the gate-less applies amount to).
struct allow_all_steps {
  constexpr bool operator()(std::size_t) const noexcept { return true; }
};

/// A gate that refuses exactly step `step` (fault injection).
struct fail_at_step {
  std::size_t step = 0;
  constexpr bool operator()(std::size_t s) const noexcept { return s != step; }
};

/// A gate that allows the first `steps` steps and refuses the next one (a budget).
struct step_budget {
  std::size_t steps = 0;
  constexpr bool operator()(std::size_t s) const noexcept { return s < steps; }
};

/// A callable asked before each mutation step: true = go on.
template <class F>
concept mutation_gate = std::is_invocable_r_v<bool, F&, std::size_t>;

enum class apply_status_code : std::uint8_t {
  ok,            ///< every step performed and kept
  gate_refused,  ///< the gate refused step `step`; the IR was rolled back
  invalid_plan,  ///< the plan cannot apply to this IR; refused before the first mutation
};

constexpr std::string_view to_string(apply_status_code c) noexcept {
  switch (c) {
    case apply_status_code::ok: return "ok";
    case apply_status_code::gate_refused: return "gate_refused";
    case apply_status_code::invalid_plan: return "invalid_plan";
  }
  return "unknown";
}

/// What a gated apply did.
struct apply_status {
  apply_status_code code = apply_status_code::ok;
  /// ok: the number of steps performed; gate_refused: the refused step (also the number of steps
  /// performed, then rolled back); invalid_plan: 0.
  std::size_t step = 0;
  /// The primitive of the refused step ("move_before", "group_ops", ...); empty when ok.
  std::string_view primitive;
  /// Why, in words; empty when ok.
  std::string reason;

  bool ok() const noexcept { return code == apply_status_code::ok; }
};

namespace txn_detail {

/// The steps of a gate-less apply: every step proceeds; compiles to nothing.
struct unchecked_steps {
  static constexpr bool next(std::string_view) noexcept { return true; }
};

/// Counts the steps of a gated apply and asks the gate before each.
template <class Gate>
class gated_steps {
 public:
  explicit gated_steps(Gate& gate) : gate_(gate) {}
  /// True when step `count()` may proceed (it is counted); false once the gate refused one.
  bool next(std::string_view primitive) {
    if (refused_) return false;
    if (!gate_(count_)) {
      refused_ = true;
      primitive_ = primitive;
      return false;
    }
    ++count_;
    return true;
  }
  bool refused() const noexcept { return refused_; }
  std::size_t count() const noexcept { return count_; }
  /// The status of the finished apply.
  apply_status status() const {
    if (!refused_) return {apply_status_code::ok, count_, {}, {}};
    return {apply_status_code::gate_refused, count_, primitive_,
            "the mutation gate refused step " + std::to_string(count_) + " (" + std::string(primitive_) +
                "); the IR was rolled back"};
  }

 private:
  Gate& gate_;
  std::size_t count_ = 0;
  bool refused_ = false;
  std::string_view primitive_;
};

/// Runs `body(steps)` inside a transaction of Traits on `g`: commits when every step proceeded,
/// rolls back when the gate refused one. Returns the status.
template <class Traits, class G, class Gate, class Body>
apply_status run_transaction(G& g, Gate& gate, Body&& body) {
  gated_steps<Gate> steps(gate);
  auto token = Traits::begin_transaction(g);
  std::forward<Body>(body)(steps);
  if (steps.refused())
    Traits::rollback(g, token);
  else
    Traits::commit(g, token);
  return steps.status();
}

inline apply_status invalid_plan(std::string reason) {
  return {apply_status_code::invalid_plan, 0, {}, std::move(reason)};
}

}  // namespace txn_detail

}  // namespace neuronrw
