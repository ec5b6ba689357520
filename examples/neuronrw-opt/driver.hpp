// driver.hpp — one run of neuronrw-opt over its input: read it, cut it into chunks
// (--split-input-file), and for each chunk parse, verify, run the pipeline (verifying after every
// pass), and print; diagnostics are rendered with their source line and caret, or checked
// against the chunk's expected-* comments (--verify-diagnostics). The output is written only when
// the whole run succeeded (write_output: through a temporary file and a rename, so a failed write
// never leaves a partial file; devices, FIFOs and hard-linked files in place; symbolic links
// written through).
//
// Exit codes: 0 success; 1 an input, pass or verification error (or a --verify-diagnostics
// mismatch); 2 a usage error (cli.hpp).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/python_emitter.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include "cli.hpp"
#include "diagnostics_render.hpp"
#include "instrumentation.hpp"
#include "passes.hpp"
#include "progress.hpp"
#include "split_input.hpp"
#include "verify_diagnostics.hpp"

#if __has_include(<boost/graph/graphviz.hpp>)
#include "emit_dot.hpp"
#define NEURONRW_OPT_HAVE_DOT 1
#else
#define NEURONRW_OPT_HAVE_DOT 0
#endif

namespace neuronrw_opt {

/// What stays the same across the chunks of one run.
struct run_env {
  const options& opt;
  const source_text& src;
  std::ostream& err;
  progress& prog;
  diagnostic_verifier* verifier = nullptr;  ///< --verify-diagnostics: the current chunk's
  std::string where;                        ///< " (chunk 2/5)" for progress lines, or empty
  bool failed = false;                      ///< an error was reported in the current chunk
  /// The program of a host file holding several (nr::host::locate_programs), or null: the whole
  /// chunk is the program.
  const neuronrw::host::program_location* program = nullptr;
  std::shared_ptr<const neuronrw::kind_map> kinds = nullptr;  ///< --kinds=FILE's table, or null

