// The mlir-opt oracle: every corpus file, printed by the reference printer, is accepted by
// `mlir-opt --allow-unregistered-dialect --verify-each` (LLVM 22). When mlir-opt is absent the
// test prints `SKIPPED: mlir-opt not found at <path>` and exits 77 (meson's "skipped").
#define DOCTEST_CONFIG_IMPLEMENT
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>

#include <doctest/doctest.h>

#include "support/files.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;
namespace ref = neuronrw::ref;

namespace {

std::string mlir_opt_path() {
  const char* p = std::getenv("NEURONRW_MLIR_OPT");
  return p != nullptr && *p != '\0' ? p : "/usr/lib/llvm-22/bin/mlir-opt";
}

using neuronrw::testing::corpus_dir;
using neuronrw::testing::read_file;

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct run_result {
  int status = -1;
  std::string output;
};

/// Runs mlir-opt on `file`, capturing stdout and stderr.
run_result run_mlir_opt(const fs::path& file) {
  const auto cmd = shell_quote(mlir_opt_path()) + " --allow-unregistered-dialect --verify-each " +
                   shell_quote(file.string()) + " 2>&1";
  run_result r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  r.status = pclose(pipe);
  return r;
}

}  // namespace

TEST_CASE("mlir-opt accepts every printed corpus file") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(corpus_dir()))
    if (e.is_regular_file() && e.path().extension() == ".mlir") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 15);

  const auto tmp = fs::temp_directory_path() / ("neuronrw_oracle_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  for (const auto& f : files) {
    const auto name = f.filename().string();
    CAPTURE(name);
    auto r = ref::parse(read_file(f), name);
    INFO(r.error.str());
    REQUIRE(r.ok());
    for (auto o : {ref::print_options{}, ref::print_options{.use_name_hints = false}}) {
      const auto printed = ref::print(*r.value, o);
      const auto out = tmp / name;
      std::ofstream(out, std::ios::binary) << printed;
      const auto run = run_mlir_opt(out);
      INFO("printed text:\n" << printed);
      INFO("mlir-opt output:\n" << run.output);
      CHECK(run.status == 0);
    }
  }
  fs::remove_all(tmp);
}

int main(int argc, char** argv) {
  const auto path = mlir_opt_path();
  if (!fs::exists(path)) {
    std::cout << "SKIPPED: mlir-opt not found at " << path << std::endl;
    return 77;
  }
  std::cout << "oracle: " << path << std::endl;
  doctest::Context context;
  context.applyCommandLine(argc, argv);
  return context.run();
}
