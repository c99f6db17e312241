#pragma once
// simdjson On-Demand is header code compiled for one implementation per translation unit, chosen
// from the compiler's target flags; with the default x86-64 flags that is the slow scalar
// "fallback". With g++ on x86-64 the reader's parse units are compiled for the "haswell" kernel
// (AVX2, BMI, PCLMUL, LZCNT) instead; readChromeJson checks the CPU before using it.
// Include this first in those units (templates instantiated there, std::pair included, must be
// compiled for the same target).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) &&                             \
    !defined(STRATA_SIMDJSON_PORTABLE) && !defined(SIMDJSON_BUILTIN_IMPLEMENTATION)
#pragma GCC target("avx2,bmi,bmi2,pclmul,lzcnt,popcnt")
#define SIMDJSON_BUILTIN_IMPLEMENTATION haswell
#define STRATA_SIMDJSON_HASWELL 1
#endif
#include <simdjson.h>
