// Dispatch over a registry with no handler for one of its kinds does not compile; the error
// spells the kind (MulRedSqrt) on every compiler.
// expected-error: neuronrw::kind_registry::dispatch: no handler for the kind spelled in this error's template arguments
// expected-error: neuronrw::error::no_handler_for_kind<'M', 'u', 'l', 'R', 'e', 'd', 'S', 'q', 'r', 't'>
#include <neuronrw/descriptors/kind_registry.hpp>

#include <string_view>

using neuronrw::on;

int emit(std::string_view kind) {
  const auto consumer = neuronrw::handlers(
      on<"ScheduleFusion">([](auto) { return 1; }),
#ifdef NEURONRW_COMPILE_FAIL_CONTROL
      on<"MulRedSqrt">([](auto) { return 2; }),
#endif
      on<"DotLogistic">([](auto) { return 3; }),
      neuronrw::on_arbitrary_composite([](std::string_view) { return 4; }));
  return neuronrw::composite_op_registry::dispatch(kind, consumer, [](std::string_view) { return -1; });
}
