// progress.hpp — progress on a terminal: once a step of the run (parsing, a pass, printing) has
// taken longer than a delay (1 s; --progress-delay=MS), a line on stderr says which step is
// running, for which chunk, and for how long, refreshed four times a second and erased when the
// step ends (with a delay of 0, from the step's start: how the tests see it deterministically):
//
//   neuronrw-opt: schedule-fusion on big.mlir (chunk 3/12): 2.5 s
//
// Only when stderr is a terminal (isatty) and --quiet was not given: redirected stderr — a test's,
// a pipe's — never receives it. The line is written by a watcher thread; the steps themselves are
// library calls that report nothing while they run.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include <unistd.h>

namespace neuronrw_opt {

class progress {
 public:
  /// Active when `enabled` and stderr is a terminal.
  progress(bool enabled, unsigned delay_ms) : on_(enabled && ::isatty(STDERR_FILENO) == 1), delay_(delay_ms) {
    if (on_) thread_ = std::thread([this] { watch(); });
  }
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;
  ~progress() {
    if (!on_) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  /// A step starts (ends the previous one).
  void begin(std::string what) {
    if (!on_) return;
    std::lock_guard<std::mutex> lock(mu_);
    clear_locked();
    what_ = std::move(what);
    started_ = clock::now();
    running_ = true;
    if (delay_.count() == 0) show_locked(0.0);  // no delay: at once, from this thread
    cv_.notify_all();
  }
  /// Runs `write` (output to stderr) with the progress line erased, so the two never mix.
  template <class F>
  void write(F&& write) {
    if (!on_) return write();
    std::lock_guard<std::mutex> lock(mu_);
    clear_locked();
    write();
  }
  /// The current step ends: its line, if shown, is erased.
  void end() {
    if (!on_) return;
    std::lock_guard<std::mutex> lock(mu_);
    clear_locked();
    running_ = false;
  }

 private:
  using clock = std::chrono::steady_clock;
  bool on_;
  std::chrono::milliseconds delay_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false, running_ = false, shown_ = false;
  std::string what_;
  clock::time_point started_;

  void show_locked(double seconds) {
    std::fprintf(stderr, "\r\033[Kneuronrw-opt: %s: %.1f s", what_.c_str(), seconds);
    std::fflush(stderr);
    shown_ = true;
  }

  void clear_locked() {
    if (!shown_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_ = false;
  }

  void watch() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      if (!running_) {
        cv_.wait(lock);
        continue;
      }
      const auto elapsed = clock::now() - started_;
      if (elapsed < delay_) {
        cv_.wait_for(lock, delay_ - elapsed);
        continue;
      }
      show_locked(std::chrono::duration<double>(elapsed).count());
      cv_.wait_for(lock, std::chrono::milliseconds(250));
    }
    clear_locked();
  }
};

/// Marks a step for `progress` for the length of a scope.
class progress_step {
 public:
  progress_step(progress& p, std::string what) : p_(p) { p_.begin(std::move(what)); }
  progress_step(const progress_step&) = delete;
  progress_step& operator=(const progress_step&) = delete;
  ~progress_step() { p_.end(); }

 private:
  progress& p_;
};

}  // namespace neuronrw_opt
