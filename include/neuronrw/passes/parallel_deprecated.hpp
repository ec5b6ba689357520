// neuronrw/passes/parallel_deprecated.hpp — the parallel entry points of 0.1 (one per pass and
// flavour), kept for one release as deprecated forwarders to the generic driver
// (passes/parallel.hpp). Each says what to call instead; CHANGELOG lists them old → new. Include
// this header where code still calls them; it is removed in the next release.
#pragma once

#include <utility>
#include <vector>

#include <neuronrw/detail/ranges.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/parallel.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace neuronrw {

namespace parallel_deprecated_detail {
template <class B, class Roots>
std::vector<root_block<B>> wrap_roots(Roots&& roots) {
  std::vector<root_block<B>> out;
  for (auto&& b : roots) out.push_back({b});
  return out;
}
}  // namespace parallel_deprecated_detail

template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
[[deprecated("use neuronrw::plan_pass_parallel<neuronrw::passes::basic_schedule_fusion<Pattern>>(g, options, popt)")]]
schedule_fusion_plan_t<G> plan_schedule_fusion_parallel(const G& g, const schedule_fusion_options& opt = {},
                                                        const parallel_options& popt = {}) {
  return plan_pass_parallel<passes::basic_schedule_fusion<Pattern>>(g, opt, popt);
}

template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G, class Roots>
  requires std::ranges::input_range<Roots> &&
           std::convertible_to<std::ranges::range_value_t<Roots>, block_handle_t<G>>
[[deprecated("use neuronrw::plan_pass_parallel<neuronrw::passes::basic_schedule_fusion<Pattern>>(g, root_blocks, "
             "options, popt) with root_block{b} units")]]
schedule_fusion_plan_t<G> plan_schedule_fusion_parallel(const G& g, Roots&& roots, const schedule_fusion_options& opt = {},
                                                        const parallel_options& popt = {}) {
  return plan_pass_parallel<passes::basic_schedule_fusion<Pattern>>(
      g, parallel_deprecated_detail::wrap_roots<block_handle_t<G>>(roots), opt, popt);
}

template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
[[deprecated("use neuronrw::plan_pass_parallel<neuronrw::passes::basic_schedule_fusion<Pattern, true>>(g, options, "
             "popt)")]]
schedule_fusion_plan_t<G> plan_schedule_fusion_composites_parallel(const G& g, const schedule_fusion_options& opt = {},
                                                                   const parallel_options& popt = {}) {
  return plan_pass_parallel<passes::basic_schedule_fusion<Pattern, true>>(g, opt, popt);
}

template <class G>
[[deprecated("use neuronrw::apply_pass_parallel<neuronrw::passes::schedule_fusion>(g, plan, popt)")]]
std::vector<op_handle_t<G>> apply_schedule_fusion_parallel(G& g, const schedule_fusion_plan_t<G>& plan,
                                                           const parallel_options& popt = {}) {
  return apply_pass_parallel<passes::schedule_fusion>(g, plan, popt);
}

template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
[[deprecated("use neuronrw::run_pass_parallel<neuronrw::passes::basic_schedule_fusion<Pattern>>(g, options, popt)")]]
schedule_fusion_plan_t<G> schedule_fusion_parallel(G& g, const schedule_fusion_options& opt = {},
                                                   const parallel_options& popt = {}) {
  return run_pass_parallel<passes::basic_schedule_fusion<Pattern>>(g, opt, popt);
}

template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G, class Roots>
  requires std::ranges::input_range<Roots> &&
           std::convertible_to<std::ranges::range_value_t<Roots>, block_handle_t<G>>
[[deprecated("use neuronrw::run_pass_parallel<neuronrw::passes::basic_schedule_fusion<Pattern>>(g, root_blocks, "
             "options, popt) with root_block{b} units")]]
schedule_fusion_plan_t<G> schedule_fusion_parallel(G& g, Roots&& roots, const schedule_fusion_options& opt = {},
                                                   const parallel_options& popt = {}) {
  return run_pass_parallel<passes::basic_schedule_fusion<Pattern>>(
      g, parallel_deprecated_detail::wrap_roots<block_handle_t<G>>(roots), opt, popt);
}

template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
[[deprecated("use neuronrw::run_pass_parallel<neuronrw::passes::basic_schedule_fusion<Pattern, true>>(g, options, "
             "popt)")]]
schedule_fusion_plan_t<G> schedule_fusion_composites_parallel(G& g, const schedule_fusion_options& opt = {},
                                                              const parallel_options& popt = {}) {
  return run_pass_parallel<passes::basic_schedule_fusion<Pattern, true>>(g, opt, popt);
}

template <class Registry = fusion_op_registry, class G>
[[deprecated("use neuronrw::plan_pass_parallel<neuronrw::passes::basic_fusion_to_composite<Registry>>(g, options, "
             "popt)")]]
fusion_to_composite_plan<op_handle_t<G>> plan_fusion_to_composite_parallel(const G& g,
                                                                           const fusion_to_composite_options& opt = {},
                                                                           const parallel_options& popt = {}) {
  return plan_pass_parallel<passes::basic_fusion_to_composite<Registry>>(g, opt, popt);
}

template <class Registry = fusion_op_registry, class G>
[[deprecated("use neuronrw::run_pass_parallel<neuronrw::passes::basic_fusion_to_composite<Registry>>(g, options, "
             "popt)")]]
fusion_to_composite_plan<op_handle_t<G>> fusion_to_composite_parallel(G& g, const fusion_to_composite_options& opt = {},
                                                                      const parallel_options& popt = {}) {
  return run_pass_parallel<passes::basic_fusion_to_composite<Registry>>(g, opt, popt);
}

template <class P>
[[deprecated("use neuronrw::plan_pass_parallel<neuronrw::passes::materialize_comm_domain_scopes>(p, options, popt)")]]
comm_domain_plan<P> plan_comm_domain_scopes_parallel(const P& p, const comm_domain_options& opts = {},
                                                     const parallel_options& popt = {}) {
  return plan_pass_parallel<passes::materialize_comm_domain_scopes>(p, opts, popt);
}

template <class P>
[[deprecated("use neuronrw::apply_pass_parallel<neuronrw::passes::materialize_comm_domain_scopes>(p, plan, popt)")]]
void apply_comm_domain_scopes_parallel(P& p, const comm_domain_plan<P>& plan, const parallel_options& popt = {}) {
  apply_pass_parallel<passes::materialize_comm_domain_scopes>(p, plan, popt);
}

template <class P>
[[deprecated("use neuronrw::run_pass_parallel<neuronrw::passes::materialize_comm_domain_scopes>(p, options, popt) "
             "and the plan's errors()")]]
diagnostics materialize_comm_domain_scopes_parallel(P& p, const comm_domain_options& opts = {},
                                                    const parallel_options& popt = {}) {
  auto plan = run_pass_parallel<passes::materialize_comm_domain_scopes>(p, opts, popt);
  if (!plan.ok()) return plan.errors();
  return {};
}

}  // namespace neuronrw
