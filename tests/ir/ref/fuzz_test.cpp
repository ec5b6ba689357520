// Deterministic mutation fuzzing of the parser, printer and verifier: mutants of the corpus files
// (byte flips, deletions, insertions of syntax characters, duplicated spans, moved lines,
// truncation) either parse — and then print(parse(.)) is a fixed point, the other printer modes
// read back (mlir-opt numbering as a fixed point when the mutant verifies), the re-read module
// verifies exactly as the original, and every verifier finding points into the text — or give
// one diagnostic with a position inside the text.
// Nothing may crash or hang; the ASan/UBSan build proves the memory side. Fixed seeds make every
// run identical.
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include <doctest/doctest.h>

#include "support/files.hpp"

#include "../../../fuzz/common.hpp"  // fuzz::located_inside, shared with the libFuzzer targets

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;
namespace ref = neuronrw::ref;

namespace {

using neuronrw::testing::corpus_dir;
using neuronrw::testing::files_with_extension;
using neuronrw::testing::read_file;

std::vector<std::string> corpus_texts() {
  std::vector<std::string> texts;
  for (const auto& f : files_with_extension(corpus_dir(), ".mlir")) texts.push_back(read_file(f));
  return texts;
}

/// splitmix64: small, fast, and the same on every platform.
struct rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

constexpr std::string_view syntax_chars = "()[]{}<>\"%^#@:=,->\\/ \n0x!";

std::string mutate(std::string s, rng& r) {
  const int edits = 1 + static_cast<int>(r.below(3));
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = r.below(s.size() + 1);
    switch (r.below(8)) {
      case 0:  // flip a byte (any value, NUL and non-ASCII included)
        if (at < s.size()) s[at] = static_cast<char>(r.next() & 0xFF);
        break;
      case 1:  // delete a short span
        if (at < s.size()) s.erase(at, 1 + r.below(std::min<std::size_t>(8, s.size() - at)));
        break;
      case 2:  // insert a syntax character
        s.insert(at, 1, syntax_chars[r.below(syntax_chars.size())]);
        break;
      case 3:  // replace by a syntax character
        if (at < s.size()) s[at] = syntax_chars[r.below(syntax_chars.size())];
        break;
      case 4: {  // duplicate a span elsewhere (repeats ops, names, brackets)
        if (s.empty()) break;
        const std::size_t from = r.below(s.size());
        const std::size_t len = 1 + r.below(std::min<std::size_t>(40, s.size() - from));
        s.insert(at, s.substr(from, len));
        break;
      }
      case 5:  // truncate
        s.resize(at);
        break;
      default: {  // move or copy a whole line (redefinitions, forward uses, ops across regions)
        const auto begin_of = [&](std::size_t p) { return p == 0 ? 0 : s.rfind('\n', p - 1) + 1; };
        const std::size_t b = begin_of(r.below(s.size() + 1));
        const std::size_t e = std::min(s.find('\n', b), s.size());
        std::string line = s.substr(b, e - b) + "\n";
        if (r.below(2) == 0) s.erase(b, std::min(line.size(), s.size() - b));
        s.insert(begin_of(std::min(at, s.size())), line);
        break;
      }
    }
  }
  return s;
}

