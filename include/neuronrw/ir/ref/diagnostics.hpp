// neuronrw/ir/ref/diagnostics.hpp — where the reference IR's ops are, for the diagnostics the
// passes make of their refusals (to_diagnostics, neuronrw/passes/diagnostics.hpp):
//
//   auto ds = to_diagnostics(m, plan, ref::op_locator{m});   // neuronrw::diagnostics
//
// Customization points: none.
#pragma once

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/passes/diagnostics.hpp>

namespace neuronrw::ref {

/// to_diagnostics' `locate` on the reference IR: an op's location (its line and column in the
/// text it was parsed from) in `m.source_name`; an unknown location for the null op. Refers to
/// `m`, which must outlive it.
class op_locator {
 public:
  explicit op_locator(const module& m) noexcept : m_(&m) {}
  diagnostic_location<source_loc> operator()(op_ref op) const {
    return {m_->source_name, op.valid() ? m_->loc(op) : source_loc{}};
  }

 private:
  const module* m_;
};

}  // namespace neuronrw::ref
