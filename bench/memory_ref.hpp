// bench/memory_ref.hpp — the reference-IR half of bench/memory_bench.cpp, compiled apart
// (bench/memory_ref.cpp, without MLIR's -fno-exceptions: the reference parser reports errors by
// throwing internally), so the MLIR translation unit includes no reference-IR header.
#pragma once

#include <cstddef>
#include <string>

namespace bench_support::memory {

/// Bytes the allocator has handed out and not taken back (glibc mallinfo2: uordblks, the arenas'
/// chunks in use, plus hblkhd, the chunks mmap'ed on their own), over every arena.
std::size_t heap_in_use();

/// The printed text of bench/synthetic_function.hpp's function of `n_ops` ops.
std::string synthetic_text(std::size_t n_ops);

/// What one parse of a text into the reference IR holds.
struct held {
  std::size_t bytes = 0;  ///< heap_in_use() with the module alive minus before the parse
  std::size_t ops = 0;    ///< ops of the module (its body's ops and theirs, recursively)
  std::string error;      ///< non-empty: the parse failed (the diagnostic)
};

/// Parses `text` with ref::parse (file name "synthetic.mlir") and measures the module it returns
/// (the parser's temporaries are freed by then), then frees it.
held parse_ref(const std::string& text);

}  // namespace bench_support::memory
