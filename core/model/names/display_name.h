#pragma once
// Names a user recognises. A demangled kernel or op name ("void at::native::elementwise_kernel<
// 128, 4, at::native::gpu_kernel_impl_nocast<...>(...)::{lambda(int)#1}>(int, ...)") is shortened
// by eliding, from the inside, its template arguments and parameter lists: a template argument
// with no brackets of its own stays ("128", "4", "float"), one with brackets becomes "…", a
// function's parameter list "(…)", the return type "void " goes:
// "at::native::elementwise_kernel<128, 4, …>(…)". Names without a template or a parameter list
// (aten::mm, cudaLaunchKernel, Python frames "module.py(1501): _call_impl", "[memory]") are
// kept as they are.
//
// Where several distinct names would read the same, the elided parts where they differ are
// shown again, shallowest first, until they read apart (distinctShortNames): three
// elementwise_kernel<128, 4, …> become "…<128, 4, gpu_kernel_impl_nocast<BinaryFunctor<…>>(…)::
// {lambda(…)#1}>(…)" and so on. Inside a shown argument, namespace qualifiers are dropped
// ("at::native::") unless they are what differs. Never a bare return type, never empty.
//
// The full name stays what hover, Details and every export show.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// The short form of one name (the full name when it cannot be parsed: unbalanced brackets,
// nesting deeper than 64).
std::string shortName(std::string_view full);

// The short forms of `names` (distinct strings), such that two distinct names never share one.
std::vector<std::string> distinctShortNames(std::span<const std::string_view> names);

} // namespace strata
