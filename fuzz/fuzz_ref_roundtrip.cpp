// fuzz_ref_roundtrip — the reference IR's parser, verifier and printer on arbitrary text.
//
// Input: one option byte, then the text. The option byte's bits: 1 drops locations while parsing
// (parse_options::keep_locations = false), 2 prints numbered values instead of name hints, 4 prints
// no locations, 8 prints every op generic (--mlir-print-op-generic), 16 (without 8) every op of
// the syntax table in its custom form (--print-op-custom). Properties (a violation prints what
// differs and traps):
//   - a rejected input gives one error with a message, named after the file and located at a
//     line:col inside the input (the column just past a line's end included);
//   - an accepted module's verifier diagnostics, when located, are inside the input too;
//   - printing is deterministic (two prints of one module are equal);
//   - the printed text parses again, verifies exactly when the module did, and prints the same
//     text (print∘parse is a fixed point after one round); with numbered values only for a module
//     that verifies, as docs/reference-ir.md §"Names" promises.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include "common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace ref = neuronrw::ref;
  if (size == 0) return 0;
  const unsigned flags = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  ref::parse_options po;
  po.keep_locations = (flags & 1) == 0;
  ref::print_options pr;
  pr.use_name_hints = (flags & 2) == 0;
  pr.print_locations = (flags & 4) == 0;
  pr.forms = (flags & 8) != 0 ? ref::op_forms::generic : (flags & 16) != 0 ? ref::op_forms::custom : ref::op_forms::as_read;

  auto r = ref::parse(text, "fuzz.mlir", po);
  if (!r.ok()) {
    fuzz::check_rejection(text, r.error, "fuzz.mlir");
    return 0;
  }
  const auto errors = ref::verify(*r.value);
  for (const auto& d : errors)
    if (d.loc.known() && !fuzz::located_inside(text, d.loc))
      fuzz::violation("a verifier diagnostic is not located inside the input: " + d.str());

  const std::string first = ref::print(*r.value, pr);
  if (ref::print(*r.value, pr) != first) fuzz::violation("printing one module twice gave different texts");

  // Printed names read back faithfully only when every use is visible from its definition,
  // which the verifier checks (docs/reference-ir.md §"Names"): sibling regions reuse numbers and
  // names, as in MLIR, so a use of a value from a sibling region would name another value.
  if (!errors.empty()) return 0;
  auto again = ref::parse(first, "fuzz.mlir", po);
  if (!again.ok()) fuzz::violation("the printed module does not parse: " + again.error.str(), first);
  const auto errors_again = ref::verify(*again.value);
  if (errors.empty() != errors_again.empty())
    fuzz::violation("the reparsed module verifies differently:\nbefore:\n" + fuzz::join(errors) + "after:\n" +
                        fuzz::join(errors_again),
                    first);
  const std::string second = ref::print(*again.value, pr);
  if (second != first) fuzz::violation("print(parse(print(m))) differs from print(m)", first, second);
  return 0;
}