/// The verifier's messages without positions (positions differ between a text and its print).
std::string messages(const neuronrw::diagnostics& ds) {
  std::string out;
  for (const auto& d : ds) out += d.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("mutants of the corpus parse to a fixed point or fail with a located diagnostic") {
  const auto texts = corpus_texts();
  REQUIRE(texts.size() >= 15);
  constexpr int mutants = 20000;
  int accepted = 0, rejected = 0, verified = 0;
  rng r{20240611};
  for (int i = 0; i < mutants; ++i) {
    const auto& base = texts[r.below(texts.size())];
    const auto text = mutate(base, r);
    auto result = ref::parse(text, "fuzz.mlir");
    if (result.ok()) {
      ++accepted;
      const auto once = ref::print(*result.value);
      auto again = ref::parse(once, "fuzz.mlir");
      if (!again.ok() || ref::print(*again.value) != once) {
        INFO("mutant " << i << ":\n" << text);
        INFO("printed:\n" << once);
        INFO("reparse: " << (again.ok() ? std::string("ok but differs") : again.error.str()));
        CHECK(false);
      }
      // Without locations the text reads back too.
      const auto no_locs = ref::print(*result.value, {.print_locations = false});
      auto r2 = ref::parse(no_locs, "fuzz.mlir");
      if (!r2.ok()) {
        INFO("mutant " << i << ":\n" << text);
        INFO("printed without locations:\n" << no_locs);
        INFO("reparse: " << r2.error.str());
        CHECK(false);
      }
      // The re-read module is the same module: mlir-opt numbering (which shows no name hints,
      // so it compares structure only) prints it identically, and the verifier finds the same
      // problems in it. The verifier's findings point into the mutant's text.
      const auto numbered = ref::print(*result.value, {.use_name_hints = false});
      const auto verdict = messages(ref::verify(*result.value));
      if (ref::print(*again.value, {.use_name_hints = false}) != numbered ||
          messages(ref::verify(*again.value)) != verdict) {
        INFO("mutant " << i << ":\n" << text);
        INFO("numbered:\n" << numbered);
        INFO("verifier: " << verdict);
        CHECK(false);
      }
      for (const auto& d : ref::verify(*result.value)) {
        if (d.file != "fuzz.mlir" || !fuzz::located_inside(text, d.loc)) {
          INFO("mutant " << i << ":\n" << text);
          INFO("verifier: " << d.str());
          CHECK(false);
        }
      }
      // mlir-opt numbering reuses names across sibling regions, so it reads back as the same
      // module only when every use sees its definition, which the verifier guarantees; a
      // mutant that fails verification may have a forward use that would then resolve to a
      // value of a closed sibling region.
      if (verdict.empty()) {
        ++verified;
        auto r3 = ref::parse(numbered, "fuzz.mlir");
        if (!r3.ok() || ref::print(*r3.value, {.use_name_hints = false}) != numbered) {
          INFO("mutant " << i << ":\n" << text);
          INFO("numbered:\n" << numbered);
          INFO("reparse: " << (r3.ok() ? std::string("ok but differs") : r3.error.str()));
          CHECK(false);
        }
      }
    } else {
      ++rejected;
      if (result.error.file != "fuzz.mlir" || result.error.message.empty() ||
          !fuzz::located_inside(text, result.error.loc)) {
        INFO("mutant " << i << ":\n" << text);
        INFO("diagnostic: " << result.error.str());
        CHECK(false);
      }
    }
  }
  MESSAGE("fuzz: " << accepted << " mutants accepted (" << verified << " verified clean), " << rejected
                    << " rejected");
  CHECK(accepted > 100);
  CHECK(verified > 100);
  CHECK(rejected > 100);
}

TEST_CASE("random bytes and pathological inputs are rejected cleanly") {
  rng r{7};
  for (int i = 0; i < 2000; ++i) {
    std::string s(r.below(200), '\0');
    for (auto& c : s) c = static_cast<char>(r.next() & 0xFF);
    auto result = ref::parse(s, "noise.mlir");
    if (!result.ok()) CHECK(fuzz::located_inside(s, result.error.loc));
  }
  const std::string nasty[] = {
      std::string(200000, '('),
      std::string(200000, '{'),
      "\"a.b\"() {x = " + std::string(100000, '<'),
      "%x:16777215 = \"a.b\"() ({",
      "%x:99999999999 = \"a.b\"() : () -> ()",
      std::string(100000, '"'),
      "\"a.b\"(" + std::string(50000, '%'),
      "func.func @f(" + std::string(60000, '%') + ")",
  };
  for (const auto& s : nasty) {
    auto result = ref::parse(s, "nasty.mlir");
    CHECK_FALSE(result.ok());
    CHECK(fuzz::located_inside(s, result.error.loc));
  }
}
