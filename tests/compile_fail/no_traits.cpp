// An IR with no ir_traits specialization, handed to an algorithm.
#include <neuronrw/algorithms/ancestry.hpp>

struct my_ir {};

#ifdef NEURONRW_COMPILE_FAIL_CONTROL
int main() {}
#else
// expected-error: neuronrw: this IR has no neuronrw::ir_traits specialization. Fix: specialize `template <> struct neuronrw::ir_traits<YourIR>` (see docs/concepts.md)
static_assert(neuronrw::require_read_ir<my_ir>());
int main() {}
#endif
