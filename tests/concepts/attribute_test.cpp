// Tests of include/neuronrw/concepts/attribute.hpp: the typed attribute values and their canonical
// text, exactly, and that the reference IR's reader (ir/ref/mlir_string.hpp) reads every string
// and symbol name the writers produce back to its value, control and non-ASCII bytes included.
#include <neuronrw/concepts/attribute.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <variant>

namespace {

namespace nr = neuronrw;
namespace attr = neuronrw::attr;

TEST_CASE("attribute_text: each kind of value, exactly") {
  CHECK(nr::attribute_text(attr::string{"ScheduleFusion"}) == "\"ScheduleFusion\"");
  CHECK(nr::attribute_text(attr::string{""}) == "\"\"");
  CHECK(nr::attribute_text(attr::string{"a\"b\\c\nd\te\x01"}) == "\"a\\\"b\\\\c\\nd\\te\\01\"");
  CHECK(nr::attribute_text(attr::symbol{"hilo.FusedComposite.0"}) == "@hilo.FusedComposite.0");
  CHECK(nr::attribute_text(attr::symbol{"has space"}) == "@\"has space\"");
  CHECK(nr::attribute_text(attr::symbol{"0starts_with_digit"}) == "@\"0starts_with_digit\"");
  CHECK(nr::attribute_text(attr::integer{0, 32}) == "0 : i32");
  CHECK(nr::attribute_text(attr::integer{-5, 8}) == "-5 : i8");
  CHECK(nr::attribute_text(attr::integer{1, 1}) == "1 : i1");
  CHECK(nr::attribute_text(attr::integer{42}) == "42");  // i64, MLIR's default, elided
  CHECK(nr::attribute_text(attr::integer{std::numeric_limits<std::int64_t>::min()}) == "-9223372036854775808");
  CHECK(nr::attribute_text(attr::boolean{true}) == "true");
  CHECK(nr::attribute_text(attr::boolean{false}) == "false");
  CHECK(nr::attribute_text(attr::unit{}) == "unit");
  CHECK(nr::attribute_text(attr::empty_dictionary{}) == "{}");
}

TEST_CASE("append_attribute_text appends, and values compare by kind and content") {
  std::string out = "x = ";
  nr::append_attribute_text(out, attr::symbol{"f"});
  CHECK(out == "x = @f");
  CHECK(nr::attribute_value{attr::string{"a"}} == nr::attribute_value{attr::string{"a"}});
  CHECK(nr::attribute_value{attr::string{"a"}} != nr::attribute_value{attr::symbol{"a"}});
  CHECK(nr::attribute_value{attr::integer{0, 32}} != nr::attribute_value{attr::integer{0, 64}});
  const nr::named_attribute a{"version", attr::integer{0, 32}};
  CHECK(std::holds_alternative<attr::integer>(a.value));
  CHECK(std::get<attr::integer>(a.value).width == 32);
}

TEST_CASE("every string and symbol name written reads back as its value") {
  std::string all_bytes;
  for (int c = 1; c < 256; ++c) all_bytes += static_cast<char>(c);
  for (const std::string& s : {std::string(), std::string("plain"), std::string("q\"uote"), all_bytes,
                              std::string("\xce\xbb utf-8")}) {
    CAPTURE(s);
    CHECK(nr::mlir_string_value(nr::attribute_text(attr::string{s})) == s);
    const std::string sym = nr::attribute_text(attr::symbol{s});
    REQUIRE(sym.front() == '@');
    const std::string name = sym.substr(1);
    if (nr::mlir_is_bare_id(s))
      CHECK(name == s);
    else
      CHECK(nr::mlir_string_value(name) == s);
  }
}

}  // namespace
