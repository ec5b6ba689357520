// bench/text_inputs.hpp — the generated texts of the text-format benchmarks (text_bench, and
// text_vs_mlir_opt.py writes the same shapes): tests/driver/gen_large.py's two inputs, built in
// memory.
//   mlir_text(bytes)  reference IR: functions of 40 chained "mhlo.multiply" ops (each with a
//                     string attribute) and a return, until the text reaches `bytes`
//   host_text(bytes)  a host program: a chip function, then host orchestrators of 10 window
//                     allocations, views and device-tagged chip dispatches each
// Each function of mlir_text holds 42 ops (func.func, 40 multiplies, the return).
#pragma once

#include <cstddef>
#include <string>

namespace bench_support {

constexpr std::size_t mlir_ops_per_function = 42;

/// One function of mlir_text, byte for byte gen_large.py's mlir_function(i).
inline void append_mlir_function(std::string& out, std::size_t i) {
  const std::string ty = "tensor<4x8xf32>";
  out += "func.func @f" + std::to_string(i) + "(%a: " + ty + ", %b: " + ty + ") -> " + ty + " {\n";
  std::string prev = "%a";
  for (int j = 0; j < 40; ++j) {
    const std::string v = "%v" + std::to_string(j);
    out += "  " + v + " = \"mhlo.multiply\"(" + prev + ", %b) {note = \"op " + std::to_string(j) + "\"} : (" + ty +
           ", " + ty + ") -> " + ty + "\n";
    prev = v;
  }
  out += "  return " + prev + " : " + ty + "\n}\n";
}

/// Whole functions until the text holds at least `bytes` bytes; `functions` gets their count.
inline std::string mlir_text(std::size_t bytes, std::size_t* functions = nullptr) {
  std::string out;
  out.reserve(bytes + 4096);
  std::size_t i = 0;
  while (out.size() < bytes) append_mlir_function(out, i++);
  if (functions != nullptr) *functions = i;
  return out;
}

/// One orchestrator of host_text, byte for byte gen_large.py's host_function(i).
inline void append_host_function(std::string& out, std::size_t i) {
  out += " @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n def main" + std::to_string(i) + "(self):\n";
  for (int j = 0; j < 10; ++j) {
    const std::string b = "buf" + std::to_string(j), v = "v" + std::to_string(j);
    out += "  " + b + " = pld.tensor.alloc_window_buffer(64, name=\"" + b + "\")\n";
    out += "  " + v + " = pld.tensor.window(" + b + ", [16], dtype=pl.FP32)\n";
    out += "  for r in pl.range(" + std::to_string(j + 2) + "):\n";
    out += "   self.chip(" + v + ", device=r)\n";
  }
}

/// The program header and whole orchestrators until the text holds at least `bytes` bytes.
inline std::string host_text(std::size_t bytes) {
  std::string out =
      "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.program\nclass Big:\n"
      " @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      " def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n  return a\n";
  out.reserve(bytes + 4096);
  std::size_t i = 0;
  while (out.size() < bytes) append_host_function(out, i++);
  return out;
}

}  // namespace bench_support
