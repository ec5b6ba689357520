// Round trip over the corpus (tests/corpus/*.mlir): print(parse(x)) is a fixed point, and equals
// x byte for byte (canonical files) or tests/corpus/expected/<name> (files that are not in the
// printer's form: generic func ops, mlir-opt debuginfo output, comments and odd spacing).
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>

#include <doctest/doctest.h>

#include "support/files.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace ref = neuronrw::ref;

namespace {

using neuronrw::testing::corpus_dir;
using neuronrw::testing::files_with_extension;
using neuronrw::testing::read_file;

std::string print_parsed(const std::string& text, const std::string& name, const ref::print_options& o = {},
                         const ref::parse_options& po = {}) {
  auto r = ref::parse(text, name, po);
  INFO(r.error.str());
  REQUIRE(r.ok());
  return ref::print(*r.value, o);
}

}  // namespace

TEST_CASE("the corpus holds at least 15 files, each with a golden when it is not canonical") {
  const auto files = files_with_extension(corpus_dir(), ".mlir");
  INFO("corpus directory: " << corpus_dir().string());
  CHECK(files.size() >= 15);
  std::size_t goldens = 0;
  for (const auto& f : files) goldens += fs::exists(corpus_dir() / "expected" / f.filename()) ? 1 : 0;
  CHECK(goldens >= 3);
  CHECK(files.size() - goldens >= 15);
}

TEST_CASE("print(parse(x)) is a fixed point and equals x or its golden") {
  for (const auto& f : files_with_extension(corpus_dir(), ".mlir")) {
    const auto name = f.filename().string();
    CAPTURE(name);
    const auto text = read_file(f);
    const auto once = print_parsed(text, name);
    CHECK(print_parsed(once, name) == once);
    const auto golden = corpus_dir() / "expected" / f.filename();
    const auto expected = fs::exists(golden) ? read_file(golden) : text;
    CHECK(once == expected);
  }
}

TEST_CASE("the other printer modes are fixed points too") {
  for (const auto& f : files_with_extension(corpus_dir(), ".mlir")) {
    const auto name = f.filename().string();
    CAPTURE(name);
    const auto text = read_file(f);
    for (auto o : {ref::print_options{.use_name_hints = false}, ref::print_options{.print_locations = false}}) {
      const auto once = print_parsed(text, name, o);
      CHECK(print_parsed(once, name, o) == once);
    }
    // Dropping locations when parsing is the same as not printing them.
    CHECK(print_parsed(text, name, {}, {.keep_locations = false}) ==
          print_parsed(text, name, {.print_locations = false}));
  }
}

TEST_CASE("the golden of each non-canonical file is itself canonical") {
  for (const auto& f : files_with_extension(corpus_dir(), ".mlir")) {
    const auto golden = corpus_dir() / "expected" / f.filename();
    if (!fs::exists(golden)) continue;
    CAPTURE(golden.string());
    const auto text = read_file(golden);
    CHECK(print_parsed(text, golden.filename().string()) == text);
  }
}
