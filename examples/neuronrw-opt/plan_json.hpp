// examples/neuronrw-opt/plan_json.hpp — `neuronrw-opt --plan-format=json`: the dry runs' plans as
// JSON documents, the machine-readable twin of the text plans (docs/plan-format.md describes every
// field; docs/plan-schema.json is the JSON Schema the tests validate every plan against).
//
//   std::string schedule_fusion_plan_json(const ref::module&, const ref_schedule_fusion_plan&, file)
//   std::string fusion_to_composite_plan_json(const ref::module&, const ref_fusion_to_composite_plan&, file)
//   std::string comm_domain_plan_json(const host::program&, const host_comm_domain_plan&, file)
//
// Each takes the IR the plan was made on (unchanged since: the plan's handles point into it) and
// the input's name as the driver reports it in diagnostics (`file` of every location). The result
// is one JSON document in json_writer.hpp's fixed layout, ending in a newline: the same plan gives
// the same bytes. Every document starts with {"format": "neuronrw-plan", "version": 1, "pass":
// ..., "file": ...}; refusals carry the same code spellings as the text plans (the enums'
// to_string) and the same reason text, so a program can match on codes and a person still reads
// the sentence the text plan prints.
//
// Customization points: none (the reference IR and the reference host IR only).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/traits.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/plan_printer.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>

#include "json_writer.hpp"

namespace neuronrw_opt {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;
namespace host = neuronrw::host;

using ref_fusion_to_composite_plan = nr::fusion_to_composite_plan<ref::op_ref>;
using host_comm_domain_plan = nr::comm_domain_plan<host::program>;
using host_allreduce_signal_plan = nr::allreduce_signal_plan<host::program>;

/// The `version` of the documents this header writes; it changes when a field changes meaning or
/// disappears (new fields may appear without a version change: docs/plan-format.md).
inline constexpr int plan_format_version = 1;

// ---------------------------------------------------------------- names of the plans' enums
// The spellings the documents use, one place each; plan_json_enums lists them all for the test
// that keeps docs/plan-schema.json's enums equal to them. The switches have no default, so a new
// enumerator is a -Wswitch error here until it has a spelling.

inline std::string_view to_json_name(nr::move_position p) {
  switch (p) {
    case nr::move_position::before: return "before";
    case nr::move_position::after: return "after";
  }
  return "unknown";
}

inline std::string_view to_json_name(nr::f2c_skip_reason r) {
  switch (r) {
    case nr::f2c_skip_reason::gen_composite: return "gen_composite";
  }
  return "unknown";
}

inline std::string_view to_json_name(host_allreduce_signal_plan::form f) {
  using form = host_allreduce_signal_plan::form;
  switch (f) {
    case form::assign: return "assign";
    case form::expr_stmt: return "expr_stmt";
    case form::ret: return "return";
  }
  return "unknown";
}

inline std::string_view to_json_name(host_comm_domain_plan::status s) {
  using status = host_comm_domain_plan::status;
  switch (s) {
    case status::materialize: return "materialize";
    case status::no_allocs: return "no_allocs";
    case status::already_materialized: return "already_materialized";
    case status::failed: return "failed";
  }
  return "unknown";
}

namespace plan_json_detail {

/// Every spelling of a uint8_t-based enum, in enumerator order: the enumerators are numbered from
/// 0 without gaps, and `name` answers "unknown" past the last one.
template <class Enum, class Name>
json_value enum_names(Name name) {
  json_value a = json_value::array();
  for (unsigned i = 0; i < 256; ++i) {
    const std::string_view n = name(static_cast<Enum>(i));
    if (n == "unknown") break;
    a.push(n);
  }
  return a;
}

inline json_value loc_json(std::string_view file, nr::source_loc l) {
  if (!l.known()) return nullptr;
  json_value o = json_value::object();
  o.set("file", file);
  o.set("line", l.line);
  o.set("col", l.col);
  return o;
}

inline json_value header(std::string_view pass, std::string_view file) {
  json_value d = json_value::object();
  d.set("format", "neuronrw-plan");
  d.set("version", plan_format_version);
  d.set("pass", pass);
  d.set("file", file);
  return d;
}

// ------------------------------------------------------------------------------ reference IR

/// {"name", "result", "loc"}: the op's name, `%hint` of its results (null when it has none or
/// they are unnamed), its position in `file` (null when unknown). The null op is null.
inline json_value op_json(const ref::module& m, ref::op_ref o, std::string_view file) {
  if (!o.valid()) return nullptr;
  json_value j = json_value::object();
  j.set("name", m.name(o));
  const std::string_view hint = m.name_hint(o);
  j.set("result", m.num_results(o) > 0 && !hint.empty() ? json_value("%" + std::string(hint)) : json_value());
  j.set("loc", loc_json(file, m.loc(o)));
  return j;
}

/// A walked root's function: its symbol without '@', null for a root no function owns.
inline json_value function_json(const ref::module& m, ref::op_ref owner) {
  if (owner.valid() && m.is_function(owner)) return m.function(owner).sym_name;
  return nullptr;
}

inline json_value ops_json(const ref::module& m, const std::vector<ref::op_ref>& ops, std::string_view file) {
  json_value a = json_value::array();
  for (auto o : ops) a.push(op_json(m, o, file));
  return a;
}

/// The reason a schedule-fusion refusal prints after its code in the text plan
/// (passes/schedule_fusion/describe.hpp), word for word.
inline std::string schedule_reason(const ref::module& m, const nr::ref_schedule_fusion_plan& p,
                                   const nr::ref_schedule_fusion_plan::refusal_record& r) {
  const ref::plan_printer pr{m};
  using code = nr::schedule_refusal;
  switch (r.code) {
    case code::no_producer_operand:
    case code::budget_exceeded: return r.message;
    case code::already_fused: return "already inside " + pr(r.op);
    case code::producer_claimed: return pr(r.op) + " belongs to cluster " + std::to_string(r.cluster);
    case code::different_block: return pr(r.op) + " is in another block";
    case code::non_convex: return pr(r.op) + " depends on " + pr(r.path_from) + " and feeds " + pr(r.path_to);
    case code::splits_cluster:
      return "cluster " + std::to_string(r.cluster) + " uses the " + std::string(p.producer_kind) + " and feeds the " +
             std::string(p.consumer_kind) + " through " + pr(r.op);
    case code::reschedule_refused: return std::string(nr::to_string(r.repair)) + " at " + pr(r.op);
  }
  return r.message;
}

// ------------------------------------------------------------------------------------ host IR

/// Names host expressions for op references: the callee of a call as written
/// (`pld.tensor.window`, `self.chip_fn`), a variable reference's variable, a constant's value;
/// `result` is the variable an assignment binds the expression to.
class host_namer {
 public:
  explicit host_namer(const host::program& p) {
    for (const auto& f : p.functions) index(f->body);
  }

