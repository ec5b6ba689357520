// boost::write_graphviz on the Boost.Graph view of an MLIR block (boost_graph_view_graphviz.hpp
// says why this TU has the project's flags, not LLVM's -fno-exceptions -fno-rtti). MLIR's
// headers compile with RTTI on; this TU uses MLIR's classes without typeid or dynamic_cast, and
// emits no vtable of an LLVM class, so it links against libMLIR built without RTTI.
// BOOST_NO_EXCEPTIONS as in boost_graph_view_test.cpp, so the Boost code both TUs instantiate is
// the same; boost::throw_exception is defined there (print and abort).
#ifndef BOOST_NO_EXCEPTIONS
#define BOOST_NO_EXCEPTIONS
#endif

#include "adapters/mlir/boost_graph_view_graphviz.hpp"

#include <ostream>
#include <sstream>
#include <string_view>

#include <boost/graph/graphviz.hpp>

#include <neuronrw/adapters/boost_graph_view.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>

namespace bgv_graphviz {

std::string write(mlir::Operation* root, mlir::Block* block, bool labels) {
  namespace na = neuronrw::mlir_adapter;
  using view_t = neuronrw::bgl_view::block_view<na::ir>;
  const na::ir g(root);
  const view_t view(g, block);
  std::ostringstream os;
  if (labels) {
    boost::write_graphviz(
        os, view,
        [](std::ostream& out, mlir::Operation* o) {
          const llvm::StringRef n = o->getName().getStringRef();
          out << "[label=\"" << std::string_view(n.data(), n.size()) << "\"]";
        },
        [](std::ostream& out, const view_t::edge_descriptor& e) {
          out << "[label=\"" << mlir::cast<mlir::OpResult>(e.value).getResultNumber() << "\"]";
        });
  } else {
    boost::write_graphviz(os, view);
  }
  return os.str();
}

}  // namespace bgv_graphviz
