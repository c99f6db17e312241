#pragma once
// What the main window tests share: the sample trace, its first GEMM kernel, loading and clicks.
#include "analysis/slice_search.h"
#include "panels/details_panel.h"
#include "panels/range_aggregation_model.h"
#include "panels/range_panel.h"
#include "panels/warnings_panel.h"
#include "strata_resources.h"
#include "timeline/timeline_ruler.h"
#include "timeline/timeline_view.h"
#include "window/find_bar.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/shortcut_help.h"
#include "window/window_pages.h"
#include "window/window_status.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include <memory>

using namespace strata;

inline const QString kSample = QStringLiteral(STRATA_SAMPLE_TRACE);
inline const QString kData = QStringLiteral(STRATA_TEST_DATA "/gui");
// sample_trace.json: the first GEMM kernel (stream 7, correlation 1002, External id 3) and the
// cudaLaunchKernel / aten::mm that launched it; the trace starts at ts 1730000000100.0 us.
inline const char* const kGemm = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_"
                                 "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas";

inline MainWindow::Options testOptions() {
    MainWindow::Options o;
    o.restoreSettings = false;
    return o;
}

inline SliceRef firstNamed(const Trace& t, const std::string& name) {
    const SliceSearchResult r = findSlices(t, {"^" + name + "$", true, true});
    return r.matches.empty() ? SliceRef{} : r.matches.front();
}

inline bool waitLoad(MainWindow& w, QSignalSpy& spy, bool* ok, bool* cancelled) {
    if (spy.isEmpty() && !spy.wait(30000)) return false;
    const QList<QVariant> args = spy.takeFirst();
    *ok = args.at(0).toBool();
    *cancelled = args.at(1).toBool();
    Q_UNUSED(w);
    return true;
}

inline void clickValueCell(QTreeWidget* tree, QTreeWidgetItem* item) {
    tree->scrollToItem(item);
    const QRect r = tree->visualItemRect(item);
    const int x = tree->header()->sectionPosition(1) + 12;
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, QPoint(x, r.center().y()));
}

// Every main window test program starts so: settings in test mode, the bundled resources, the
// sample trace present.
inline void initMainWindowTests() {
    QStandardPaths::setTestModeEnabled(true);
    initResources();
    QVERIFY2(QFile::exists(kSample), qPrintable(kSample));
}
