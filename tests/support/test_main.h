#pragma once
// One test program per area (tests/<area>/, built as tests_<area>): each test class registers
// itself with the STRATA_TEST_*MAIN macro where a single-class program would use QTEST_*MAIN, and
// the program's main (test_main.cpp) runs the class named first on its command line
// (`tests_record tst_launcher -v1 someFunction`; CTest registers each class this way), or every
// class, each in a process of its own, when none is named (`tests_record`, `--list` names them).
//
// A class runs exactly as under QTEST_*MAIN: its initMain(), then the application object of its
// kind (QApplication for STRATA_TEST_MAIN in a program linking Qt Widgets, QCoreApplication for
// STRATA_TEST_GUILESS_MAIN, none for STRATA_TEST_APPLESS_MAIN), then QTest::qExec. The class's
// name on the command line is its file's name without .cpp (tst_launcher for tst_launcher.cpp),
// and its application name (so its settings are its own).
#include <QtTest>

namespace strata::test {

using TestClassRunner = int (*)(int argc, char** argv);

// Records `run` under the name of `sourceFile` (its base name without the extension); returns
// true so that a namespace-scope constant can call it before main.
bool registerTestClass(const char* sourceFile, TestClassRunner run);

} // namespace strata::test

#define STRATA_TEST_CLASS_(TestObject, ...)                                                        \
    namespace {                                                                                    \
    int strataRunTestClass(int argc, char** argv) {                                                \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                         \
        __VA_ARGS__                                                                                \
        TestObject tc;                                                                             \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }                                                                                              \
    [[maybe_unused]] const bool strataTestClassRegistered =                                        \
        strata::test::registerTestClass(__FILE__, &strataRunTestClass);                            \
    }

// QTEST_MAIN: QApplication where Qt Widgets is linked, QGuiApplication where only Qt Gui is.
#define STRATA_TEST_MAIN(TestObject) STRATA_TEST_CLASS_(TestObject, QTEST_MAIN_SETUP())
// QTEST_GUILESS_MAIN: a QCoreApplication.
#define STRATA_TEST_GUILESS_MAIN(TestObject)                                                       \
    STRATA_TEST_CLASS_(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
// QTEST_APPLESS_MAIN: no application object.
#define STRATA_TEST_APPLESS_MAIN(TestObject) STRATA_TEST_CLASS_(TestObject)
