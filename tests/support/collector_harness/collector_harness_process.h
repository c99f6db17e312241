#pragma once
// collector_harness's process scenarios (collector_harness_process.cpp).

int forkScenario();
int signalInCuptiScenario();
int signalScenario(int sig, bool ownHandler);
// Traces one kernel, flushes, then waits (60 s at most) to be stopped: run under strata-cli
// record, whose death must end it (contract/launcher_tie.h). Exits 7 if nothing did.
int launcherScenario();
// Launches kernels at a steady rate for a while (collector_harness_live.cpp): a live run.
int pacedScenario();
// Run under strata-cli record --wait-for-attach (tst_attach): feeds a kernel every 2 ms on the
// collector's clock until $HARNESS_END_FILE exists (120 s at most), printing what it fed.
int attachScenario();