  json_value op(const host::expr* e, std::string_view file) const {
    if (!e) return nullptr;
    json_value j = json_value::object();
    j.set("name", name(*e));
    const auto it = bound_.find(e);
    j.set("result", it != bound_.end() ? json_value(it->second->name) : json_value());
    j.set("loc", loc_json(file, e->loc));
    return j;
  }

 private:
  std::unordered_map<const host::expr*, const host::var*> bound_;

  void index(const std::vector<host::stmt_ptr>& body) {
    for (const auto& s : body) {
      if (s->kind == host::stmt_kind::assign && s->value && s->target) bound_[s->value.get()] = s->target.get();
      index(s->body);
    }
  }

  static std::string name(const host::expr& e) {
    switch (e.kind) {
      case host::expr_kind::var_ref: return e.ref ? e.ref->name : std::string();
      case host::expr_kind::int_const: return e.text.empty() ? std::to_string(e.value) : e.text;
      case host::expr_kind::arith: return "(arithmetic)";
      case host::expr_kind::boolean: return "(condition)";
      case host::expr_kind::float_const: return e.text;
      case host::expr_kind::tuple: return "(...)";
      case host::expr_kind::slice: return ":";
      case host::expr_kind::bool_const: return e.value ? "True" : "False";
      case host::expr_kind::str_const: return e.text;
      case host::expr_kind::symbol: return e.text;
      case host::expr_kind::none: return "None";
      case host::expr_kind::list: return "[...]";
      case host::expr_kind::call: return e.callee == host::callee_kind::op ? e.text : "self." + e.text;
      case host::expr_kind::subscript: return (e.args.empty() || !e.args[0] ? std::string() : name(*e.args[0])) + "[...]";
    }
    return {};
  }
};

/// {"all", "ranges"}: every device, or the closed rank intervals [first, last] (ascending,
/// disjoint); neither = no device yet (the lattice's bottom).
inline json_value coverage_json(const nr::device_coverage& c) {
  json_value j = json_value::object();
  j.set("all", c.is_all());
  json_value ranges = json_value::array();
  if (!c.is_all())
    for (const auto& iv : c.intervals()) ranges.push(json_value::array().push(iv.first).push(iv.last));
  j.set("ranges", std::move(ranges));
  return j;
}

inline json_value index_or_null(std::size_t i, std::size_t none) {
  return i == none ? json_value() : json_value(i);
}

}  // namespace plan_json_detail

/// The ScheduleFusion plan `p`, made on `m` (unchanged since), as a JSON document.
inline std::string schedule_fusion_plan_json(const ref::module& m, const nr::ref_schedule_fusion_plan& p,
                                             std::string_view file) {
  namespace d = plan_json_detail;
  using plan_t = nr::ref_schedule_fusion_plan;
  auto unit_function = [&](std::size_t u) {
    return u < p.units.size() ? d::function_json(m, p.units[u]) : json_value();
  };
  const ref::plan_printer pr{m};

  json_value doc = d::header("schedule-fusion", file);
  json_value pattern = json_value::object();
  pattern.set("fusion_kind", p.fusion_kind);
  pattern.set("producer_kind", p.producer_kind);
  pattern.set("consumer_kind", p.consumer_kind);
  pattern.set("budget", p.budget == nr::unbounded_budget ? json_value() : json_value(p.budget));
  pattern.set("group_op", p.group_op_name);
  pattern.set("terminator", p.terminator_name);
  doc.set("pattern", std::move(pattern));
  doc.set("emit_composites", p.emit_composites);
  doc.set("candidates", p.candidates());

  json_value functions = json_value::array();
  for (auto u : p.units) functions.push(d::function_json(m, u));
  doc.set("functions", std::move(functions));
  json_value skipped = json_value::array();
  for (auto f : p.skipped_functions) {
    json_value s = json_value::object();
    s.set("function", d::function_json(m, f));
    s.set("attribute", p.skip_attribute);
    skipped.push(std::move(s));
  }
  doc.set("skipped_functions", std::move(skipped));

  json_value clusters = json_value::array();
  for (std::size_t i = 0; i < p.clusters.size(); ++i) {
    const auto& c = p.clusters[i];
    json_value j = json_value::object();
    j.set("index", i);
    j.set("candidate", c.candidate);
    j.set("function", unit_function(c.unit));
    j.set("ops", d::ops_json(m, c.ops, file));
    j.set("carried", d::ops_json(m, c.carried, file));
    json_value moves = json_value::array();
    for (const auto& mv : c.moves) {
      json_value o = json_value::object();
      o.set("op", d::op_json(m, mv.op, file));
      o.set("position", to_json_name(mv.where));
      o.set("anchor", d::op_json(m, mv.anchor, file));
      moves.push(std::move(o));
    }
    j.set("moves", std::move(moves));
    json_value ins = json_value::array(), outs = json_value::array();
    for (auto v : c.live_ins) ins.push(pr.value(v));
    for (auto v : c.live_outs) outs.push(pr.value(v));
    j.set("live_ins", std::move(ins));
    j.set("live_outs", std::move(outs));
    j.set("walked", c.walked);
    j.set("decomposition", p.emit_composites ? json_value(c.decomposition) : json_value());
    clusters.push(std::move(j));
  }
  doc.set("clusters", std::move(clusters));
  doc.set("composite_order", json_value::array_of(p.composite_order));

  json_value refusals = json_value::array();
  for (const auto& r : p.refused) {
    json_value j = json_value::object();
    j.set("code", nr::to_string(r.code));
    j.set("op", d::op_json(m, r.op, file));
    j.set("message", d::schedule_reason(m, p, r));
    j.set("candidate", r.candidate);
    j.set("function", unit_function(r.unit));
    j.set("consumer", d::op_json(m, r.consumer, file));
    j.set("cluster", d::index_or_null(r.cluster, plan_t::none));
    j.set("path_from", d::op_json(m, r.path_from, file));
    j.set("path_to", d::op_json(m, r.path_to, file));
    j.set("repair", r.code == nr::schedule_refusal::reschedule_refused ? json_value(nr::to_string(r.repair))
                                                                         : json_value());
    refusals.push(std::move(j));
  }
  doc.set("refusals", std::move(refusals));
  return doc.dump();
}

/// The FusionToComposite plan `p`, made on `m` (unchanged since), as a JSON document.
inline std::string fusion_to_composite_plan_json(const ref::module& m, const ref_fusion_to_composite_plan& p,
                                                 std::string_view file) {
  namespace d = plan_json_detail;
  json_value doc = d::header("fusion-to-composite", file);
  doc.set("ok", p.ok());
  doc.set("composite_op", p.composite_op_name);
  json_value skipped = json_value::array();
  for (const auto& f : p.skipped_functions) {
    json_value s = json_value::object();
    s.set("function", d::function_json(m, f.function));
    s.set("reason", to_json_name(f.reason));
    skipped.push(std::move(s));
  }
  doc.set("skipped_functions", std::move(skipped));
  doc.set("skipped_names", json_value::array_of(p.skipped_names));
  json_value conversions = json_value::array();
  for (const auto& c : p.conversions) {
    json_value j = json_value::object();
    j.set("fusion", d::op_json(m, c.fusion, file));
    j.set("function", d::function_json(m, c.function));
    j.set("composite_kind", c.composite_kind);
    j.set("kind_defaulted", c.kind_defaulted);
    j.set("composite_name", nr::composite_schema::composite_name);
    j.set("decomposition", c.decomposition);
    conversions.push(std::move(j));
  }
  doc.set("conversions", std::move(conversions));
  json_value refusals = json_value::array();
  for (const auto& r : p.refused) {
    json_value j = json_value::object();
    j.set("code", nr::to_string(r.code));
    j.set("op", d::op_json(m, r.op, file));
    j.set("message", r.message);
    refusals.push(std::move(j));
  }
  doc.set("refusals", std::move(refusals));
  return doc.dump();
}

/// The MaterializeCommDomainScopes plan `p`, made on `prog` (unchanged since), as a JSON document.
/// A plan with refusals is written too (`ok` false, the functions at fault `failed`); the driver
/// prints such a plan's diagnostics instead and exits 1.
inline std::string comm_domain_plan_json(const host::program& prog, const host_comm_domain_plan& p,
                                         std::string_view file) {
  namespace d = plan_json_detail;
  using plan_t = host_comm_domain_plan;
  const d::host_namer namer(prog);
  auto buffer_ref = [](std::size_t i) { return d::index_or_null(i, plan_t::npos); };

  json_value doc = d::header("materialize-comm-domain-scopes", file);
  doc.set("ok", p.ok());
  json_value functions = json_value::array();
  for (const auto& f : p.functions) {
    json_value fj = json_value::object();
    fj.set("name", f.name);
    fj.set("status", to_json_name(f.state));
    json_value buffers = json_value::array();
    for (const auto& a : f.allocs) {
      json_value j = json_value::object();
      j.set("name", a.name);
      j.set("op", namer.op(a.call, file));
      j.set("views", json_value::array_of(a.views));
      j.set("devices", d::coverage_json(a.coverage));
      // A failed function's scopes are dropped; an index into them would dangle.
      j.set("scope", a.scope < f.scopes.size() ? json_value(a.scope) : json_value());
      buffers.push(std::move(j));
    }
    fj.set("buffers", std::move(buffers));
    json_value views = json_value::array();
    for (const auto& v : f.views) {
      json_value j = json_value::object();
      j.set("op", namer.op(v.call, file));
      j.set("buffer", buffer_ref(v.alloc));
      views.push(std::move(j));
    }
    fj.set("views", std::move(views));
    json_value dispatches = json_value::array();
    for (const auto& x : f.dispatches) {
      json_value j = json_value::object();
      j.set("callee", x.callee);
      j.set("op", namer.op(x.call, file));
      j.set("devices", d::coverage_json(x.devices));
      j.set("buffers", json_value::array_of(x.allocs));
      dispatches.push(std::move(j));
    }
    fj.set("dispatches", std::move(dispatches));
    json_value collectives = json_value::array();
    for (const auto& c : f.collectives) {
      json_value j = json_value::object();
      j.set("op", namer.op(c.call, file));
      j.set("target", buffer_ref(c.target));
      j.set("inheritors", json_value::array_of(c.inheritors));
      collectives.push(std::move(j));
    }
    fj.set("collectives", std::move(collectives));
    json_value scopes = json_value::array();
    for (const auto& s : f.scopes) {
      json_value j = json_value::object();
      j.set("name", s.name);
      j.set("all_devices", s.coverage.is_all());
      j.set("devices", json_value::array_of(s.devices));
      j.set("slots", json_value::array_of(s.allocs));
      scopes.push(std::move(j));
    }
    fj.set("scopes", std::move(scopes));
    functions.push(std::move(fj));
  }
  doc.set("functions", std::move(functions));
  json_value refusals = json_value::array();
  for (const auto& r : p.refused) {
    json_value j = json_value::object();
    j.set("code", nr::to_string(r.code));
    j.set("op", namer.op(r.op, file));
    j.set("message", r.pypto_message());  // pypto's text, as the located error says it
    j.set("loc", d::loc_json(file, r.loc));
    refusals.push(std::move(j));
  }
  doc.set("refusals", std::move(refusals));
  json_value remarks = json_value::array();
  for (const auto& r : p.remarks) {
    json_value j = json_value::object();
    j.set("message", r.message);
    j.set("loc", d::loc_json(file, r.loc));
    remarks.push(std::move(j));
  }
  doc.set("remarks", std::move(remarks));
  json_value unmodeled = json_value::array();
  for (const auto& u : p.unmodeled) {
    json_value j = json_value::object();
    j.set("op", u.first);
    j.set("loc", d::loc_json(file, u.second));
    unmodeled.push(std::move(j));
  }
  doc.set("unmodeled", std::move(unmodeled));
  return doc.dump();
}

/// The SynthesizeAllReduceSignals plan `p`, made on `prog` (unchanged since), as a JSON document.
inline std::string allreduce_signal_plan_json(const host::program& prog, const host_allreduce_signal_plan& p,
                                              std::string_view file) {
  namespace d = plan_json_detail;
  const d::host_namer namer(prog);
  json_value doc = d::header("synthesize-allreduce-signals", file);
  doc.set("ok", p.ok());
  json_value rewrites = json_value::array();
  for (const auto& r : p.rewrites) {
    json_value j = json_value::object();
    j.set("function", r.function);
    j.set("op", namer.op(r.call, file));
    j.set("form", to_json_name(r.where));
    j.set("synthesize", r.synthesize);
    j.set("core_num", r.core_num);
    j.set("world_size", r.synthesize ? json_value(r.world_size_name) : json_value());
    j.set("buffer", r.synthesize ? json_value(r.buffer_name) : json_value());
    j.set("signal", r.synthesize ? json_value(r.signal_name) : json_value());
    j.set("result", r.result_name.empty() ? json_value() : json_value(r.result_name));
    rewrites.push(std::move(j));
  }
  doc.set("rewrites", std::move(rewrites));
  json_value refusals = json_value::array();
  for (const auto& r : p.refused) {
    json_value j = json_value::object();
    j.set("code", nr::to_string(r.code));
    j.set("op", namer.op(r.op, file));
    j.set("message", r.message);
    j.set("loc", d::loc_json(file, r.loc));
    refusals.push(std::move(j));
  }
  doc.set("refusals", std::move(refusals));
  return doc.dump();
}

/// Every enum spelling the documents can hold, by enum: {"schedule_refusal": [...], ...}. The
/// schema test compares docs/plan-schema.json's enums with this list.
inline std::string plan_json_enums() {
  namespace d = plan_json_detail;
  json_value j = json_value::object();
  j.set("schedule_refusal", d::enum_names<nr::schedule_refusal>([](auto e) { return nr::to_string(e); }));
  j.set("repair_refusal", d::enum_names<nr::repair_refusal>([](auto e) { return nr::to_string(e); }));
  j.set("move_position", d::enum_names<nr::move_position>([](auto e) { return to_json_name(e); }));
  j.set("f2c_problem_code", d::enum_names<nr::f2c_problem_code>([](auto e) { return nr::to_string(e); }));
  j.set("f2c_skip_reason", d::enum_names<nr::f2c_skip_reason>([](auto e) { return to_json_name(e); }));
  j.set("comm_domain_refusal_code",
        d::enum_names<nr::comm_domain_refusal_code>([](auto e) { return nr::to_string(e); }));
  j.set("comm_domain_status", d::enum_names<host_comm_domain_plan::status>([](auto e) { return to_json_name(e); }));
  j.set("allreduce_signal_refusal_code",
        d::enum_names<nr::allreduce_signal_refusal_code>([](auto e) { return nr::to_string(e); }));
  j.set("allreduce_signal_form", d::enum_names<host_allreduce_signal_plan::form>([](auto e) { return to_json_name(e); }));
  return j.dump();
}

}  // namespace neuronrw_opt
