// fuzz_comm_domain — MaterializeCommDomainScopes on parsed host programs.
//
// Input: one option byte, then the text. The option byte's bits: 1 names scopes `cd<N>` instead
// of `comm_d<N>`, 2 lowers max_listed_devices to 16 (so the too_many_devices refusal is reached).
// Input that does not parse is skipped (fuzz_host_roundtrip covers it). Properties (a violation
// prints what differs and traps):
//   - a refused program is left byte-identical, and every refusal is located inside the input;
//   - the output fails the pass's output checker (check_comm_domain_scopes) nowhere the input did
//     not (functions already holding a scope are left as they are), prints
//     deterministically, parses again and prints the same text;
//   - a second run on the output, and on its reparse, is refused nowhere and changes nothing
//     (docs/host-programs.md §"2. MaterializeCommDomainScopes", step 1: a function that already
//     holds a comm-domain scope is left alone).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>

#include "common.hpp"

namespace {

namespace nr = neuronrw;

void second_run(nr::host::program& p, const nr::comm_domain_options& o, std::string_view what) {
  const std::string before = nr::host::print_program(p);
  auto plan = nr::plan_comm_domain_scopes(std::as_const(p), o);
  if (!plan.ok()) fuzz::violation(std::string("a second run on ") + std::string(what) + " is refused:\n" + fuzz::join(plan.errors()), before);
  if (plan.has_changes()) fuzz::violation(std::string("a second run on ") + std::string(what) + " plans changes", before);
  nr::apply_comm_domain_scopes(p, plan);
  const std::string after = nr::host::print_program(p);
  if (after != before) fuzz::violation(std::string("a second run on ") + std::string(what) + " changed it", before, after);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  nr::comm_domain_options o;
  if (flags & 1) o.scope_prefix = "cd";
  if (flags & 2) o.max_listed_devices = 16;

  auto parsed = nr::host::parse_program(text, "fuzz.py");
  if (!parsed.ok()) return 0;
  nr::host::program& p = *parsed.value;
  const std::string before = nr::host::print_program(p);
  const auto input_errors = nr::check_comm_domain_scopes(p, o);

  auto plan = nr::plan_comm_domain_scopes(std::as_const(p), o);
  if (!plan.ok()) {
    if (plan.errors().empty()) fuzz::violation("a refused plan carries no error");
    for (const auto& d : plan.errors())
      if (!fuzz::located_inside(text, d.loc)) fuzz::violation("a refusal is not located inside the input: " + d.str());
    // The entry point that plans and applies leaves a refused program untouched.
    const auto errs = nr::materialize_comm_domain_scopes<nr::host::program>(p, o);
    if (errs != plan.errors()) fuzz::violation("materialize reports other errors than its plan:\n" + fuzz::join(errs), fuzz::join(plan.errors()));
    if (nr::host::print_program(p) != before) fuzz::violation("a refused program was changed", before, nr::host::print_program(p));
    return 0;
  }
  nr::apply_comm_domain_scopes(p, plan);
  const std::string first = nr::host::print_program(p);
  if (!plan.has_changes() && first != before) fuzz::violation("a plan without changes changed the program", before, first);
  // A function that already holds a scope is left alone, whatever it holds, so the output may fail
  // the checker where the input did: the pass must add no failure of its own.
  for (const auto& e : nr::check_comm_domain_scopes(p, o))
    if (std::find(input_errors.begin(), input_errors.end(), e) == input_errors.end())
      fuzz::violation("the output fails the pass's output checks where the input did not:\n" + e.str(), before, first);
  if (nr::host::print_program(p) != first) fuzz::violation("printing the output twice gave different texts");

  auto again = nr::host::parse_program(first, "fuzz.py");
  if (!again.ok()) fuzz::violation("the output does not parse: " + again.error.str(), first);
  const std::string reprinted = nr::host::print_program(*again.value);
  if (reprinted != first) fuzz::violation("the output is not a print fixed point", first, reprinted);

  second_run(p, o, "the output");
  second_run(*again.value, o, "the reparsed output");
  return 0;
}
