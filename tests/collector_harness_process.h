#pragma once
// collector_harness's process scenarios (collector_harness_process.cpp).

int forkScenario();
int signalInCuptiScenario();
int signalScenario(int sig, bool ownHandler);