  void emit(diagnostic d) {
    if (d.sev == severity::error) failed = true;
    prog.write([&] {
      if (verifier) verifier->process(d);
      else render(err, d, &src);
    });
  }
  void emit_all(const neuronrw::diagnostics& ds) {
    for (const auto& d : ds) emit(d);
  }
  /// Instrumentation output (IR dumps, reports).
  void info(const std::string& text) {
    prog.write([&] { err << text; });
  }
};

/// The most output one input (or one --split-input-file chunk) of `input_bytes` bytes may print
/// (docs/driver.md §"Output size"): 64 bytes per input byte plus 1 MiB. The passes bound what they
/// build (comm_domain_options' device and domain limits, the parsers' nesting limits); this bounds
/// what is printed, so a small input cannot demand hundreds of megabytes whatever produced them.
inline constexpr std::uint64_t max_output_per_input_byte = 64;
inline constexpr std::uint64_t max_output_slack = std::uint64_t{1} << 20;
inline constexpr std::uint64_t max_output_bytes(std::uint64_t input_bytes) noexcept {
  return input_bytes > (UINT64_MAX - max_output_slack) / max_output_per_input_byte
             ? UINT64_MAX
             : input_bytes * max_output_per_input_byte + max_output_slack;
}

namespace driver_detail {

namespace nr = neuronrw;

/// The input kinds' parsing, verification and printing.
template <input_kind K>
struct doc_ops;

template <>
struct doc_ops<input_kind::mlir> {
  using doc = nr::ref::module;
  static std::optional<doc> parse(run_env& env, std::string_view text, std::uint32_t first_line) {
    nr::ref::parse_options po;
    po.first_line = first_line;
    auto r = nr::ref::parse(text, env.src.name(), po);
    if (!r.ok()) {
      env.emit(r.error);
      return std::nullopt;
    }
    return std::move(r.value);
  }
  static nr::diagnostics verify(const doc& m) { return nr::ref::verify(m); }
  static std::string print(const doc& m, const options& o) {
    nr::ref::print_options po;
    po.use_name_hints = o.name_hints;
    po.print_locations = o.print_locations;
    if (o.print_generic) po.forms = nr::ref::op_forms::generic;
    else if (o.print_custom) po.forms = nr::ref::op_forms::custom;
    return nr::ref::print(m, po);
  }
};

template <>
struct doc_ops<input_kind::host> {
  using doc = nr::host::program;
  static std::optional<doc> parse(run_env& env, std::string_view text, std::uint32_t first_line) {
    auto r = env.program != nullptr ? nr::host::parse_program(text, env.src.name(), *env.program)
                                    : nr::host::parse_program(text, env.src.name(), first_line);
    if (!r.ok()) {
      env.emit(r.error);
      return std::nullopt;
    }
    for (const auto& w : r.warnings) env.emit(w);  // severity::warning
    return std::move(*r.value);
  }
  static nr::diagnostics verify(const doc& p) { return nr::check_comm_domain_scopes(p); }
  static std::string print(const doc& p, const options&) { return nr::host::print_program(p); }
};

/// The plan --emit-dot=before draws: the first pass of the pipeline that draws one (ScheduleFusion,
/// driver_extension in passes.hpp), planned on the input.
inline std::optional<nr::ref_schedule_fusion_plan> dot_before_plan(const nr::ref::module& m, const pipeline& pipe) {
  for (const auto& p : pipe.passes)
    if (p.spec->plan_for_dot) return p.spec->plan_for_dot(m, p);
  return std::nullopt;
}

}  // namespace driver_detail

/// Processes one chunk (or the whole input), `text`, whose first line is line `first_line` of the
/// input: its output, or nothing when it failed.
template <input_kind K>
std::optional<std::string> run_chunk(run_env& env, std::string_view text, std::uint32_t first_line = 1) {
  using ops = driver_detail::doc_ops<K>;
  const options& opt = env.opt;
  timing_report timing;
  std::vector<pass_statistics> statistics;
  auto finish = [&](std::optional<std::string> out) {
    if (opt.statistics) {
      std::ostringstream s;
      print_statistics(s, statistics);
      env.info(s.str());
    }
    if (opt.timing) {
      std::ostringstream s;
      timing.print(s);
      env.info(s.str());
    }
    return out;
  };

  // Parse and verify the input.
  auto t0 = timing_report::clock::now();
  std::optional<typename ops::doc> parsed;
  {
    progress_step step(env.prog, "parsing " + env.src.name() + env.where);
    parsed = ops::parse(env, text, first_line);
    if (parsed) env.emit_all(ops::verify(*parsed));
  }
  timing.add("Parser", seconds_since(t0));
  if (!parsed || env.failed) return finish(std::nullopt);
  auto& doc = *parsed;
  if constexpr (K == input_kind::mlir)
    if (env.kinds) doc.set_kinds(env.kinds);

  std::optional<std::string> plan_text;
  std::optional<std::string> dot;
  std::optional<neuronrw::ref_schedule_fusion_plan> dot_plan;
  if constexpr (K == input_kind::mlir) {
#if NEURONRW_OPT_HAVE_DOT
    if (opt.dot == dot_mode::before) {
      auto plan = driver_detail::dot_before_plan(doc, opt.pipe);
      dot = emit_dot(doc, plan ? &*plan : nullptr);
    }
#endif
  }

  // The pipeline.
  for (const auto& p : opt.pipe.passes) {
    if (opt.print_before_all) env.info(ir_dump_header("Before", *p.spec) + ops::print(doc, opt) + "\n\n");
    pass_context cx;
    cx.emit = [&](diagnostic d) { env.emit(std::move(d)); };
    cx.format = opt.plans;
    cx.verify_rewrites = opt.verify_rewrites;
    cx.kinds = env.kinds;
    cx.remarks = opt.remarks;
    if constexpr (K == input_kind::mlir) cx.dot_plan = &dot_plan;
    t0 = timing_report::clock::now();
    bool ok;
    {
      progress_step step(env.prog, std::string(p.spec->name) + " on " + env.src.name() + env.where);
      ok = run_pass(doc, p, cx);
      if (ok) {
        if (auto verrs = ops::verify(doc); !verrs.empty()) {
          env.emit(diagnostic{env.src.name(), {}, "the output of " + std::string(p.spec->name) + " does not verify:"});
          env.emit_all(verrs);
          ok = false;
        }
      }
    }
    timing.add(std::string(p.spec->display), seconds_since(t0));
    statistics.push_back({p.spec, std::move(cx.stats)});
    if (!ok || env.failed) {
      if (opt.print_after_failure) env.info(ir_dump_header("After", *p.spec, true) + ops::print(doc, opt) + "\n\n");
      return finish(std::nullopt);
    }
    if (opt.print_after_all && (!opt.print_after_change || cx.changed))
      env.info(ir_dump_header("After", *p.spec) + ops::print(doc, opt) + "\n\n");
    if (cx.plan) plan_text = std::move(cx.plan);
  }

  // The output.
  t0 = timing_report::clock::now();
  std::string out;
  {
    progress_step step(env.prog, "printing " + env.src.name() + env.where);
    if constexpr (K == input_kind::mlir) {
#if NEURONRW_OPT_HAVE_DOT
      if (opt.dot == dot_mode::after) dot = emit_dot(doc, dot_plan ? &*dot_plan : nullptr);
#endif
      if (dot) {
        out = std::move(*dot);
      } else if (plan_text) {
        out = std::move(*plan_text);
      } else if (opt.emit_python) {
        auto errs = neuronrw::emit_python(doc, out);
        env.emit_all(errs);
        if (!errs.empty()) out.clear();
      } else {
        out = ops::print(doc, opt);
      }
    } else {
      out = plan_text ? std::move(*plan_text) : ops::print(doc, opt);
    }
  }
  timing.add("Output", seconds_since(t0));
  if (env.failed) return finish(std::nullopt);
  if (const auto limit = max_output_bytes(text.size()); out.size() > limit) {
    env.emit(diagnostic{env.src.name(), {},
                        "the output would be " + std::to_string(out.size()) + " bytes, more than the " +
                            std::to_string(limit) + " allowed for " + std::to_string(text.size()) + " bytes of input (" +
                            std::to_string(max_output_per_input_byte) + " per input byte plus " +
                            std::to_string(max_output_slack) + ")"});
    return finish(std::nullopt);
  }
  return finish(std::move(out));
}

/// ": " and the system's reason for `errno_value`, or "" when there is none to give.
inline std::string reason(int errno_value) {
  return errno_value != 0 ? std::string(": ") + std::strerror(errno_value) : std::string();
}

/// Writes `text` to standard output (after what std::cout holds); on failure (a full disk, a
/// closed pipe) says so — `neuronrw-opt: error: cannot write to standard output: REASON` — and
/// returns false.
inline bool write_stdout(std::string_view text, std::ostream& err) {
  errno = 0;
  bool ok = static_cast<bool>(std::cout.flush());
  int e = errno;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(STDOUT_FILENO, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      e = n < 0 ? errno : 0;
    } else {
      done += static_cast<std::size_t>(n);
    }
  }
  if (!ok) err << "neuronrw-opt: error: cannot write to standard output" << reason(e) << "\n";
  return ok;
}

