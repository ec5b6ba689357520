// tests/support/mlir_opt.hpp — the mlir-opt oracle for tests: does real MLIR (LLVM 22) accept a
// printed module? One implementation for every test that checks pass output with mlir-opt.
// The binary comes from $NEURONRW_MLIR_OPT (meson test sets it); when it is absent the check is
// skipped with one note per test executable, so tests still pass on machines without MLIR.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

namespace neuronrw::testing {

/// `mlir-opt --allow-unregistered-dialect --verify-each` accepts `text` (doctest CHECK, with
/// mlir-opt's message and the input on failure).
inline void check_mlir_opt(const std::string& text) {
  namespace fs = std::filesystem;
  const char* bin = std::getenv("NEURONRW_MLIR_OPT");
  if (!bin || !*bin || !fs::exists(bin)) {
    static bool noted = false;
    if (!noted) MESSAGE("mlir-opt not found ($NEURONRW_MLIR_OPT); skipping the mlir-opt checks");
    noted = true;
    return;
  }
  static int counter = 0;
  const auto in = fs::temp_directory_path() /
                  ("neuronrw_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".mlir");
  const auto err = fs::path(in.string() + ".err");
  std::ofstream(in, std::ios::binary) << text;
  const std::string cmd = std::string(bin) + " --allow-unregistered-dialect --verify-each '" + in.string() +
                          "' -o /dev/null 2>'" + err.string() + "'";
  const int rc = std::system(cmd.c_str());
  std::ifstream e(err);
  const std::string msg((std::istreambuf_iterator<char>(e)), std::istreambuf_iterator<char>());
  INFO("mlir-opt: " << msg << "\ninput:\n" << text);
  CHECK(rc == 0);
  fs::remove(in);
  fs::remove(err);
}

}  // namespace neuronrw::testing
