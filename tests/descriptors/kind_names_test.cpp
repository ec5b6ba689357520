// Run-time tests of descriptors/kind_names.hpp: canonical spellings, the kinds file (every error
// form, exact messages and locations), the table's lookups and merge, kind lists, and a fuzz of
// the file reader (any bytes: a table or located errors, never a crash, always the same answer).
#include <neuronrw/descriptors/kind_names.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {
using namespace neuronrw;

std::string errors_of(std::string_view text) {
  auto r = kind_map::parse(text, "k.txt");
  std::string out;
  for (const auto& d : r.errors) out += d.str() + "\n";
  CHECK(r.ok() == r.errors.empty());
  return out;
}
}  // namespace

TEST_CASE("canonical spellings") {
  CHECK(canonical_kind_name("AllGather") == "all_gather");
  CHECK(canonical_kind_name("all-gather") == "all_gather");
  CHECK(canonical_kind_name("ALL_GATHER") == "all_gather");
  CHECK(canonical_kind_name("all gather") == "all_gather");
  CHECK(canonical_kind_name("HLOAllReduce") == "hlo_all_reduce");
  CHECK(canonical_kind_name("AllGatherV2") == "all_gather_v2");
  CHECK(canonical_kind_name("allGather") == "all_gather");
  CHECK(canonical_kind_name("all_gather") == "all_gather");
  CHECK(canonical_kind_name("") == "");
  for (std::string_view n : {"AllGather", "all-gather", "reduce-scatter", "HLOAllReduce", "x", "A", "aB9c"})
    CHECK(canonical_kind_id(n) == kind_id_of(canonical_kind_name(n)));
}

TEST_CASE("a kinds file: entries, comments, blanks, canonical kinds") {
  auto r = kind_map::parse("# mycc\n\n  mycc.gather\tAllGather   # trailing\r\nmycc.scatter reduce-scatter\n"
                           "mycc.gather all_gather\nmy.own my_collective",
                           "k.txt");
  REQUIRE(r.ok());
  const kind_map& m = *r.map;
  REQUIRE(m.size() == 3);
  CHECK(m.entries()[0].op_name == "my.own");
  CHECK(m.entries()[1].op_name == "mycc.gather");
  CHECK(m.entries()[1].kind == "all_gather");
  CHECK(m.entries()[1].loc == source_loc{3, 3});
  CHECK(m.lookup("mycc.gather") == kind_id_v<kinds::all_gather>);
  CHECK(m.lookup("mycc.scatter") == kind_id_v<kinds::reduce_scatter>);
  CHECK(m.lookup("my.own") == kind_id_of("my_collective"));
  // Names it does not know keep the built-in rule.
  CHECK(m.lookup("mhlo.all_gather") == kind_id_v<kinds::all_gather>);
  CHECK(m.lookup("mycc.mul") == op_name_kind("mycc.mul"));
  CHECK(m.find("mycc.mul") == nullptr);
  CHECK(m.known_kinds() == std::vector<std::string>{"all_gather", "all_reduce", "all_to_all", "call",
                                                    "collective_permute", "composite", "func", "fusion",
                                                    "get_tuple_element", "module", "my_collective",
                                                    "reduce_scatter", "return"});
  CHECK(kind_map::parse("", "e").ok());
  CHECK(kind_map::parse("\n\n# only comments\n", "e").map->empty());
}

TEST_CASE("a kinds file: every error, located, all reported, no table") {
  CHECK(errors_of("a\n") == "k.txt:1:1: error: expected `OP-NAME KIND` (the kind of 'a' is missing)\n");
  CHECK(errors_of("a b c\n") == "k.txt:1:5: error: expected `OP-NAME KIND`; unexpected 'c' (a comment starts with '#')\n");
  CHECK(errors_of("a b!\n") ==
        "k.txt:1:3: error: invalid kind 'b!': a kind is a name of letters, digits, '_' and '-' (e.g. all_gather)\n");
  CHECK(errors_of("a 9b\n") ==
        "k.txt:1:3: error: invalid kind '9b': a kind is a name of letters, digits, '_' and '-' (e.g. all_gather)\n");
  CHECK(errors_of("a x\n\na y\n") == "k.txt:3:1: error: 'a' is given kind 'y' here and 'x' on line 1\n");
  CHECK(errors_of(std::string("a\x01z b\n")) == "k.txt:1:2: error: invalid op name 'a\\x01z': a control byte\n");
  CHECK(errors_of("a x\na AllX\na x\n") == "k.txt:2:1: error: 'a' is given kind 'all_x' here and 'x' on line 1\n");
  // Every bad line, in order; the good ones do not make a table.
  CHECK(errors_of("ok all_gather\nbad\nok2 x y\n") ==
        "k.txt:2:1: error: expected `OP-NAME KIND` (the kind of 'bad' is missing)\n"
        "k.txt:3:7: error: expected `OP-NAME KIND`; unexpected 'y' (a comment starts with '#')\n");
  // A binary file says so in 21 lines.
  std::string junk;
  for (int i = 0; i < 100; ++i) junk += "x\n";
  auto r = kind_map::parse(junk, "k.txt");
  CHECK(r.errors.size() == 21);
  CHECK(r.errors.back().str() == "k.txt:21:1: error: too many errors; stopped reading");
}

TEST_CASE("merge: the other table's entries win") {
  kind_map a, b;
  a.add("x.a", "all_gather").add("x.b", "all_gather");
  b.add("x.b", "reduce_scatter").add("x.c", "fusion");
  a.merge(b);
  REQUIRE(a.size() == 3);
  CHECK(a.lookup("x.a") == kind_id_v<kinds::all_gather>);
  CHECK(a.lookup("x.b") == kind_id_v<kinds::reduce_scatter>);
  CHECK(a.lookup("x.c") == kind_id_v<kinds::fusion>);
}

TEST_CASE("kind lists") {
  std::vector<std::string> out;
  CHECK_FALSE(parse_kind_list("all_gather,ReduceScatter,all-reduce", out).has_value());
  CHECK(out == std::vector<std::string>{"all_gather", "reduce_scatter", "all_reduce"});
  CHECK(*parse_kind_list("", out) == "has an empty kind name (kinds are separated by single commas)");
  CHECK(*parse_kind_list("a,", out) == "has an empty kind name (kinds are separated by single commas)");
  CHECK(*parse_kind_list("a,b.c", out) == "has 'b.c', which is not a kind name (letters, digits, '_' and '-')");
  CHECK(*parse_kind_list("a,A", out) == "lists the kind 'a' twice");
  std::string many;
  for (int i = 0; i < 33; ++i) many += (i ? ",k" : "k") + std::to_string(i);
  CHECK(*parse_kind_list(many, out) == "lists more than 32 kinds");
}

TEST_CASE("the kinds file reader on random bytes: a table or located errors, deterministic") {
  std::mt19937 rng(30);
  const std::string alphabet = std::string("ab.-_ #\t\r\nAZ09!\x01\xff", 18);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const std::size_t n = rng() % 64;
    for (std::size_t i = 0; i < n; ++i) text += alphabet[rng() % alphabet.size()];
    auto a = kind_map::parse(text, "f");
    auto b = kind_map::parse(text, "f");
    CHECK(a.ok() == b.ok());
    CHECK(a.errors.size() == b.errors.size());
    for (const auto& d : a.errors) CHECK(d.loc.line >= 1);
    if (a.ok()) {
      CHECK(a.map->entries() == b.map->entries());
      for (const auto& e : a.map->entries()) CHECK(is_canonical_kind_name(e.kind));
    }
  }
}
