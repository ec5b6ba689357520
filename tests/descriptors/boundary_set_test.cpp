// Run-time tests for neuronrw/descriptors/boundary_set.hpp: classification of a model IR's ops.
#include <neuronrw/descriptors/boundary_set.hpp>

#include <doctest/doctest.h>

#include <boost/hana/for_each.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace kinds = neuronrw::kinds;
using neuronrw::default_boundary_set;
using neuronrw::kind_id;
using neuronrw::kind_id_of;

// A toy IR: the adapter maps each op's dialect name to a kind_id once, at creation, as the
// reference IR does; classification then reads that id through ADL `kind(g, op)`.
struct toy_op {
  std::size_t index;
};
struct toy_graph {
  std::vector<kind_id> kind_of;
  explicit toy_graph(const std::vector<std::string>& names) {
    for (const std::string& n : names) {
      std::string_view canonical = n;
      if (auto dot = canonical.find('.'); dot != std::string_view::npos) canonical.remove_prefix(dot + 1);
      kind_of.push_back(kind_id_of(canonical));
    }
  }
};
kind_id kind(const toy_graph& g, toy_op op) { return g.kind_of[op.index]; }

TEST_CASE("the four-collective boundary set classifies mhlo and stablehlo ops alike") {
  const toy_graph g({"mhlo.all_gather", "mhlo.multiply", "mhlo.reduce_scatter", "stablehlo.all_reduce",
                     "stablehlo.all_to_all", "mhlo.collective_permute", "mhlo.get_tuple_element",
                     "func.return"});
  std::vector<bool> got;
  for (std::size_t i = 0; i < g.kind_of.size(); ++i)
    got.push_back(default_boundary_set::contains_op(g, toy_op{i}));
  CHECK(got == std::vector<bool>{true, false, true, true, true, false, false, false});

  using with_permute = default_boundary_set::with<kinds::collective_permute>;
  CHECK(with_permute::contains_op(g, toy_op{5}));
  CHECK_FALSE(with_permute::contains_op(g, toy_op{6}));
}

// An IR adapted the way the IR concepts ask (concepts/ir.hpp): through ir_traits, not ADL.
struct traits_ir {
  std::vector<kind_id> kinds;
};

}  // namespace

template <>
struct neuronrw::ir_traits<traits_ir> {
  using op_handle = std::size_t;
  static kind_id kind(const traits_ir& g, op_handle op) { return g.kinds[op]; }
};

namespace {

TEST_CASE("contains_op reads the kind through ir_traits when the IR has them") {
  const traits_ir g{{kind_id_of("all_to_all"), kind_id_of("add"), kind_id_of("reduce_scatter")}};
  CHECK(default_boundary_set::contains_op(g, std::size_t{0}));
  CHECK_FALSE(default_boundary_set::contains_op(g, std::size_t{1}));
  CHECK(default_boundary_set::contains_op(g, std::size_t{2}));
}

TEST_CASE("run-time membership matches compile-time membership for every builtin kind") {
  using big = default_boundary_set::with<kinds::collective_permute, kinds::get_tuple_element,
                                         kinds::fusion, kinds::composite, kinds::func>;
  std::vector<std::string> names;
  boost::hana::for_each(big::tags, [&](auto t) {
    using tag = typename decltype(t)::type;
    names.emplace_back(tag::name);
    CHECK(big::contains(neuronrw::kind_id_v<tag>) == big::contains_v<tag>);
  });
  CHECK(names == std::vector<std::string>{"all_gather", "reduce_scatter", "all_reduce", "all_to_all",
                                          "collective_permute", "get_tuple_element", "fusion",
                                          "composite", "func"});
  const std::string runtime_name = "call";  // not a member; id computed at run time
  CHECK_FALSE(big::contains(kind_id_of(runtime_name)));
  CHECK(big::position(kind_id_of(std::string("fusion"))) == 6);
  CHECK(big::position(kind_id_of(runtime_name)) == neuronrw::detail::npos_index);
}

}  // namespace
