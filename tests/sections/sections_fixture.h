#pragma once
// What the sections tests share: a section's statistics by name, the statistics of an import, and
// a temporary folder the tests write their files into.
#include "analysis/sections/section_stats.h"
#include "io/sections/sections_import.h"
#include "support/test_files.h"

#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include <string>
#include <vector>

namespace strata::test {

inline const SectionStat* find(const SectionStats& s, const std::string& name) {
    for (const SectionStat& x : s.sections)
        if (x.name == name) return &x;
    return nullptr;
}

inline SectionStats statsOf(const SectionsImport& r, double clockHz = 0) {
    std::vector<const SectionSet*> sets;
    for (const SectionSet& s : r.sets) sets.push_back(&s);
    return sectionStats(sets, clockHz);
}

// A test class whose files go to a folder of its own, removed with it.
class SectionsTestBase : public QObject {
protected:
    QTemporaryDir dir_;
    std::string write(const QString& name, const std::string& bytes) {
        const std::string p = dir_.filePath(name).toStdString();
        writeAll(p, bytes);
        return p;
    }
};

} // namespace strata::test
