// fuzz_pipeline — neuronrw-opt's pipeline and pass-option reader and printer
// (examples/neuronrw-opt/pipeline.hpp) on arbitrary text.
//
// Input: an option byte, then the text. Bit 0 of the byte: 0 reads the text as --pass-pipeline,
// 1 as the options of a pass flag (`--PASS=TEXT`), of the registered pass (byte >> 2) modulo
// their number, with commas as separators too when bit 1 is set. Properties (a violation prints
// what differs and traps):
//   - a refused text gives a message and a 1-based column inside the text or just past its end;
//   - an accepted one prints (--dump-pass-pipeline's text) in a form read back with the same
//     passes and the same values for every option given, and printing that again gives the same
//     text (print∘parse is a fixed point after one round);
//   - reading is deterministic: the same text read twice gives the same result.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common.hpp"
#include "pipeline.hpp"
#include "registry.hpp"

namespace {

using namespace neuronrw_opt;

std::string body_of_dump(const pipeline& p) {
  const std::string d = dump_pipeline(p);
  return d.substr(d.find('\n') + 1);
}

void check_error(std::string_view text, const located_error& e) {
  if (e.message.empty()) fuzz::violation("an error without a message");
  if (e.col < 1 || e.col > text.size() + 1)
    fuzz::violation("an error's column " + std::to_string(e.col) + " lies outside the text: " + e.message, text);
}

void check_round_trip(const pipeline& p) {
  const std::string first = body_of_dump(p);
  pipeline again;
  if (auto e = parse_pipeline(first, again)) fuzz::violation("the printed pipeline is refused: " + e->message, first);
  if (again.kind != p.kind || again.passes.size() != p.passes.size())
    fuzz::violation("the printed pipeline reads back with other passes", first, body_of_dump(again));
  for (std::size_t i = 0; i < p.passes.size(); ++i) {
    if (again.passes[i].spec != p.passes[i].spec) fuzz::violation("a pass reads back as another", first);
    for (std::size_t k = 0; k < p.passes[i].values.size(); ++k)
      if (p.passes[i].explicitly_set[k] && again.passes[i].values[k] != p.passes[i].values[k])
        fuzz::violation("option '" + std::string(p.passes[i].spec->options[k].name) + "' reads back differently",
                        p.passes[i].values[k], again.passes[i].values[k]);
  }
  const std::string second = body_of_dump(again);
  if (second != first) fuzz::violation("print(parse(print(p))) differs from print(p)", first, second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t option = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const pass_registry& reg = default_registry();
  if ((option & 1) == 0) {
    pipeline p, q;
    const auto e = parse_pipeline(text, p);
    const auto e2 = parse_pipeline(text, q);
    if (e.has_value() != e2.has_value() || (e && (e->col != e2->col || e->message != e2->message)))
      fuzz::violation("reading one pipeline twice gave different results");
    if (e) return check_error(text, *e), 0;
    check_round_trip(p);
    return 0;
  }
  const auto& specs = reg.passes();
  const pass_spec& spec = specs[(option >> 2) % specs.size()];
  pass_instance inst(spec);
  if (auto e = parse_options(text, 1, (option & 2) != 0, inst)) return check_error(text, *e), 0;
  pipeline p;
  p.kind = spec.kind;
  p.passes.push_back(inst);
  check_round_trip(p);
  return 0;
}
