// tests/validate/ref_fault_primitives.hpp — the fault injector's primitives
// (tests/validate/fault_injector.hpp) on the reference IR.
#pragma once

#include <cstddef>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "validate/fault_injector.hpp"

template <>
struct fault_injection::fault_primitives<neuronrw::ref::module> {
  using M = neuronrw::ref::module;
  static void set_operand(M& m, neuronrw::ref::op_ref o, std::size_t k, neuronrw::ref::value_ref v) {
    std::vector<neuronrw::ref::value_ref> vs(m.operands(o).begin(), m.operands(o).end());
    vs[k] = v;
    m.set_operands(o, vs);
  }
  static bool same_type(const M& m, neuronrw::ref::value_ref a, neuronrw::ref::value_ref b) { return m.type(a) == m.type(b); }
  static void alter(M& m, neuronrw::ref::op_ref o) { m.set_attribute(o, "neuronrw.fault", "1 : i64"); }
};
