// fuzz/replay_main.cpp — libFuzzer's reproducer mode as a plain program, so a fuzz target builds
// with any compiler (g++ included) and its regression inputs run as ordinary tests: every
// argument is a file, run once, or a directory, whose files run in name order (subdirectories
// too). Prints how many inputs ran; exit 1 when an argument cannot be read or holds no input. A
// property violation traps (the test fails with SIGILL, after the target printed what differs).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "common.hpp"

namespace {

bool run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return false;
  std::fprintf(stderr, "running %s (%zu bytes)\n", path.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t ran = 0;
  for (int a = 1; a < argc; ++a) {
    const std::filesystem::path arg(argv[a]);
    std::error_code ec;
    std::size_t here = 0;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (auto it = std::filesystem::recursive_directory_iterator(arg, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
      if (ec) {
        std::fprintf(stderr, "%s: error: cannot list: %s\n", argv[a], ec.message().c_str());
        return 1;
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        if (!run_file(f)) {
          std::fprintf(stderr, "%s: error: cannot read\n", f.c_str());
          return 1;
        }
        ++here;
      }
    } else if (run_file(arg)) {
      here = 1;
    } else {
      std::fprintf(stderr, "%s: error: cannot read\n", argv[a]);
      return 1;
    }
    if (here == 0) {
      std::fprintf(stderr, "%s: error: no input\n", argv[a]);
      return 1;
    }
    ran += here;
  }
  std::printf("%zu inputs ran\n", ran);
  return ran == 0 ? 1 : 0;
}
