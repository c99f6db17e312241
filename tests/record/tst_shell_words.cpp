// core/util/shell_words: the Launch dialog's arguments split as POSIX sh splits words (XCU 2.2),
// without expansion. Expectations worked out by hand from the standard (and checked against
// `sh -c 'for a; do printf "[%s]" "$a"; done' x <text>` where a shell gives the same words).
#include "support/test_main.h"
#include "util/shell_words.h"

#include <QtTest>

using namespace strata;
using Words = std::vector<std::string>;
Q_DECLARE_METATYPE(Words)

class TestShellWords : public QObject {
    Q_OBJECT
private slots:
    void split_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Words>("words");
        QTest::newRow("empty") << "" << Words{};
        QTest::newRow("blanks") << " \t \n " << Words{};
        QTest::newRow("plain") << "train.py --epochs 3" << Words{"train.py", "--epochs", "3"};
        QTest::newRow("runs of blanks") << "  a \t b  " << Words{"a", "b"};
        QTest::newRow("single quotes") << "'a b' c" << Words{"a b", "c"};
        QTest::newRow("single keeps backslash") << "'a\\b'" << Words{"a\\b"};
        QTest::newRow("double quotes") << "\"a b\" \"c'd\"" << Words{"a b", "c'd"};
        QTest::newRow("double: escaped quote") << "\"d\\\"e\"" << Words{"d\"e"};
        QTest::newRow("double: escaped backslash") << "\"a\\\\b\"" << Words{"a\\b"};
        QTest::newRow("double: other backslash kept") << "\"a\\nb\"" << Words{"a\\nb"};
        QTest::newRow("double: escaped dollar") << "\"\\$HOME\"" << Words{"$HOME"};
        QTest::newRow("unquoted escape") << "f\\ g h" << Words{"f g", "h"};
        QTest::newRow("unquoted escaped quote") << "it\\'s" << Words{"it's"};
        QTest::newRow("empty args") << "a '' \"\" b" << Words{"a", "", "", "b"};
        QTest::newRow("adjacent parts join") << "a'b'\"c\"\\d" << Words{"abcd"};
        QTest::newRow("no expansion")
            << "$HOME ~ *.py $(ls)" << Words{"$HOME", "~", "*.py", "$(ls)"};
        QTest::newRow("line continuation") << "a\\\nb c" << Words{"ab", "c"};
        QTest::newRow("utf-8") << "naïve 'größe x'" << Words{"naïve", "größe x"};
        QTest::newRow("the header's example")
            << "a 'b c' \"d\\\"e\" f\\ g ''" << Words{"a", "b c", "d\"e", "f g", ""};
    }
    void split() {
        QFETCH(QString, text);
        QFETCH(Words, words);
        const ShellSplit s = splitShellWords(text.toStdString());
        QVERIFY2(s.ok(), s.error.c_str());
        QCOMPARE(s.words, words);
    }

    void errors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("at");
        QTest::addColumn<QString>("what");
        QTest::newRow("open single") << "a 'b c" << 2 << "single quote";
        QTest::newRow("open double") << "a \"b c" << 2 << "double quote";
        QTest::newRow("double: escaped close") << "x \"b\\\"" << 2 << "double quote";
        QTest::newRow("trailing backslash") << "a b\\" << 3 << "backslash";
    }
    void errors() {
        QFETCH(QString, text);
        QFETCH(int, at);
        QFETCH(QString, what);
        const ShellSplit s = splitShellWords(text.toStdString());
        QVERIFY(!s.ok());
        QCOMPARE(s.errorAt, size_t(at));
        QVERIFY2(QString::fromStdString(s.error).contains(what), s.error.c_str());
    }

    void quoteRoundTrip() {
        const Words cases[] = {{"plain", "--flag=1"},
                               {"a b", "", "it's", "back\\slash", "\"dq\""},
                               {"$HOME", "*", "~user", "tab\there", "new\nline"},
                               {"ünï", "'"}};
        for (const Words& w : cases) {
            const std::string line = joinShellWords(w);
            const ShellSplit s = splitShellWords(line);
            QVERIFY2(s.ok(), line.c_str());
            QCOMPARE(s.words, w);
        }
        QCOMPARE(quoteShellWord("plain-word_1.py"), std::string("plain-word_1.py"));
        QCOMPARE(quoteShellWord(""), std::string("''"));
        QCOMPARE(quoteShellWord("a b"), std::string("'a b'"));
        QCOMPARE(quoteShellWord("it's"), std::string("'it'\\''s'"));
    }
};

STRATA_TEST_APPLESS_MAIN(TestShellWords)
#include "tst_shell_words.moc"
