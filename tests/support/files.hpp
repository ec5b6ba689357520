// tests/support/files.hpp — reading the tests' input files: a whole file as bytes, the corpus
// directory meson test names, and the sorted files of a directory with one extension.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace neuronrw::testing {

/// The whole file, byte for byte ("" when it cannot be read: the caller's comparison fails).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// tests/corpus: $NEURONRW_CORPUS_DIR (meson test sets it), else `tests/corpus` relative to the
/// working directory (a run from the source root).
inline std::filesystem::path corpus_dir() {
  const char* d = std::getenv("NEURONRW_CORPUS_DIR");
  return d != nullptr ? std::filesystem::path(d) : std::filesystem::path("tests/corpus");
}

/// The regular files directly in `dir` whose extension is `ext` (with its dot: ".mlir"), sorted
/// by path; none when `dir` is not a directory.
inline std::vector<std::filesystem::path> files_with_extension(const std::filesystem::path& dir,
                                                               std::string_view ext) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Each diagnostic's str() on a line of its own: a diagnostics list as one comparable text.
template <class Diagnostics>
std::string join(const Diagnostics& ds) {
  std::string s;
  for (const auto& d : ds) s += d.str() + "\n";
  return s;
}

}  // namespace neuronrw::testing
