// examples/custom_ir/mini_ir.hpp — stands for *your* compiler's IR: its own structs and
// containers, written with no thought of neuronrw. Instructions live in a std::list per block
// (stable addresses, O(1) splicing), values know their users, a fusion owns a nested body block.
// Nothing here includes or mentions neuronrw: custom_ir_traits.hpp adapts it from the outside.
#pragma once

#include <algorithm>
#include <functional>
#include <iterator>
#include <list>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace mini {

struct Instr;
struct Block;

/// An SSA value: an instruction result (`def` set) or a block parameter (`def` null).
struct Value {
  std::string name;   // "%g"
  std::string shape;  // "f32[16,8]"
  Instr* def = nullptr;
  Block* param_of = nullptr;
  std::vector<Instr*> users;  // one entry per use
};

/// A straight-line list of instructions with parameters; `owner` is the instruction whose body
/// it is (null for a function's entry block).
struct Function;

struct Block {
  std::list<Instr> instrs;
  std::vector<std::unique_ptr<Value>> params;
  Instr* owner = nullptr;
  Function* function = nullptr;  // set on a function's entry block only
};

struct Instr {
  std::string opcode;                               // "all-gather", "dot", "fusion", "return", ...
  std::vector<Value*> operands;
  std::vector<std::unique_ptr<Value>> results;
  std::vector<std::pair<std::string, std::string>> attrs;  // printed verbatim
  std::unique_ptr<Block> body;                      // fusions only
  Block* parent = nullptr;
  std::list<Instr>::iterator self;                  // its position in parent->instrs

  void set_operand(std::size_t i, Value* v) {
    auto& us = operands[i]->users;
    us.erase(std::find(us.begin(), us.end(), this));
    operands[i] = v;
    v->users.push_back(this);
  }
};

struct Function {
  std::string name;
  Block entry;
  int fusion_count = 0;  // names new fusions uniquely within the function

  Function() { entry.function = this; }
  Function(const Function&) = delete;  // the entry block points back at its function
  Function& operator=(const Function&) = delete;
};

/// The function an instruction belongs to (through the bodies that enclose it).
inline Function& function_of(const Instr& i) {
  const Block* b = i.parent;
  while (b->owner) b = b->owner->parent;
  return *b->function;
}

struct Module {
  std::vector<std::unique_ptr<Function>> functions;
  // The compiler's undo log, as a rewriter keeps one: while `transactions` > 0, each rewrite
  // pushes how to undo itself; rolling back runs them newest first.
  std::vector<std::function<void()>> undo_log;
  int transactions = 0;
};

/// Appends an instruction to `b` (before `before` when given).
inline Instr& emit(Block& b, std::string opcode, std::vector<Value*> operands,
                   std::vector<std::pair<std::string, std::string>> result_names_and_shapes = {},
                   std::vector<std::pair<std::string, std::string>> attrs = {}, Instr* before = nullptr) {
  auto it = b.instrs.emplace(before ? before->self : b.instrs.end());
  Instr& i = *it;
  i.self = it;
  i.parent = &b;
  i.opcode = std::move(opcode);
  i.attrs = std::move(attrs);
  i.operands = std::move(operands);
  for (Value* v : i.operands) v->users.push_back(&i);
  for (auto& [name, shape] : result_names_and_shapes)
    i.results.push_back(std::make_unique<Value>(Value{name, shape, &i, nullptr, {}}));
  return i;
}

inline Value& add_param(Block& b, std::string name, std::string shape) {
  b.params.push_back(std::make_unique<Value>(Value{std::move(name), std::move(shape), nullptr, &b, {}}));
  return *b.params.back();
}

/// The compiler's own text form (HLO-flavoured).
inline void print_block(std::ostream& os, const Block& b, int indent) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  for (const Instr& i : b.instrs) {
    os << pad;
    for (std::size_t k = 0; k < i.results.size(); ++k) os << (k ? ", " : "") << i.results[k]->name;
    if (!i.results.empty()) os << " = ";
    os << i.opcode << "(";
    for (std::size_t k = 0; k < i.operands.size(); ++k) os << (k ? ", " : "") << i.operands[k]->name;
    os << ")";
    for (auto& [k, v] : i.attrs) os << " " << k << "=" << v;
    if (!i.results.empty()) {
      os << " : ";
      for (std::size_t k = 0; k < i.results.size(); ++k) os << (k ? ", " : "") << i.results[k]->shape;
    }
    if (i.body) {
      os << " {\n" << pad << "  params(";
      for (std::size_t k = 0; k < i.body->params.size(); ++k)
        os << (k ? ", " : "") << i.body->params[k]->name << ": " << i.body->params[k]->shape;
      os << ")\n";
      print_block(os, *i.body, indent + 2);
      os << pad << "}";
    }
    os << "\n";
  }
}

inline void print(std::ostream& os, const Function& f) {
  os << "func " << f.name << "(";
  for (std::size_t k = 0; k < f.entry.params.size(); ++k)
    os << (k ? ", " : "") << f.entry.params[k]->name << ": " << f.entry.params[k]->shape;
  os << ") {\n";
  print_block(os, f.entry, 2);
  os << "}\n";
}

}  // namespace mini
