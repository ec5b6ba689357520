// neuronrw/passes/schedule_fusion/instantiate.hpp — ScheduleFusion compiled once per IR instead of
// in every translation unit that runs it: an explicit instantiation declaration for the TUs that
// call the pass, and the matching definition for one TU of the project (the split LLVM makes with
// its explicit instantiations, and header-only libraries such as spdlog offer as a "compiled"
// mode). Opt-in: without these macros nothing changes, and every TU instantiates what it calls.
//
//   // in every TU that runs the pass, after the IR's traits (for MLIR: the adapter's
//   // traits.hpp), at global scope:
//   NEURONRW_EXTERN_SCHEDULE_FUSION(neuronrw::mlir_adapter::ir);
//
//   // in exactly one .cpp of the program, after the same traits, at global scope:
//   NEURONRW_INSTANTIATE_SCHEDULE_FUSION(neuronrw::mlir_adapter::ir);
//
// (docs/schedule-fusion.md §"Compiling it once" has both files in full, on the reference IR.)
//
// What they cover (the entry points that route through the two instantiated templates):
// plan_schedule_fusion(g[, options]), plan_schedule_fusion_composites(g[, options]),
// schedule_fusion(g[, options]), schedule_fusion_composites(g[, options]) and the plain
// apply(g, plan). Those TUs then instantiate only the thin wrappers; the planner, the dependence
// walk, the convexity check, the repairs and the apply's mutations are compiled in the one TU.
// Not covered (instantiated where called, as before): the overloads over explicit roots, the gated
// apply(g, plan, gate), apply_checked, describe, and the pass descriptors of pass.hpp
// (passes::schedule_fusion, the MLIR adapter's schedule_fusion_pass), which drive the planner
// class function by function.
//
// Three pairs (EXTERN in the callers' TUs, INSTANTIATE in one): _PLAN(PATTERN, IR) the planner of
// one pattern, _APPLY(IR) the apply (one per IR: it does not depend on the plan's pattern), and
// NEURONRW_*_SCHEDULE_FUSION(IR), both for ScheduleFusion's own pattern. Each argument is one
// macro argument, so a type with a comma at its top level is passed through an alias. The IR must
// list its functions (outlinable_ir requirement 16, what plan_schedule_fusion(g) needs); the macros
// say so with a static_assert otherwise.
// Rules (those of explicit instantiation): the macros appear at global scope (they open namespace
// neuronrw, where the templates are declared; name the types so they resolve from there, e.g. with
// a leading ::); an EXTERN comes before the first call in its TU; each INSTANTIATE appears once in
// the program (twice in one TU is a compile error; another TU's implicit instantiation of the same
// template is harmless). NEURONRW_CHECK_REWRITES is defined alike in the TUs that share an
// instance, as in any two TUs of a program: apply's body depends on it, and the instance TU's
// choice is the one the others run.
//
// Cost: docs/performance.md §"Compile cost of including neuronrw" measures a minimal MLIR pass TU
// with and without the declaration (bench/compile_cost.py, rows bm_compile_mlir_pass_extern*).
//
// Customization points: none (the IR's and the pattern's, as for the pass).
#pragma once

#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/schedule_fusion/apply.hpp>
#include <neuronrw/passes/schedule_fusion/pattern.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>
#include <neuronrw/passes/schedule_fusion/planner.hpp>

/// The explicit instantiation of the planner of PATTERN over IR, prefixed by PREFIX (`extern`, or
/// nothing for the definition), in namespace neuronrw (where the template is declared); the last
/// static_assert takes the `;` after the macro.
#define NEURONRW_SCHEDULE_FUSION_PLAN_INSTANCE_(PREFIX, PATTERN, IR)                                          \
  static_assert(::neuronrw::sf_detail::has_functions<IR>,                                                  \
                "neuronrw: NEURONRW_*_SCHEDULE_FUSION needs an IR that lists its functions (ir_traits<G>::" \
                "functions, outlinable_ir requirement 16), what plan_schedule_fusion(g) plans over");      \
  namespace neuronrw {                                                                                     \
  PREFIX template schedule_fusion_plan_t<IR> sf_detail::plan_functions<PATTERN, IR>(                        \
      const IR&, const schedule_fusion_options&, bool);                                                    \
  }                                                                                                        \
  static_assert(true, "")
/// The same for apply(g, plan) over IR (one per IR: the plan does not depend on the pattern's type).
#define NEURONRW_SCHEDULE_FUSION_APPLY_INSTANCE_(PREFIX, IR)                                                  \
  namespace neuronrw {                                                                                     \
  PREFIX template std::vector<op_handle_t<IR>> apply<IR>(IR&, const schedule_fusion_plan_t<IR>&);           \
  }                                                                                                        \
  static_assert(true, "")

/// The planner of one pattern over IR: plan_schedule_fusion<PATTERN>(g[, options]) and
/// plan_schedule_fusion_composites<PATTERN>(g[, options]), and the plan half of schedule_fusion[_composites].
#define NEURONRW_EXTERN_SCHEDULE_FUSION_PLAN(PATTERN, IR) NEURONRW_SCHEDULE_FUSION_PLAN_INSTANCE_(extern, PATTERN, IR)
#define NEURONRW_INSTANTIATE_SCHEDULE_FUSION_PLAN(PATTERN, IR) NEURONRW_SCHEDULE_FUSION_PLAN_INSTANCE_(, PATTERN, IR)
/// apply(g, plan) over IR, whatever the pattern of the plan.
#define NEURONRW_EXTERN_SCHEDULE_FUSION_APPLY(IR) NEURONRW_SCHEDULE_FUSION_APPLY_INSTANCE_(extern, IR)
#define NEURONRW_INSTANTIATE_SCHEDULE_FUSION_APPLY(IR) NEURONRW_SCHEDULE_FUSION_APPLY_INSTANCE_(, IR)
/// Both for ScheduleFusion's own pattern (schedule_fusion_pattern, every entry point's default):
/// the one line most programs need.
#define NEURONRW_EXTERN_SCHEDULE_FUSION(IR)                                   \
  NEURONRW_EXTERN_SCHEDULE_FUSION_PLAN(::neuronrw::schedule_fusion_pattern, IR); \
  NEURONRW_EXTERN_SCHEDULE_FUSION_APPLY(IR)
#define NEURONRW_INSTANTIATE_SCHEDULE_FUSION(IR)                                   \
  NEURONRW_INSTANTIATE_SCHEDULE_FUSION_PLAN(::neuronrw::schedule_fusion_pattern, IR); \
  NEURONRW_INSTANTIATE_SCHEDULE_FUSION_APPLY(IR)
