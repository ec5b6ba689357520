// Pipelines round-trip (examples/neuronrw-opt/pipeline.hpp): every option value the parser
// accepts, on a pass flag or inside a pipeline's `{...}`, prints back (`--dump-pass-pipeline`'s
// text) in a form the parser accepts again, with the same values, and printing that again gives
// the same text. A property test over random option texts drawn from the bytes that matter to the
// syntax (both quote kinds, braces, parentheses, commas, '=', whitespace, UTF-8), on every option
// of every registered pass, plus the red team's case: `fusion-kind={a"b'c}`.
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline.hpp"
#include "registry.hpp"
#include "support/checks.hpp"

namespace {

using namespace neuronrw_opt;
neuronrw::testing::checks check;

/// The pipeline text of `--dump-pass-pipeline`'s output (its first line is the header).
std::string pipeline_text_of_dump(const pipeline& p) {
  const std::string dump = dump_pipeline(p);
  return dump.substr(dump.find('\n') + 1);
}

/// Parses the dump of `p` again: empty when it parsed to the same values (those given; one not
/// given prints as what it stands for) and prints the same.
std::string round_trip_problem(const pipeline& p) {
  const std::string text = pipeline_text_of_dump(p);
  pipeline again;
  if (auto e = parse_pipeline(text, again)) return "the printed pipeline is refused: " + e->message + "\n" + text;
  if (again.passes.size() != p.passes.size()) return "another number of passes:\n" + text;
  for (std::size_t i = 0; i < p.passes.size(); ++i) {
    if (again.passes[i].spec != p.passes[i].spec) return "another pass:\n" + text;
    for (std::size_t k = 0; k < p.passes[i].values.size(); ++k)
      if (p.passes[i].explicitly_set[k] && again.passes[i].values[k] != p.passes[i].values[k])
        return "option '" + std::string(p.passes[i].spec->options[k].name) + "' reads back as '" +
               again.passes[i].values[k] + "', not '" + p.passes[i].values[k] + "':\n" + text;
  }
  if (pipeline_text_of_dump(again) != text) return "printing it again differs:\n" + text + "\n" + pipeline_text_of_dump(again);
  return {};
}

/// A random option text over the bytes the syntax gives a meaning to.
std::string random_text(std::mt19937_64& rng) {
  static constexpr std::string_view pieces[] = {"\"", "'", "{", "}", "(", ")", ",", "=", " ", "\t", "\n", "a",
                                                "b", "Kind", ".", "-", "_", "0", "7", "\xc3\xa9", "\\", "}}"};
  std::string s;
  const std::size_t n = rng() % 9;
  for (std::size_t i = 0; i < n; ++i) s += pieces[rng() % std::size(pieces)];
  return s;
}

struct tally {
  std::size_t tried = 0, accepted = 0, failures = 0;
  std::string first_failure;
  void fail(std::string why) {
    if (failures++ == 0) first_failure = std::move(why);
  }
};

}  // namespace

int main() {
  const pass_registry& reg = default_registry();

  // The red team's value: both quote kinds, in braces, on a pass flag. Accepted, it prints back
  // in braces and reads back the same.
  {
    pass_instance inst = make_instance(*reg.find("schedule-fusion"));
    const auto e = parse_options("fusion-kind={a\"b'c}", 1, true, inst);
    check("fusion-kind={a\"b'c} is accepted on a pass flag", !e, e ? e->message : "");
    check("it holds a\"b'c", inst.str("fusion-kind") == "a\"b'c", inst.str("fusion-kind"));
    check("it prints in braces", print_pass(inst).find("fusion-kind={a\"b'c}") != std::string::npos, print_pass(inst));
    pipeline p;
    p.passes.push_back(inst);
    const std::string why = round_trip_problem(p);
    check("its dumped pipeline reads back the same", why.empty(), why);
    // Inside a pipeline too: the quotes inside the braces are not quotes of the pipeline.
    pipeline q;
    const auto e2 = parse_pipeline("builtin.module(schedule-fusion{fusion-kind={a\"b'c} budget=3})", q);
    check("the same value inside a pipeline's options is accepted", !e2, e2 ? e2->message : "");
    if (!e2) check("  with budget=3 after it", q.passes[0].str("budget") == "3", q.passes[0].str("budget"));
  }
  // A value no form can hold is refused where it is read, with the reason.
  {
    pass_instance inst = make_instance(*reg.find("schedule-fusion"));
    const auto e = parse_options("fusion-kind=a\"b'c}", 1, false, inst);
    check("a bare a\"b'c} (both quotes, an unmatched brace) is refused", e.has_value());
    if (e)
      check("  at its value, saying why", e->col == 13 && e->message.find("both quote kinds and unbalanced braces") != std::string::npos,
            std::to_string(e->col) + ": " + e->message);
  }
  // A misspelt pass name with a non-ASCII letter is quoted whole.
  {
    pipeline p;
    const auto e = parse_pipeline("builtin.module(sch\xc3\xa9" "dule-fusion)", p);
    check("'schédule-fusion' is refused, named whole",
          e && e->message == "'sch\xc3\xa9" "dule-fusion' does not refer to a registered pass (see --list-passes)",
          e ? e->message : "accepted");
  }

  // The property: random texts for every option of every pass, on a pass flag (with and without
  // commas as separators) and inside a pipeline.
  std::mt19937_64 rng(20261204);
  tally flag, braces;
  for (const pass_spec& spec : reg.passes()) {
    const std::string anchor(anchor_of(spec.kind));
    for (const auto& o : spec.options) {
      for (int round = 0; round < 400; ++round) {
        const std::string value = random_text(rng);
        const std::string given = std::string(o.name) + "=" + value;
        // On the pass flag.
        for (bool commas : {false, true}) {
          pass_instance inst(spec);
          ++flag.tried;
          if (parse_options(given, 1, commas, inst)) continue;
          ++flag.accepted;
          pipeline p;
          p.kind = spec.kind;
          p.passes.push_back(inst);
          if (auto why = round_trip_problem(p); !why.empty())
            flag.fail(std::string(spec.name) + " --" + std::string(spec.name) + "='" + given + "'" +
                      (commas ? " (commas)" : "") + ": " + why);
        }
        // Inside a pipeline, followed by another pass.
        const std::string text = anchor + "(" + std::string(spec.name) + "{" + given + "}," + std::string(spec.name) + ")";
        pipeline p;
        ++braces.tried;
        if (parse_pipeline(text, p)) continue;
        ++braces.accepted;
        if (p.passes.size() != 2) {
          braces.fail(text + ": read as " + std::to_string(p.passes.size()) + " passes");
          continue;
        }
        if (auto why = round_trip_problem(p); !why.empty()) braces.fail(text + ": " + why);
      }
    }
  }
  check("pass flags: every accepted value round-trips (" + std::to_string(flag.accepted) + " of " +
            std::to_string(flag.tried) + " accepted)",
        flag.failures == 0, flag.first_failure);
  check("pipelines: every accepted value round-trips (" + std::to_string(braces.accepted) + " of " +
            std::to_string(braces.tried) + " accepted)",
        braces.failures == 0, braces.first_failure);
  // The property is not vacuous: both readers accepted a good share, and refused some.
  check("the random texts reach both outcomes on pass flags", flag.accepted > flag.tried / 10 && flag.accepted < flag.tried,
        std::to_string(flag.accepted));
  check("the random texts reach both outcomes in pipelines",
        braces.accepted > braces.tried / 20 && braces.accepted < braces.tried, std::to_string(braces.accepted));
  return check.done();
}