/// Writes all of `text` to `fd` (retrying short writes and EINTR). Returns 0, or the errno of the
/// failure (EIO when write() made no progress without saying why).
inline int write_all(int fd, std::string_view text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

/// `path: error: cannot write output file: REASON`; returns the exit code 1.
inline int output_error(const std::string& path, int errno_value, std::ostream& err) {
  err << path << ": error: cannot write output file" << reason(errno_value) << "\n";
  return 1;
}

/// Writes `out` into the file `target` itself (open, truncate, write; fsync when it is a regular
/// file): for a device, a pipe, a hard-linked file, or a dangling symbolic link (created through
/// the link). Failures are reported as `path`'s.
inline int write_in_place(const std::string& path, const std::string& target, const std::string& out,
                          std::ostream& err) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return output_error(path, errno, err);
  int e = write_all(fd, out);
  struct stat st;
  if (e == 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::fsync(fd) != 0) e = errno;
  if (::close(fd) != 0 && e == 0) e = errno;
  return e != 0 ? output_error(path, e, err) : 0;
}

/// Writes `out` to standard output (`-`), or to the file `path` (docs/driver.md §"Output files"):
/// - the file standard output is open on (`-o /dev/stdout`) is written through standard output;
/// - a symbolic link is written through: its target (realpath) is the file written below, and the
///   link stays a link;
/// - a target that exists and is not a regular file (a device such as /dev/null, a FIFO) is
///   written in place, since renaming over it would replace it by a plain file; so is a regular
///   file with more than one hard link, so the links are not split;
/// - otherwise the output goes to a new temporary file `<target>.XXXXXX` created by mkstemp in
///   the target's directory (O_EXCL: no planted name can redirect it), given the old file's mode
///   (or 0666 & ~umask for a new file), fsynced, and renamed over the target, so a failure never
///   leaves a partial file and leaves an existing one untouched;
/// - when no temporary file can be made there (a read-only directory) but the file exists and
///   may be written, it is written in place, as mlir-opt does (the run had succeeded; only a
///   failing write, a full disk, can then leave it partial).
/// Every failure names `path` with the system's reason, removes the temporary file, and returns 1.
inline int write_output(const std::string& path, const std::string& out, std::ostream& err) {
  if (path == "-") return write_stdout(out, err) ? 0 : 1;
  std::string target = path;
  struct stat st;
  bool exists = ::lstat(path.c_str(), &st) == 0;
  if (exists && S_ISLNK(st.st_mode)) {
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (resolved == nullptr) {
      // A dangling link: create its target through it, as mlir-opt (and a shell's `>`) does.
      if (errno == ENOENT) return write_in_place(path, path, out, err);
      return output_error(path, errno, err);
    }
    target = resolved;
    std::free(resolved);
    exists = ::lstat(target.c_str(), &st) == 0;
  }
  // The file standard output already has open (`-o /dev/stdout` with stdout redirected to a
  // file): written through that descriptor, so the shell's `>` or `>>` is honoured and the file
  // keeps its inode, as `-o -` would.
  struct stat out_st;
  if (exists && ::fstat(STDOUT_FILENO, &out_st) == 0 && out_st.st_dev == st.st_dev && out_st.st_ino == st.st_ino)
    return write_stdout(out, err) ? 0 : 1;
  if (exists && (!S_ISREG(st.st_mode) || st.st_nlink > 1)) return write_in_place(path, target, out, err);
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  std::string tmp = target + ".XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    // No temporary file in the target's directory (a read-only directory holding a writable
    // file): an existing file we may write is written in place, as mlir-opt writes it. Only the
    // output is complete then (the run succeeded), but a failed write can leave it partial.
    const int e = errno;
    if (exists && (e == EACCES || e == EROFS || e == EPERM) && ::access(target.c_str(), W_OK) == 0)
      return write_in_place(path, target, out, err);
    return output_error(path, e, err);
  }
  int e = write_all(fd, out);
  if (e == 0 && ::fchmod(fd, mode) != 0) e = errno;
  if (e == 0 && ::fsync(fd) != 0) e = errno;
  if (::close(fd) != 0 && e == 0) e = errno;
  if (e == 0 && ::rename(tmp.c_str(), target.c_str()) != 0) e = errno;
  if (e != 0) {
    ::unlink(tmp.c_str());
    return output_error(path, e, err);
  }
  return 0;
}

