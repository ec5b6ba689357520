// fuzz_host_roundtrip — the host-program (pypto-style) parser and printer on arbitrary text.
//
// Input: the text (no option byte). Properties (a violation prints what differs and traps):
//   - a rejected input gives one error with a message, named after the file and located at a
//     line:col inside the input (the column just past a line's end included);
//   - printing is deterministic (two prints of one program are equal);
//   - the printed text parses again into a program structurally equal to the first, with the
//     same structural hash (docs/host-programs.md §"The round-trip contract"), and prints the
//     same text (print∘parse is a fixed point after one round).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/text.hpp>

#include "common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace host = neuronrw::host;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = host::parse_program(text, "fuzz.py");
  if (!r.ok()) {
    fuzz::check_rejection(text, r.error, "fuzz.py");
    return 0;
  }
  const std::string first = host::print_program(*r.value);
  if (host::print_program(*r.value) != first) fuzz::violation("printing one program twice gave different texts");

  auto again = host::parse_program(first, "fuzz.py");
  if (!again.ok()) fuzz::violation("the printed program does not parse: " + again.error.str(), first);
  const std::string second = host::print_program(*again.value);
  if (second != first) fuzz::violation("print(parse(print(p))) differs from print(p)", first, second);
  if (!host::structural_equal(*r.value, *again.value) ||
      host::structural_hash(*r.value) != host::structural_hash(*again.value))
    fuzz::violation("parse(print(p)) is not structurally equal to p", host::structural_encoding(*r.value),
                    host::structural_encoding(*again.value));
  return 0;
}
