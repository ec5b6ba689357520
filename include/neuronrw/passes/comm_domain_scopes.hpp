// neuronrw/passes/comm_domain_scopes.hpp — MaterializeCommDomainScopes (docs/host-programs.md): find
// the window-buffer allocations of every host orchestrator, infer from the chip dispatches which
// devices use each one, build one WindowBuffer per allocation, re-type its views, and group the
// allocations into comm-domain scopes wrapped around the function body.
//
// The pass in pieces, each with one responsibility:
//   comm_domain_scopes/collective_spec.hpp    how the pass sees a collective (collective_spec)
//   comm_domain_scopes/pypto_collectives.hpp  pypto's collectives and queries, as data: the
//                                             options' defaults, not known to the analysis
//   comm_domain_scopes/options.hpp            comm_domain_options and its schema
//   comm_domain_scopes/plan.hpp               the plan and the refusal codes (plain data)
//   comm_domain_scopes/analysis.hpp           plan_comm_domain_scopes, over the analysis's
//                                             phases: refusal_log.hpp, function_facts.hpp,
//                                             collect.hpp, device_inference.hpp, grouping.hpp
//   comm_domain_scopes/apply.hpp              apply_comm_domain_scopes (also gated),
//                                             apply_comm_domain_function
//   comm_domain_scopes/describe.hpp           describe_plan / describe(p, plan): the dry run's
//                                             text; refusal_words
//   comm_domain_scopes/pass.hpp               materialize_comm_domain_scopes, and the descriptor
//                                             passes::materialize_comm_domain_scopes
//
// Customization points:
//   - the program: any `rewritable_host_program` (neuronrw/concepts/host.hpp);
//   - `comm_domain_options`: the level / role / op / attribute names and the collective table, for
//     a dialect that spells them differently (defaults: pypto's).
// Plan/apply split: `plan_comm_domain_scopes` only reads the program and returns a plain plan
// (allocations, views, dispatches with their device descriptors, merged coverage, scopes) or the
// refusals; `apply_comm_domain_scopes` materializes a plan that has no refusals;
// `materialize_comm_domain_scopes` does both and leaves the program untouched on any error.
// `describe_plan` (or the protocol's `describe(p, plan)`) prints a plan (a dry run); every
// plan models pass_plan (passes/protocol.hpp): refusals carry a comm_domain_refusal_code, and
// read as pypto's located errors through plan.errors() or to_diagnostics(p, plan)
// (passes/diagnostics.hpp, which adds the code: `PYPTO MESSAGE [CODE]`).
#pragma once

#include <neuronrw/passes/comm_domain_scopes/analysis.hpp>
#include <neuronrw/passes/comm_domain_scopes/apply.hpp>
#include <neuronrw/passes/comm_domain_scopes/checked.hpp>
#include <neuronrw/passes/comm_domain_scopes/collective_spec.hpp>
#include <neuronrw/passes/comm_domain_scopes/describe.hpp>
#include <neuronrw/passes/comm_domain_scopes/options.hpp>
#include <neuronrw/passes/comm_domain_scopes/pass.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>
#include <neuronrw/passes/comm_domain_scopes/pypto_collectives.hpp>