/// Reads all of file descriptor `fd` into `text`. Returns 0, or the errno of the failure (EISDIR
/// for a directory, which open() accepts but read() refuses).
inline int read_all(int fd, std::string& text) {
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) return EISDIR;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return 0;
    text.append(buf, static_cast<std::size_t>(n));
  }
}

/// The input's text: the file `input`, or standard input for "-". A file that cannot be opened
/// or read (missing, no permission, a directory) is one error naming it; returns false then.
inline bool read_input(const std::string& input, std::string& text, std::ostream& err) {
  if (input == "-") {
    if (const int e = read_all(STDIN_FILENO, text)) {
      err << "neuronrw-opt: error: cannot read standard input" << reason(e) << "\n";
      return false;
    }
    return true;
  }
  const int fd = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    err << input << ": error: cannot open input file" << reason(errno) << "\n";
    return false;
  }
  const int e = read_all(fd, text);
  ::close(fd);
  if (e != 0) err << input << ": error: cannot read input file" << reason(e) << "\n";
  return e == 0;
}

/// The whole run after the command line was read. Returns the exit code.
template <input_kind K>
int run(const options& opt, std::ostream& err) {
  std::string text;
  const std::string file_name = opt.input == "-" ? "<stdin>" : opt.input;
  if (!read_input(opt.input, text, err)) return 1;
  if (opt.dump_pass_pipeline) err << dump_pipeline(opt.pipe);

  const source_text src(file_name, text);
  progress prog(!opt.quiet, opt.progress_delay_ms);
  run_env env{opt, src, err, prog, nullptr, {}, false, nullptr};
  if (!opt.kinds_file.empty()) {
    bool bad = false;
    env.kinds = pass_detail::read_kinds_file(opt.kinds_file, [&](diagnostic d) {
      bad = true;
      render(err, d, nullptr);
    });
    if (bad || !env.kinds) return 1;
  }
  const std::vector<chunk> chunks =
      opt.split ? split_chunks(text, opt.split_marker) : std::vector<chunk>{chunk{0, text.size(), 1, src.line_count()}};
  bool all_ok = true, all_verified = true;
  std::string joined;
  // Output goes out piece by piece, the marker between pieces, with --split-input-file or when a
  // host file holds several programs (each read on its own, as if it were a chunk).
  bool streamed = opt.split;
  bool first_piece = true;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const chunk& c = chunks[i];
    const std::string_view chunk_text = std::string_view(text).substr(c.begin, c.end - c.begin);
    std::vector<nr::host::program_location> programs;
    if (K == input_kind::host) {
      programs = nr::host::locate_programs(chunk_text, c.first_line);
      for (auto& p : programs)  // --host-parameter: a factory's parameter read as the value given
        for (auto& q : p.parameters)
          for (const auto& h : opt.host_parameters)
            if (q.name == h.name) {
              q.value = h.value;
              if (!h.value) q.symbol = h.symbol;
            }
    }
    if (programs.size() > 1) streamed = true;
    env.where = chunks.size() > 1 ? " (chunk " + std::to_string(i + 1) + "/" + std::to_string(chunks.size()) + ")" : "";
    std::optional<diagnostic_verifier> verifier;
    if (opt.verify_diagnostics) {
      std::vector<diagnostic> bad;
      auto expected = parse_expectations(src, c.first_line, c.last_line, bad);
      verifier.emplace(err, src, std::move(expected), opt.verify_only_expected);
      prog.write([&] {
        for (const auto& b : bad) render(err, b, &src), verifier->fail();
      });
      env.verifier = &*verifier;
    }
    // A chunk is parsed where it stands, with its first line's number (no copy, no padding); a
    // program of several, from its own pieces of the chunk.
    const std::size_t runs = programs.size() > 1 ? programs.size() : 1;
    for (std::size_t k = 0; k < runs; ++k) {
      env.failed = false;
      env.program = programs.empty() ? nullptr : &programs[k];  // located once, read from its pieces
      std::optional<std::string> out;
      if (K == input_kind::host && opt.split && blank_host_chunk(chunk_text)) out = std::string();
      else out = run_chunk<K>(env, chunk_text, c.first_line);
      env.program = nullptr;
      all_ok = all_ok && out.has_value();
      // The chunk or program of the errors above: their lines are the whole file's, as mlir-opt
      // prints them; this names the chunk too (not under --verify-diagnostics, where failing is
      // expected).
      if (!out && (chunks.size() > 1 || runs > 1) && !opt.verify_diagnostics)
        prog.write([&] {
          std::string what;
          if (chunks.size() > 1)
            what = "chunk " + std::to_string(i + 1) + " of " + std::to_string(chunks.size()) + " (lines " +
                   std::to_string(c.first_line) + "-" + std::to_string(c.last_line) + ")";
          if (runs > 1)
            what += (what.empty() ? "program " : ", its program ") + std::to_string(k + 1) + " of " +
                    std::to_string(runs) + " ('" + programs[k].name + "', line " + std::to_string(programs[k].line) + ")";
          render(err, diagnostic{src.name(), {}, what + " failed", severity::note}, &src);
        });
      if (streamed) {
        std::string piece = first_piece ? std::string() : *opt.output_split_marker + "\n";
        first_piece = false;
        if (out) piece += *out + "\n";
        if (opt.output == "-" && !write_stdout(piece, err)) return 1;
        joined += piece;
      } else if (out) {
        joined = std::move(*out);
      }
    }
    if (verifier) {
      prog.write([&] { all_verified = verifier->finish() && all_verified; });
      env.verifier = nullptr;
    }
  }
  const int rc = opt.verify_diagnostics ? (all_verified ? 0 : 1) : (all_ok ? 0 : 1);
  if (streamed && opt.output == "-") return rc;
  if (rc != 0) return rc;
  return write_output(opt.output, joined, err);
}

/// neuronrw-opt with the passes of `reg` (registry.hpp): the command line, then the run. Usage
/// output and messages go to `out` / `err`, the program's output to standard output or -o.
/// Returns the exit code.
inline int driver_main(int argc, char** argv, const pass_registry& reg = default_registry(), std::ostream& out = std::cout,
                std::ostream& err = std::cerr) {
  options opt;
  if (auto rc = parse_command_line(argc, argv, opt, out, err, reg)) return *rc;
  if (opt.dot != dot_mode::none && !NEURONRW_OPT_HAVE_DOT)
    return usage_error(err, "--emit-dot needs Boost.Graph, which this build did not find");
  if (opt.effective_kind == input_kind::mlir && !opt.host_parameters.empty())
    return usage_error(err, "--host-parameter gives a value to a parameter of a host program's factory; the input is MLIR");
  return opt.effective_kind == input_kind::mlir ? run<input_kind::mlir>(opt, err) : run<input_kind::host>(opt, err);
}

}  // namespace neuronrw_opt
