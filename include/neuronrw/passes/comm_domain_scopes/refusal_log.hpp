// neuronrw/passes/comm_domain_scopes/refusal_log.hpp — the analysis's bookkeeping: the plan being
// built and what goes into it besides the functions — refusals (worded as pypto words them),
// remarks where this pass answers differently from pypto, and the unmodeled communication APIs
// let through — and whether the function being analyzed has failed so far.
//
// Internal to MaterializeCommDomainScopes (comm_domain_detail); the analysis (analysis.hpp) owns
// one, its phases report through it.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>

namespace neuronrw::comm_domain_detail {

template <class P>
class plan_recorder {
 public:
  using plan_t = comm_domain_plan<P>;
  using expr_t = host_expr_t<P>;

  /// `file`: the program's source_file, where the plan's locations point.
  explicit plan_recorder(std::string file) : file_(std::move(file)) {}

  /// Starts an empty plan (of the whole program, or of one function's part).
  void start_plan() {
    plan_ = plan_t{};
    plan_.file = file_;
  }
  /// The plan built since start_plan.
  plan_t take_plan() { return std::move(plan_); }
  void add_function(typename plan_t::function_plan&& fp) { plan_.functions.push_back(std::move(fp)); }

  /// Starts a function: failed() says whether it has been refused since.
  void start_function() { refused_at_start_ = plan_.refused.size(); }
  bool failed() const { return plan_.refused.size() != refused_at_start_; }

  /// `msg` is pypto's text without its prefix; `prefixed` false for the few checks pypto words
  /// without one (its CHECK_SPANs that are not INTERNAL_CHECK_SPANs).
  void error(comm_domain_refusal_code code, expr_t concerned, source_loc loc, std::string msg, bool prefixed = true) {
    typename plan_t::refusal_record r;
    r.code = code;
    r.op = concerned;
    r.message = std::move(msg);
    r.loc = loc;
    r.prefixed = prefixed;
    plan_.refused.push_back(std::move(r));
  }
  /// Where this pass answers differently from pypto on purpose (plan::remarks).
  void remark(source_loc loc, std::string msg) {
    plan_.remarks.push_back({file_, loc, "MaterializeCommDomainScopes: " + std::move(msg), severity::remark});
  }
  /// A communication API the pass does not model, let through (allow_unmodeled_comm_apis).
  void unmodeled(std::string op, source_loc loc) { plan_.unmodeled.emplace_back(std::move(op), loc); }

 private:
  std::string file_;
  plan_t plan_;
  std::size_t refused_at_start_ = 0;
};

}  // namespace neuronrw::comm_domain_detail
