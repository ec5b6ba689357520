// A handler keyed by a name outside the registry (a typo) does not compile.
// expected-error: a handler is keyed by the name spelled in this error's template arguments, which is not a kind of the registry
// expected-error: neuronrw::error::handler_for_kind_not_in_registry<'E', 'x', 'm', 'p', '1'>
#include <neuronrw/descriptors/kind_registry.hpp>

#include <string_view>

using neuronrw::on;

int emit(std::string_view kind) {
  const auto consumer = neuronrw::handlers(
      on<"ScheduleFusion", "MulRedSqrt", "DotLogistic", "DotSoftmax", "Log1p", "Elementwise">(
          [](auto) { return 1; }),
#ifndef NEURONRW_COMPILE_FAIL_CONTROL
      on<"Exmp1">([](auto) { return 2; }));
#else
      on<"Expm1">([](auto) { return 2; }));
#endif
  return neuronrw::fusion_op_registry::dispatch(kind, consumer, [](std::string_view) { return -1; });
}
