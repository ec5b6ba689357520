// tests/adapters/mlir/boost_graph_view_graphviz.hpp — boost::write_graphviz on the Boost.Graph
// view of an MLIR block, for boost_graph_view_test.cpp. boost/graph/graphviz.hpp cannot be
// compiled with LLVM's -fno-rtti (boost/property_map/dynamic_property_map.hpp, the
// boost/xpressive headers it includes and graphviz.hpp's dynamic_properties writers use typeid
// outside any template a caller could avoid instantiating), so write_graphviz runs in
// boost_graph_view_graphviz.cpp, compiled with the project's own flags (RTTI and exceptions on)
// and linked into the test, the way differential_ref.cpp is. Only MLIR pointers and a
// std::string cross: no exception, no typeid of an LLVM class.
#pragma once

#include <string>

namespace mlir {
class Block;
class Operation;
}  // namespace mlir

namespace bgv_graphviz {

/// boost::write_graphviz of block_view<mlir_adapter::ir>(mlir_adapter::ir(root), *block).
/// labels: vertices labelled with the op's name and edges with the result number of the value,
/// through write_graphviz's vertex and edge writers; otherwise the writers' defaults.
std::string write(mlir::Operation* root, mlir::Block* block, bool labels);

}  // namespace bgv_graphviz
