#include "query_editor.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QTextBlock>

#include <algorithm>
#include <map>

namespace strata {

namespace {

const char* const kSqlWords[] = {"SELECT",       "FROM",
                                 "WHERE",        "GROUP BY",
                                 "ORDER BY",     "HAVING",
                                 "LIMIT",        "JOIN",
                                 "LEFT JOIN",    "ON",
                                 "AS",           "AND",
                                 "OR",           "NOT",
                                 "IN",           "LIKE",
                                 "GLOB",         "BETWEEN",
                                 "IS NULL",      "DISTINCT",
                                 "COUNT",        "SUM",
                                 "AVG",          "MIN",
                                 "MAX",          "CASE",
                                 "WHEN",         "THEN",
                                 "ELSE",         "END",
                                 "WITH",         "DESC",
                                 "ASC",          "OVER",
                                 "PARTITION BY", "ROW_NUMBER",
                                 "UNION ALL",    "EXPLAIN QUERY PLAN"};

} // namespace

QueryEditor::QueryEditor(QWidget* parent)
    : QPlainTextEdit(parent), completer_(new QCompleter(this)),
      words_(new QStandardItemModel(this)) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTabChangesFocus(false);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setPlaceholderText(tr("SELECT name, count(*), sum(dur) FROM gpu_ops GROUP BY name ORDER BY 3 "
                          "DESC\n\nCtrl+Enter runs; Ctrl+Space completes table and column names"));
    completer_->setWidget(this);
    completer_->setModel(words_);
    completer_->setCompletionMode(QCompleter::PopupCompletion);
    completer_->setCaseSensitivity(Qt::CaseInsensitive);
    completer_->setModelSorting(QCompleter::CaseInsensitivelySortedModel);
    connect(completer_, qOverload<const QString&>(&QCompleter::activated), this,
            &QueryEditor::insertCompletion);
    setWords({});
}

void QueryEditor::setWords(const std::vector<QueryWord>& words) {
    std::map<QString, QString> all; // sorted without case, one row per word
    for (const char* w : kSqlWords) all[QString::fromLatin1(w)] = tr("SQL");
    for (const QueryWord& w : words) {
        QString& doc = all[w.word];
        if (doc.isEmpty() || doc == tr("SQL"))
            doc = w.doc;
        else if (!doc.contains(w.doc))
            doc += QLatin1Char('\n') + w.doc;
    }
    std::vector<std::pair<QString, QString>> sorted(all.begin(), all.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return a.first.compare(b.first, Qt::CaseInsensitive) < 0;
    });
    words_->clear();
    for (const auto& [word, doc] : sorted) {
        auto* item = new QStandardItem(word);
        item->setToolTip(doc);
        words_->appendRow(item);
    }
}

QStringList QueryEditor::words() const {
    QStringList out;
    for (int r = 0; r < words_->rowCount(); ++r) out << words_->item(r)->text();
    return out;
}

void QueryEditor::moveToByteOffset(int offset) {
    const QByteArray utf8 = toPlainText().toUtf8();
    const int at =
        int(QString::fromUtf8(utf8.left(std::clamp(offset, 0, int(utf8.size())))).size());
    QTextCursor c = textCursor();
    c.setPosition(at);
    setTextCursor(c);
    ensureCursorVisible();
}

QString QueryEditor::wordUnderCursor() const {
    QTextCursor c = textCursor();
    const QString line = c.block().text().left(c.positionInBlock());
    int i = int(line.size());
    while (i > 0 && (line[i - 1].isLetterOrNumber() || line[i - 1] == QLatin1Char('_'))) --i;
    return line.mid(i);
}

void QueryEditor::insertCompletion(const QString& word) {
    if (completer_->widget() != this) return;
    QTextCursor c = textCursor();
    const int typed = int(completer_->completionPrefix().size());
    c.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, typed);
    c.insertText(word);
    setTextCursor(c);
}

void QueryEditor::keyPressEvent(QKeyEvent* e) {
    if (completer_->popup()->isVisible()) {
        switch (e->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Tab:
        case Qt::Key_Escape:
        case Qt::Key_Backtab:
            if (!(e->modifiers() & Qt::ControlModifier)) {
                e->ignore(); // the completer takes them
                return;
            }
            break;
        default:
            break;
        }
    }
    if ((e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter) &&
        (e->modifiers() & Qt::ControlModifier)) {
        completer_->popup()->hide();
        emit runRequested();
        return;
    }
    const bool ask = e->key() == Qt::Key_Space && (e->modifiers() & Qt::ControlModifier);
    if (!ask) QPlainTextEdit::keyPressEvent(e);
    const QString prefix = wordUnderCursor();
    const bool typedLetter = !e->text().isEmpty() &&
                             (e->text()[0].isLetterOrNumber() || e->text()[0] == QLatin1Char('_'));
    if (!ask && (!typedLetter || prefix.size() < 2)) {
        completer_->popup()->hide();
        return;
    }
    if (prefix != completer_->completionPrefix()) {
        completer_->setCompletionPrefix(prefix);
        completer_->popup()->setCurrentIndex(completer_->completionModel()->index(0, 0));
    }
    if (completer_->completionCount() == 0) {
        completer_->popup()->hide();
        return;
    }
    QRect r = cursorRect();
    r.setWidth(completer_->popup()->sizeHintForColumn(0) +
               completer_->popup()->verticalScrollBar()->sizeHint().width());
    completer_->complete(r);
}

} // namespace strata
