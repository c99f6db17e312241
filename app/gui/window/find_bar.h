#pragma once
// The find bar (Ctrl+F): slices and instants by name, substring or regex, case toggle, or by
// their fields and args ("grid>1024", "correlation=471260", "name~gemm && dur>10us": the syntax is
// core/analysis/arg_filter.h's; the status says when no event has a key); Enter / F3
// next, Shift+Enter / Shift+F3 previous (both wrap around), "3 of 120", Esc closes. It owns the
// search (core/analysis/slice_search) over the current trace, selects the current match through
// the navigation (revealed in the views; an instant, which cannot be selected, through
// instantChosen) and tells the window which slices and instants to highlight. The slices come
// first, then the instants.
#include "analysis/slice_search.h"
#include "workspace/meta_types.h"
#include "workspace/trace_panel.h"

#include <memory>

class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace strata {

class FindBar : public TracePanel {
    Q_OBJECT
public:
    FindBar(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    void activate(); // show, focus and select the pattern
    void next();
    void previous();
    void search(); // run the search now (typing runs it after a short pause)
    // Makes match i the current one (selects it); ignored when out of range.
    void setCurrentIndex(int i);

    QLineEdit* edit() const { return edit_; }
    QToolButton* regexButton() const { return regex_; }
    QToolButton* caseButton() const { return case_; }
    QString statusText() const;
    const std::vector<SliceRef>& matches() const { return matches_; }
    const std::vector<InstantRef>& instantMatches() const { return instants_; }
    int currentIndex() const { return current_; }

signals:
    void highlightsChanged(const std::vector<strata::SliceRef>& matches);
    void currentChanged(strata::SliceRef r);
    void instantHighlightsChanged(const std::vector<strata::InstantRef>& matches);
    void instantChosen(strata::InstantRef r);
    void closed();

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void step(bool forward);
    void makeCurrent(int i); // selects match i
    void updateStatus();

    std::shared_ptr<const Trace> trace_;
    int total() const { return int(matches_.size() + instants_.size()); }
    std::vector<SliceRef> matches_;
    std::vector<InstantRef> instants_;
    int current_ = -1;
    QString error_;
    bool badRegex_ = false;
    QString note_; // why nothing matched: "no event has key 'foo'"
    bool dirty_ = true;
    QLineEdit* edit_;
    QToolButton* case_;
    QToolButton* regex_;
    QToolButton* prev_;
    QToolButton* next_;
    QToolButton* close_;
    QLabel* status_;
    QTimer* debounce_;
};

} // namespace strata
