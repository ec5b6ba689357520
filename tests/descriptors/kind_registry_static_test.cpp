// Static tests for neuronrw/descriptors/kind_registry.hpp: the seed's registries, derived
// registries, list styles, compile-time lookup, the consumer mapping and constexpr dispatch.
#include <neuronrw/descriptors/kind_registry.hpp>

#include <optional>
#include <string_view>
#include <type_traits>

namespace {

using namespace std::string_view_literals;
using neuronrw::composite_emitter;
using neuronrw::composite_op_registry;
using neuronrw::fusion_op_registry;
using neuronrw::handlers;
using neuronrw::kind_registry;
using neuronrw::list_style;
using neuronrw::on;

// The seed's two orders of the same seven kinds.
static_assert(fusion_op_registry::size() == 7 && composite_op_registry::size() == 7);
static_assert(fusion_op_registry::kind_list() ==
              "ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax");
static_assert(composite_op_registry::kind_list() ==
              "ScheduleFusion, MulRedSqrt, DotLogistic, Expm1, Log1p, Elementwise, and DotSoftmax");
static_assert(fusion_op_registry::index_v<"Elementwise"> == 3);
static_assert(composite_op_registry::index_v<"Elementwise"> == 5);
static_assert(composite_op_registry::index_v<"ScheduleFusion"> == 0);
static_assert(composite_op_registry::contains_v<"DotSoftmax">);
static_assert(!composite_op_registry::contains_v<"FusedComposite">);
static_assert(composite_op_registry::index_of("Log1p") == std::optional<std::size_t>{4});
static_assert(!composite_op_registry::index_of("log1p"));  // names are case-sensitive
static_assert(!composite_op_registry::contains("FusedComposite"));
static_assert(composite_op_registry::name(6) == "DotSoftmax");

// The kind a handler receives is a kind tag carrying its position.
using expm1_kind = composite_op_registry::kind_at<3>;
static_assert(expm1_kind::name == "Expm1"sv && expm1_kind::index == 3);
static_assert(expm1_kind::id == neuronrw::kind_id_of("Expm1"));
static_assert(neuronrw::kind_tag_type<expm1_kind>);

// List styles: plain commas; serial "and" (with the two-item special case).
template <list_style S, neuronrw::fixed_string... N>
using reg = kind_registry<"<{}>[{}]", S, N...>;
static_assert(reg<list_style::comma>::kind_list().empty());
static_assert(reg<list_style::comma_and, "A">::kind_list() == "A");
static_assert(reg<list_style::comma_and, "A", "B">::kind_list() == "A and B");
static_assert(reg<list_style::comma, "A", "B">::kind_list() == "A, B");
static_assert(reg<list_style::comma_and, "A", "B", "C">::kind_list() == "A, B, and C");

// Derived registries: add a kind (keeps the diagnostic), or change the diagnostic.
using extended = composite_op_registry::with_kinds<"RmsNorm">;
static_assert(extended::size() == 8 && extended::index_v<"RmsNorm"> == 7);
static_assert(extended::kind_list() ==
              "ScheduleFusion, MulRedSqrt, DotLogistic, Expm1, Log1p, Elementwise, DotSoftmax, and RmsNorm");
using restyled = fusion_op_registry::with_diagnostic<"unknown '{}' (known: {})", list_style::comma_and>;
static_assert(restyled::kind_list() ==
              "ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, and DotSoftmax");

// Above eight kinds the index is hashed; answers are unchanged.
using many = reg<list_style::comma, "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9",
                 "k10", "k11", "k12">;
static_assert(many::index_v<"k12"> == 12 && many::index_of("k7") == std::optional<std::size_t>{7});
static_assert(!many::contains("k13"));

// The consumer mapping (seed §"The fusion-name registry").
static_assert(neuronrw::composite_route_of("Expm1")->emitter == composite_emitter::arbitrary);
static_assert(neuronrw::composite_route_of("Expm1")->emitted_kind == "Elementwise");
static_assert(neuronrw::composite_route_of("Log1p")->emitted_kind == "Elementwise");
static_assert(neuronrw::composite_route_of("Elementwise")->emitted_kind == "Elementwise");
static_assert(neuronrw::composite_route_of("DotSoftmax")->emitter == composite_emitter::arbitrary);
static_assert(neuronrw::composite_route_of("DotSoftmax")->emitted_kind == "DotSoftmax");
static_assert(neuronrw::composite_route_of("ScheduleFusion")->emitter == composite_emitter::bespoke);
static_assert(neuronrw::composite_route_of("MulRedSqrt")->emitter == composite_emitter::bespoke);
static_assert(neuronrw::composite_route_of("DotLogistic")->emitter == composite_emitter::bespoke);
static_assert(!neuronrw::composite_route_of("FusedComposite"));

// Dispatch is constexpr: the jump table is a constant array of function pointers. A handler set
// refers to its own entries, so in a constant expression it is built inside the evaluation (g++
// does not accept such self-references in a namespace-scope constexpr variable).
constexpr auto make_route_codes() {
  return handlers(
      on<"ScheduleFusion">([](auto) { return 10; }), on<"MulRedSqrt">([](auto) { return 11; }),
      on<"DotLogistic">([](auto) { return 12; }),
      neuronrw::on_arbitrary_composite([](std::string_view emitted) { return emitted == "Elementwise" ? 20 : 21; }));
}
using route_codes_t = decltype(make_route_codes());
static_assert(composite_op_registry::handles_all_v<route_codes_t>);
static_assert(composite_op_registry::handles_all_v<const route_codes_t&>);
static_assert(composite_op_registry::check_handlers<route_codes_t>());
constexpr int code(std::string_view kind) {
  return composite_op_registry::dispatch(kind, make_route_codes(), [](std::string_view) { return -1; });
}
static_assert(code("ScheduleFusion") == 10 && code("MulRedSqrt") == 11 && code("DotLogistic") == 12);
static_assert(code("Expm1") == 20 && code("Log1p") == 20 && code("Elementwise") == 20);
static_assert(code("DotSoftmax") == 21);
static_assert(code("FusedComposite") == -1);

// The same handler set serves the other registry: handlers are keyed by name, not position.
static_assert(fusion_op_registry::dispatch("Log1p", make_route_codes(), [](std::string_view) { return -1; }) == 20);

// A copy refers to its own entries: dispatching through it works after the original is gone.
constexpr int through_copy() {
  const auto copy = [] {
    const auto original = make_route_codes();
    return decltype(original)(original);
  }();
  return composite_op_registry::dispatch("DotLogistic", copy, [](std::string_view) { return -1; });
}
static_assert(through_copy() == 12);

// An incomplete set is detectable without an error (handles_all_v), and is an error in dispatch.
[[maybe_unused]] constexpr auto make_partial() { return handlers(on<"ScheduleFusion">([](auto) { return 0; })); }
static_assert(!composite_op_registry::handles_all_v<decltype(make_partial())>);
static_assert(!composite_op_registry::handles_all_v<int>);

// The result type is the common type of the handlers (and of a non-void fatal default).
constexpr auto make_mixed() { return handlers(on<"A">([](auto) { return 1; }), on<"B">([](auto) { return 2.5; })); }
static_assert(std::is_same_v<decltype(reg<list_style::comma, "A", "B">::dispatch(
                                  "A", make_mixed(), [](std::string_view) { return 0L; })),
                             double>);
static_assert(reg<list_style::comma, "A", "B">::dispatch("B", make_mixed(), [](std::string_view) { return 0L; }) == 2.5);

}  // namespace
