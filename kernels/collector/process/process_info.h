#pragma once
// What the collector knows about its process from /proc: names and the command line.
#include <cstdint>
#include <string>

namespace strata {

std::string processName();           // /proc/self/comm
std::string threadName(int64_t tid); // /proc/self/task/TID/comm, "" if the thread is gone
std::string commandLine();           // /proc/self/cmdline, arguments joined by spaces
int64_t currentThreadId();           // gettid()

} // namespace strata
