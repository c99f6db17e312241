#pragma once
// The Query dock's SQL editor: a plain-text editor in a fixed-width font whose completion
// offers the tables and columns of the query layer (each with its one-line doc on hover) and
// the common SQL words, as a word is typed (from its second letter) or on Ctrl+Space; Tab or
// Enter takes the choice. Ctrl+Enter asks to run the query.
#include <QPlainTextEdit>

class QCompleter;
class QStandardItemModel;

namespace strata {

struct QueryWord {
    QString word;
    QString doc; // what the completion shows on hover
};

class QueryEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit QueryEditor(QWidget* parent = nullptr);
    // The tables and columns offered (the SQL words are always offered).
    void setWords(const std::vector<QueryWord>& words);
    QCompleter* completer() const { return completer_; }
    QStringList words() const;
    // The cursor at byte `offset` of the text as UTF-8 (a syntax error's position).
    void moveToByteOffset(int offset);

signals:
    void runRequested();

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    QString wordUnderCursor() const;
    void insertCompletion(const QString& word);
    QCompleter* completer_;
    QStandardItemModel* words_;
};

} // namespace strata
