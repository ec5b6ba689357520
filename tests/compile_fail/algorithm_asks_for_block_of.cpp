// An algorithm, not only a require_* function, reports the first missing requirement: here
// ancestor_in_block on an IR that has the parent chain (op_handle, null_op, parent_op) and
// nothing else, not even block_of. With block_of (CONTROL) that IR is all it needs.
#include <neuronrw/algorithms/ancestry.hpp>

#include "archetype/archetype_ir.hpp"

namespace a = neuronrw::archetype;
constexpr unsigned unused = a::ir_req::has_value_handle | a::ir_req::handles_regular | a::ir_req::has_kind |
                            a::ir_req::has_operands | a::ir_req::has_defining_op | a::ir_req::has_users |
                            a::ir_req::has_results | a::ir_req::has_block_ops | a::ir_req::has_is_before |
                            a::ir_req::has_next_prev | a::ir_req::has_regions;
#ifdef NEURONRW_COMPILE_FAIL_CONTROL
using G = a::ir_at<a::layer::ordered, unused>;
#else
using G = a::ir_at<a::layer::ordered, unused | a::ir_req::has_block>;
#endif

// expected-error: neuronrw ancestor_in_block needs ordered_ir requirement 9 (and no other ordered_ir requirement)
int main() {
  G g;
  auto [f, body] = g.add_function("f", {});
  const auto op = g.add(body, "foo.op", {});
  return neuronrw::ancestor_in_block(g, op, a::block_h{body}) == op ? 0 : 1;
}
