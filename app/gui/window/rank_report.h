#pragma once
// The page a set of ranks known by their digests shows in the middle of the window (no timeline:
// a cluster's job reduced where it ran): what it is, the stragglers, and how to open a rank.
#include <QString>

namespace strata {

class RankSet;

QString rankReportHtml(const RankSet& ranks);

} // namespace strata
