// Tests of algorithms/host_walk.hpp: the statements of a host function in pre-order, bodies
// after their statement, skip and stop, on the reference host IR and on the host archetype.
#include <neuronrw/algorithms/host_walk.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/host/traits.hpp>

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "archetype/host_archetype.hpp"

namespace {

using namespace neuronrw;

const char* const program_text =
    "import pypto.language as pl\n"
    "import pypto.language.distributed as pld\n\n\n"
    "@pl.program\n"
    "class Walk:\n"
    "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
    "    def main(self):\n"
    "        a = 1\n"
    "        flag = True\n"
    "        for i in pl.range(4):\n"
    "            b = 2\n"
    "            while flag:\n"
    "                c = 3\n"
    "            d = 4\n"
    "        e = 5\n"
    "        return e\n";

host::program parse(const char* text) {
  auto r = host::parse_program(text, "walk.py");
  REQUIRE_MESSAGE(r.ok(), r.error.message);
  return std::move(*r.value);
}

/// A statement as a short name: the assigned variable, or its kind.
std::string name_of(const host::program& p, host::stmt* s) {
  switch (host_access::stmt_kind(p, s)) {
    case host_stmt_kind::assign: return std::string(host_traits<host::program>::var_name(p, host_access::assign_target(p, s)));
    case host_stmt_kind::for_range: return "for";
    case host_stmt_kind::while_loop: return "while";
    case host_stmt_kind::ret: return "return";
    default: return "other";
  }
}

}  // namespace

TEST_CASE("walk_host_function: pre-order, every body after its statement, leave after the body") {
  const auto p = parse(program_text);
  host::function* f = p.functions.front().get();
  std::vector<std::string> seen;
  CHECK(walk_host_function(
      p, f, [&](host::stmt* s) { seen.push_back("+" + name_of(p, s)); },
      [&](host::stmt* s) { seen.push_back("-" + name_of(p, s)); }));
  CHECK(seen == std::vector<std::string>{"+a", "-a", "+flag", "-flag", "+for", "+b", "-b", "+while", "+c", "-c", "-while", "+d", "-d",
                                         "-for", "+e", "-e", "+return", "-return"});
}

TEST_CASE("walk_host_function: skip leaves a body out, stop ends the walk at once") {
  const auto p = parse(program_text);
  host::function* f = p.functions.front().get();
  std::vector<std::string> seen;
  CHECK(walk_host_function(p, f, [&](host::stmt* s) {
    seen.push_back(name_of(p, s));
    return host_access::stmt_kind(p, s) == host_stmt_kind::while_loop ? host_walk::skip : host_walk::advance;
  }));
  CHECK(seen == std::vector<std::string>{"a", "flag", "for", "b", "while", "d", "e", "return"});
  seen.clear();
  std::vector<std::string> left;
  CHECK_FALSE(walk_host_function(
      p, f,
      [&](host::stmt* s) {
        seen.push_back(name_of(p, s));
        return name_of(p, s) == "c" ? host_walk::stop : host_walk::advance;
      },
      [&](host::stmt* s) { left.push_back(name_of(p, s)); }));
  CHECK(seen == std::vector<std::string>{"a", "flag", "for", "b", "while", "c"});
  CHECK(left == std::vector<std::string>{"a", "flag", "b"});  // nothing is left after the stop
}

TEST_CASE("walk_host_function on the host archetype (host_program layer)") {
  namespace a = neuronrw::archetype;
  a::host_storage st;
  const int f = st.fn("main", "HOST", "Orchestrator");
  const int x = st.var("x"), i = st.var("i");
  const int inner = st.s_assign(x, st.e_int(2));
  const int loop = st.s_for(i, st.e_int(0), st.e_int(4), st.e_int(1), {inner});
  const int ret = st.s_ret({st.e_var(x)});
  st.fns[static_cast<std::size_t>(f)].body = {loop, ret};
  const a::host_at<a::host_layer::program> p(st);
  std::vector<int> seen;
  CHECK(walk_host_function(p, a::hfn{f}, [&](a::hstmt s) { seen.push_back(s.id); }, [&](a::hstmt s) { seen.push_back(-1 - s.id); }));
  CHECK(seen == std::vector<int>{loop, inner, -1 - inner, -1 - loop, ret, -1 - ret});
}
