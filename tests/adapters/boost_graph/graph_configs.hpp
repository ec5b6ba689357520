// The eight graph configurations the Boost.Graph adapter (adapters/boost_graph.hpp) is tested on:
// vecS / listS vertex storage × bidirectionalS / directedS × edges producer → consumer or
// consumer → producer, over a test's own bundled vertex and edge properties.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

#include <boost/graph/adjacency_list.hpp>

#include <neuronrw/adapters/boost_graph.hpp>

namespace neuronrw_test::bgl {

template <class VProp, class EProp, class VertexS, class DirectedS, bool ProducerToConsumer>
struct config {
  using graph = boost::adjacency_list<boost::vecS, VertexS, DirectedS, VProp, EProp>;
  using direction = std::conditional_t<ProducerToConsumer, neuronrw::bgl::producer_to_consumer_t,
                                       neuronrw::bgl::consumer_to_producer_t>;
  static constexpr bool p2c = ProducerToConsumer;
};

/// All eight, as a tuple (doctest's TEST_CASE_TEMPLATE_APPLY takes one; std::tuple_element picks one).
template <class VProp, class EProp>
using all_configs = std::tuple<config<VProp, EProp, boost::vecS, boost::bidirectionalS, true>,
                               config<VProp, EProp, boost::vecS, boost::bidirectionalS, false>,
                               config<VProp, EProp, boost::vecS, boost::directedS, true>,
                               config<VProp, EProp, boost::vecS, boost::directedS, false>,
                               config<VProp, EProp, boost::listS, boost::bidirectionalS, true>,
                               config<VProp, EProp, boost::listS, boost::bidirectionalS, false>,
                               config<VProp, EProp, boost::listS, boost::directedS, true>,
                               config<VProp, EProp, boost::listS, boost::directedS, false>>;

/// Calls f.template operator()<C>() for configuration number `k` (0..7) of `Configs`.
template <class Configs, class F>
void with_config(std::size_t k, F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((k == I ? (f.template operator()<std::tuple_element_t<I, Configs>>(), 0) : 0), ...);
  }(std::make_index_sequence<std::tuple_size_v<Configs>>{});
}

}  // namespace neuronrw_test::bgl
