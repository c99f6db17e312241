#pragma once
// The GUI told to quit by a Unix signal: SIGTERM (kill, a session manager, a job scheduler),
// SIGINT (Ctrl-C in the terminal it was started from) or SIGHUP (that terminal closed). Every
// window closes without asking; one running a program first stops it as Stop does (SIGINT ->
// SIGTERM -> SIGKILL to the program's whole process group) and writes what the run has (its
// Run record, its console log). Then strata exits with 128 + the signal. A second signal hurries
// the stops (the next signal of the escalation at once).
//
// The handler only writes the signal's number to a pipe (the self-pipe pattern: nothing else is
// async-signal-safe); the event loop reads it through a QSocketNotifier and does the rest.
namespace strata {

// Installs the handlers once the QApplication exists (before its event loop); they stay for
// the life of the process. A signal ignored when strata started (nohup's SIGHUP) stays ignored.
// Returns false, with a warning on stderr, if the pipe cannot be made.
bool quitOnSignals();

// The signal that asked strata to quit, or 0.
int quitSignal();

} // namespace strata
