// A kind served by two handlers is ambiguous and does not compile.
// expected-error: two handlers for the kind spelled in this error's template arguments
// expected-error: neuronrw::error::two_handlers_for_kind<'L', 'o', 'g', '1', 'p'>
#include <neuronrw/descriptors/kind_registry.hpp>

#include <string_view>

using neuronrw::on;

int emit(std::string_view kind) {
  const auto consumer = neuronrw::handlers(
      on<"ScheduleFusion", "MulRedSqrt", "DotLogistic">([](auto) { return 1; }),
#ifndef NEURONRW_COMPILE_FAIL_CONTROL
      on<"Log1p">([](auto) { return 2; }),
#endif
      neuronrw::on_arbitrary_composite([](std::string_view) { return 4; }));
  return neuronrw::composite_op_registry::dispatch(kind, consumer, [](std::string_view) { return -1; });
}
